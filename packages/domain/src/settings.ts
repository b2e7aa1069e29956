import { z } from 'zod';
import { type BusinessCalendar, businessCalendarSchema, initialBusinessCalendar, nextBusinessDay } from './calendar.ts';
import { dateSchema, idTextSchema } from './fields.ts';
import { text, textWith } from './messages.ts';
import { formatRate, type Rate, rateInputSchema } from './money.ts';

/**
 * The catalogue of effective-dated settings: every value DOMAIN.md marks *(config)*, with its type,
 * unit, Spanish label and description, and the initial value the seed installs from 2000-01-01. The
 * institution's legal values were not available, so nothing in the code may hard-code them: rules
 * read them from `settingsAt(date)` (apps/api/src/modules/settings/service.ts).
 *
 * A value is stored as JSON (rates as their numeric(7,4) text, `"7.0000"`), validated by its key's
 * schema when it is scheduled and again whenever it is read.
 */

export const settingTopics = [
  'contributions',
  'paymentOrders',
  'agreements',
  'pensions',
  'workflow',
  'mail',
  'calendar',
] as const;
export type SettingTopic = (typeof settingTopics)[number];

export const settingTopicLabels: Record<SettingTopic, string> = {
  contributions: 'Cuotas y planillas',
  paymentOrders: 'Órdenes de pago y pagos',
  agreements: 'Convenios de pago',
  pensions: 'Clases pasivas y supervivencia',
  workflow: 'Solicitudes (SIG)',
  mail: 'Correo y recordatorios',
  calendar: 'Calendario de días hábiles',
};

/** How a value is typed in and shown: chooses the input of the screen and the formatter. */
export const settingKinds = ['rate', 'integer', 'budgetLines', 'choice', 'calendar'] as const;
export type SettingKind = (typeof settingKinds)[number];

// ─── Value schemas ─────────────────────────────────────────────────────────────────────────────────

/** A percentage setting: typed as people write it (parseRate), kept as numeric(7,4) text, at most 100 %. */
const percent = rateInputSchema(undefined, { max: '100.0000' });

const whole = (min: number, max: number, unit: string) =>
  z
    .number({ error: text('settings.wholeNumber') })
    .int({ error: text('settings.wholeNumber') })
    .min(min, { error: unit ? textWith('settings.minimumIsUnit', { min, unit }) : textWith('settings.minimumIs', { min }) })
    .max(max, { error: unit ? textWith('settings.maximumIsUnit', { max, unit }) : textWith('settings.maximumIs', { max }) });

/** A budget line code: three digits (011, 022, 031…). */
export const budgetLineCodeSchema = z.string().regex(/^\d{3}$/, { error: text('settings.budgetLineCodeDigits') });

const budgetLines = z
  .array(budgetLineCodeSchema, { error: text('settings.budgetLinesRequired') })
  .min(1, { error: text('settings.budgetLinesMin') })
  .max(100)
  .refine((v) => new Set(v).size === v.length, { error: text('settings.budgetLinesRepeated') })
  .transform((v) => [...v].sort());

/** The business-day calendar (schema, computed rules, functions) is calendar.ts, re-exported here. */
export * from './calendar.ts';

export const excessPaymentPolicies = ['REFUSE', 'CREDIT'] as const;
export const excessPaymentPolicyLabels: Record<(typeof excessPaymentPolicies)[number], string> = {
  REFUSE: 'Se rechaza el excedente',
  CREDIT: 'Queda como saldo a favor de la entidad',
};

// ─── The catalogue ─────────────────────────────────────────────────────────────────────────────────

interface Definition<S extends z.ZodType> {
  topic: SettingTopic;
  kind: SettingKind;
  schema: S;
  /** Spanish unit shown beside the value (`%`, `días`, `cuotas`…); empty when the kind says it all. */
  unit: string;
  label: string;
  description: string;
  initial: z.output<S>;
}

const define = <S extends z.ZodType>(d: Definition<S>) => d;

export const settingDefinitions = {
  'contributions.employeeRate': define({
    topic: 'contributions',
    kind: 'rate',
    schema: percent,
    unit: '%',
    label: 'Cuota laboral',
    description: 'Porcentaje del salario que se descuenta al empleado en cada línea de planilla sujeta a cuota.',
    initial: '7.0000',
  }),
  'contributions.employerRate': define({
    topic: 'contributions',
    kind: 'rate',
    schema: percent,
    unit: '%',
    label: 'Cuota patronal',
    description: 'Porcentaje del salario que aporta la entidad municipal en cada línea sujeta a cuota.',
    initial: '7.0000',
  }),
  'contributions.subjectBudgetLines': define({
    topic: 'contributions',
    kind: 'budgetLines',
    schema: budgetLines,
    unit: '',
    label: 'Renglones sujetos a cuota',
    description: 'Renglones presupuestarios cuyos salarios pagan cuota laboral y patronal; los demás (029 y otros) no.',
    initial: ['011', '021', '022', '031', '035', '036'],
  }),
  'planillas.salaryChangeWarningRate': define({
    topic: 'contributions',
    kind: 'rate',
    schema: percent,
    unit: '%',
    label: 'Cambio de salario que genera advertencia',
    description: 'Variación del salario respecto del período anterior a partir de la cual la revisión muestra una advertencia.',
    initial: '20.0000',
  }),
  'paymentOrders.dueDay': define({
    topic: 'paymentOrders',
    kind: 'integer',
    schema: whole(1, 28, ''),
    unit: 'del mes siguiente',
    label: 'Día de vencimiento',
    description:
      'Día del mes siguiente al período en que vence la orden de pago; si no es hábil, vence el siguiente día hábil. Hasta 28, para que exista en todos los meses.',
    initial: 20,
  }),
  'paymentOrders.annualInterestRate': define({
    topic: 'paymentOrders',
    kind: 'rate',
    schema: percent,
    unit: '% anual',
    label: 'Interés por mora',
    description:
      'Interés simple anual sobre el capital no pagado desde el día siguiente al vencimiento (capital × tasa × días / 365).',
    initial: '12.0000',
  }),
  'paymentOrders.businessDaysAfterLateApproval': define({
    topic: 'paymentOrders',
    kind: 'integer',
    schema: whole(0, 60, 'días hábiles'),
    unit: 'días hábiles',
    label: 'Plazo tras una aprobación tardía',
    description:
      'Cuando una planilla se presentó a tiempo pero se aprobó después de su vencimiento legal, sus órdenes vencen estos días hábiles después de la aprobación: la entidad no paga intereses por los días de revisión.',
    initial: 5,
  }),
  'payments.excessPolicy': define({
    topic: 'paymentOrders',
    kind: 'choice',
    schema: z.enum(excessPaymentPolicies, { error: text('settings.excessPolicyRequired') }),
    unit: '',
    label: 'Pago que excede el saldo',
    description: 'Qué ocurre con lo que un pago cubre de más sobre los saldos de las órdenes que nombra.',
    initial: 'REFUSE' as (typeof excessPaymentPolicies)[number],
  }),
  'receipts.rangeWarningRemaining': define({
    topic: 'paymentOrders',
    kind: 'integer',
    schema: whole(0, 100000, 'formas'),
    unit: 'formas',
    label: 'Aviso de rango 7-B por agotarse',
    description: 'Cuando a un rango de recibos 7-B le quedan estas formas o menos, cada pago y la lista de rangos lo advierten.',
    initial: 50,
  }),
  'voluntary.minSalary': define({
    topic: 'paymentOrders',
    kind: 'integer',
    schema: whole(1, 1_000_000, 'quetzales'),
    unit: 'quetzales',
    label: 'Salario mínimo del pago voluntario',
    description: 'El salario que declara quien paga voluntariamente no puede ser menor (en quetzales).',
    initial: 3000,
  }),
  'voluntary.maxSalary': define({
    topic: 'paymentOrders',
    kind: 'integer',
    schema: whole(1, 1_000_000, 'quetzales'),
    unit: 'quetzales',
    label: 'Salario máximo del pago voluntario',
    description: 'El salario que declara quien paga voluntariamente no puede ser mayor (en quetzales).',
    initial: 30000,
  }),
  'agreements.adminChargeRate': define({
    topic: 'agreements',
    kind: 'rate',
    schema: percent,
    unit: '%',
    label: 'Cargo administrativo',
    description: 'Porcentaje que se suma a capital e intereses al formar la deuda de un convenio.',
    initial: '5.0000',
  }),
  'agreements.downPaymentRate': define({
    topic: 'agreements',
    kind: 'rate',
    schema: percent,
    unit: '%',
    label: 'Enganche',
    description: 'Porcentaje de la deuda del convenio que se paga al firmarlo.',
    initial: '10.0000',
  }),
  'agreements.maxInstalments': define({
    topic: 'agreements',
    kind: 'integer',
    schema: whole(1, 120, 'cuotas'),
    unit: 'cuotas',
    label: 'Máximo de cuotas',
    description: 'Número máximo de cuotas mensuales iguales de un convenio (la última absorbe el redondeo).',
    initial: 36,
  }),
  'agreements.overdueInstalmentsForDefault': define({
    topic: 'agreements',
    kind: 'integer',
    schema: whole(1, 12, 'cuotas'),
    unit: 'cuotas vencidas',
    label: 'Cuotas vencidas para incumplimiento',
    description: 'Cuotas vencidas con las que el convenio pasa a INCUMPLIDO y el saldo se vuelve exigible.',
    initial: 2,
  }),
  'agreements.maxRestructurings': define({
    topic: 'agreements',
    kind: 'integer',
    schema: whole(0, 10, 'reestructuraciones'),
    unit: 'reestructuraciones',
    label: 'Reestructuraciones permitidas',
    description: 'Veces que un mismo convenio puede reestructurarse.',
    initial: 2,
  }),
  'agreements.minDebt': define({
    topic: 'agreements',
    kind: 'integer',
    schema: whole(0, 10_000_000, 'quetzales'),
    unit: 'quetzales',
    label: 'Deuda mínima para un convenio',
    description:
      'Un convenio se forma solo sobre una deuda (capital, intereses y cargo) de al menos este monto, en quetzales; una deuda menor se paga de una vez. 0 no pone mínimo.',
    initial: 1000,
  }),
  'agreements.solvencyValidityDays': define({
    topic: 'agreements',
    kind: 'integer',
    schema: whole(1, 365, 'días'),
    unit: 'días',
    label: 'Vigencia de la constancia de solvencia',
    description: 'Días que una constancia de solvencia sigue vigente desde su emisión (la verificación pública lo indica).',
    initial: 30,
  }),
  'survival.windowDaysAfterBirthday': define({
    topic: 'pensions',
    kind: 'integer',
    schema: whole(1, 365, 'días'),
    unit: 'días',
    label: 'Plazo de supervivencia',
    description: 'Días después del cumpleaños del pensionado dentro de los cuales debe presentar la supervivencia.',
    initial: 30,
  }),
  'survival.graceDays': define({
    topic: 'pensions',
    kind: 'integer',
    schema: whole(0, 365, 'días'),
    unit: 'días',
    label: 'Gracia de supervivencia',
    description: 'Días adicionales al plazo antes de suspender la pensión por falta de supervivencia.',
    initial: 30,
  }),
  'pensions.orphanEndAge': define({
    topic: 'pensions',
    kind: 'integer',
    schema: whole(1, 30, 'años'),
    unit: 'años',
    label: 'Fin de la pensión de orfandad',
    description: 'Edad a la que termina la pensión de orfandad.',
    initial: 18,
  }),
  'pensions.orphanStudyingEndAge': define({
    topic: 'pensions',
    kind: 'integer',
    schema: whole(1, 30, 'años'),
    unit: 'años',
    label: 'Fin de la orfandad con estudios',
    description: 'Edad a la que termina la pensión de orfandad mientras se presente cada año la constancia de estudios.',
    initial: 25,
  }),
  'pensions.retirementMinAge': define({
    topic: 'pensions',
    kind: 'integer',
    schema: whole(18, 80, 'años'),
    unit: 'años',
    label: 'Edad mínima para la jubilación',
    description: 'Una pensión de jubilación no se registra para quien no ha cumplido esta edad en la fecha de inicio.',
    initial: 50,
  }),
  'pensions.retirementMinContributionMonths': define({
    topic: 'pensions',
    kind: 'integer',
    schema: whole(0, 600, 'meses'),
    unit: 'meses',
    label: 'Cotizaciones para la jubilación',
    description:
      'Meses cotizados (líneas sujetas a cuota de planillas aprobadas) que el historial debe mostrar; con menos, registrar la jubilación pide confirmar que el expediente acredita el tiempo de servicio.',
    initial: 240,
  }),
  'pensions.disabilityMinContributionMonths': define({
    topic: 'pensions',
    kind: 'integer',
    schema: whole(0, 600, 'meses'),
    unit: 'meses',
    label: 'Cotizaciones para la invalidez',
    description: 'Meses cotizados que el historial debe mostrar para una pensión de invalidez; con menos, se pide confirmar.',
    initial: 36,
  }),
  'pensions.survivorMinContributionMonths': define({
    topic: 'pensions',
    kind: 'integer',
    schema: whole(0, 600, 'meses'),
    unit: 'meses',
    label: 'Cotizaciones del causante (viudez y orfandad)',
    description:
      'Meses que el afiliado fallecido debe haber cotizado para una pensión de viudez u orfandad; con menos, se pide confirmar.',
    initial: 36,
  }),
  'pensions.activeEmploymentMonths': define({
    topic: 'pensions',
    kind: 'integer',
    schema: whole(1, 24, 'meses'),
    unit: 'meses',
    label: 'Meses de planilla que indican empleo activo',
    description:
      'Quien figura en una planilla enviada, en revisión, observada, aprobada o pagada de estos últimos meses (contando el mes en curso) es empleado activo: registrar su jubilación o invalidez pide confirmar y la planilla de pensiones lo señala.',
    initial: 3,
  }),
  'sig.slaDays': define({
    topic: 'workflow',
    kind: 'integer',
    schema: whole(1, 365, 'días'),
    unit: 'días',
    label: 'Plazo de atención por estado',
    description:
      'Días que una solicitud puede esperar en un estado antes de marcarse vencida, cuando el estado del flujo no fija su propio plazo.',
    initial: 5,
  }),
  'mail.reminderBusinessDays': define({
    topic: 'mail',
    kind: 'integer',
    schema: whole(1, 20, 'días hábiles'),
    unit: 'días hábiles',
    label: 'Aviso antes del vencimiento',
    description:
      'Días hábiles antes del vencimiento de una orden de pago o de una cuota de convenio en que la entidad recibe el primer recordatorio por correo; el segundo llega un día hábil antes.',
    initial: 3,
  }),
  'mail.signingReminderAfterDays': define({
    topic: 'mail',
    kind: 'integer',
    schema: whole(1, 30, 'días'),
    unit: 'días',
    label: 'Recordatorio de firma pendiente',
    description:
      'Días que un documento espera la firma de alguien antes del primer recordatorio por correo; después se le recuerda cada día mientras siga pendiente.',
    initial: 2,
  }),
  'mail.signingRemindersMax': define({
    topic: 'mail',
    kind: 'integer',
    schema: whole(0, 30, 'recordatorios'),
    unit: 'recordatorios',
    label: 'Recordatorios de firma como máximo',
    description: 'Cuántos recordatorios recibe como máximo quien tiene un documento pendiente de firma (0: ninguno).',
    initial: 3,
  }),
  'mail.survivalNoticeDays': define({
    topic: 'mail',
    kind: 'integer',
    schema: whole(1, 60, 'días'),
    unit: 'días',
    label: 'Aviso de supervivencia por vencer',
    description:
      'Días antes de que cierre el plazo de supervivencia de un pensionado en que el personal de pensiones recibe el aviso por correo.',
    initial: 7,
  }),
  'calendar.holidays': define({
    topic: 'calendar',
    kind: 'calendar',
    schema: businessCalendarSchema,
    unit: '',
    label: 'Feriados y medios días',
    description:
      'Sábados, domingos y estos feriados no son días hábiles; los medios días cuentan como hábiles. La Semana Santa (miércoles medio día; jueves, viernes y sábado) se calcula desde el Domingo de Resurrección y el 30 de junio se traslada según el Decreto 19-2018: no se ingresan. Los días extraordinarios llevan su base legal.',
    initial: initialBusinessCalendar,
  }),
} as const;

export type SettingDefinitions = typeof settingDefinitions;
export type SettingKey = keyof SettingDefinitions;
export const settingKeys = Object.keys(settingDefinitions) as SettingKey[];
export const settingKeySchema = z.enum(settingKeys as [SettingKey, ...SettingKey[]], {
  error: text('settings.settingKeyUnknown'),
});
export const isSettingKey = (k: string): k is SettingKey => Object.hasOwn(settingDefinitions, k);

/** The typed value of every setting on one date. */
export type SettingsSnapshot = { [K in SettingKey]: z.output<SettingDefinitions[K]['schema']> };

/** The date the initial values take effect from: before any data the institution keeps. */
export const INITIAL_SETTINGS_FROM = '2000-01-01';

// One formatter for every call: building one cost ~50 µs, paid several times per request (bench/month-end.mjs).
const guatemalaDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Guatemala',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/**
 * Today in Guatemala (UTC−6 all year), `YYYY-MM-DD`: the day that decides whether a value is in force,
 * whatever the server's time zone.
 */
export function guatemalaToday(now: Date = new Date()): string {
  return guatemalaDay.format(now);
}

/** The initial value of every setting, as the seed installs it. */
export const initialSettings = (): SettingsSnapshot =>
  Object.fromEntries(settingKeys.map((k) => [k, settingDefinitions[k].initial])) as SettingsSnapshot;

/**
 * The schema of one key's value, for a body or a form. Messages start with the setting's label so they
 * name the field.
 */
export function settingValueSchema(key: SettingKey): z.ZodType<unknown> {
  const d = settingDefinitions[key] as Definition<z.ZodType>;
  return z.unknown().transform((v, ctx) => {
    const r = d.schema.safeParse(v);
    if (r.success) return r.data;
    for (const issue of r.error.issues) {
      ctx.addIssue({
        code: 'custom',
        message: textWith('settings.settingProblem', { setting: d.label, problem: issue.message }),
        path: issue.path as PropertyKey[],
      });
    }
    return z.NEVER;
  });
}

// ─── What a calculation stores ───────────────────────────────────────────────────────────────────────

/** The settings in force on a date, with the date each value took effect (which row was used). */
export interface SettingsAt {
  asOf: string;
  values: SettingsSnapshot;
  effectiveFrom: Record<SettingKey, string>;
}

/**
 * What a calculation stores beside its result: the date it was computed for and, for each setting it
 * used, the value and the date that value took effect. Self-contained (the value itself, not only a
 * reference), so a stored calculation explains itself even after the settings change.
 */
export const settingsUsedSchema = z.object({
  asOf: dateSchema,
  values: z.record(z.string(), z.object({ value: z.unknown(), from: dateSchema })),
});
export type SettingsUsed = z.infer<typeof settingsUsedSchema>;

/** The compact record of the settings `keys` a calculation took from `s`. */
export function settingsUsed(s: SettingsAt, keys: readonly SettingKey[]): SettingsUsed {
  return {
    asOf: s.asOf,
    values: Object.fromEntries(keys.map((k) => [k, { value: s.values[k], from: s.effectiveFrom[k] }])),
  };
}

// ─── Business days ─────────────────────────────────────────────────────────────────────────────────

/**
 * Due date of a payment order for `period` (`YYYY-MM`): the configured day of the following month,
 * moved to the next business day.
 */
export function paymentDueDate(period: string, s: Pick<SettingsSnapshot, 'paymentOrders.dueDay' | 'calendar.holidays'>): string {
  const [y, m] = period.split('-').map(Number);
  const next = new Date(Date.UTC(y, m, s['paymentOrders.dueDay']));
  return nextBusinessDay(next.toISOString().slice(0, 10), s['calendar.holidays']);
}

// ─── API contracts ─────────────────────────────────────────────────────────────────────────────────

/** One stored value of a setting (scheduled, in force, superseded or cancelled) as the API answers it. */
export const settingValueEntrySchema = z.object({
  id: z.number().int(),
  value: z.unknown(),
  effectiveFrom: z.string(),
  reason: z.string(),
  retroactive: z.boolean(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  cancelledBy: z.string().nullable(),
  cancelReason: z.string().nullable(),
});
export type SettingValueEntry = z.infer<typeof settingValueEntrySchema>;

/** One row of the settings screen: the definition, the value in force today and the next scheduled one. */
export const settingOverviewSchema = z.object({
  key: settingKeySchema,
  topic: z.enum(settingTopics),
  kind: z.enum(settingKinds),
  unit: z.string(),
  label: z.string(),
  description: z.string(),
  current: settingValueEntrySchema,
  next: settingValueEntrySchema.nullable(),
});
export type SettingOverview = z.infer<typeof settingOverviewSchema>;

export const settingsOverviewSchema = z.object({ today: z.string(), items: z.array(settingOverviewSchema) });
export type SettingsOverview = z.infer<typeof settingsOverviewSchema>;

export const settingHistorySchema = z.object({
  key: settingKeySchema,
  today: z.string(),
  items: z.array(settingValueEntrySchema),
});
export type SettingHistory = z.infer<typeof settingHistorySchema>;

const reasonSchema = (label: string) =>
  z
    .string({ error: textWith('settings.reasonMissing', { label }) })
    .trim()
    .min(5, { error: textWith('settings.reasonTooShort', { label }) })
    .max(500, { error: textWith('settings.reasonTooLong', { label }) });

/**
 * Scheduling a value: from a date, with a reason. A date not after today is a retroactive change: it
 * must be asked for explicitly (`retroactive: true`); calculations already stored keep the values they
 * recorded, only new calculations of those dates see it.
 */
export const scheduleSettingSchema = z.object({
  value: z.unknown(),
  effectiveFrom: dateSchema,
  reason: reasonSchema('Motivo'),
  retroactive: z.boolean().default(false),
});
export type ScheduleSettingInput = z.input<typeof scheduleSettingSchema>;

export const cancelSettingSchema = z.object({ reason: reasonSchema('Motivo de la anulación') });
export type CancelSettingInput = z.infer<typeof cancelSettingSchema>;

export const settingKeyParamsSchema = z.object({ key: settingKeySchema });
export const settingValueParamsSchema = z.object({ key: settingKeySchema, id: idTextSchema });

// ─── Display ───────────────────────────────────────────────────────────────────────────────────────

/** A value in words for lists, exports and the audit trail (the web app formats richer by kind). */
export function describeSettingValue(key: SettingKey, value: unknown): string {
  const d = settingDefinitions[key];
  switch (d.kind) {
    case 'rate':
      return `${formatRate(value as Rate).replace(' %', '')} ${d.unit}`;
    case 'integer':
      return `${value} ${d.unit}`;
    case 'budgetLines':
      return (value as string[]).join(', ');
    case 'choice':
      return excessPaymentPolicyLabels[value as keyof typeof excessPaymentPolicyLabels] ?? String(value);
    case 'calendar': {
      const c = value as BusinessCalendar;
      return `${c.fixed.length} feriados nacionales fijos, ${c.local.length} local, ${c.extraordinary.length} extraordinarios, ${c.halfDays.length} medios días; Semana Santa y 30 de junio calculados`;
    }
  }
}
