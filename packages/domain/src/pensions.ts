import { z } from 'zod';
import { actingDateSchema, actingDayOfPeriodSchema, actingPeriodSchema } from './acting-dates.ts';
import { type AmountTexts, amountSchema } from './contributors.ts';
import { messageParamsSchema } from './errors.ts';
import { cuiSchema, dateSchema, idSchema, idTextSchema, periodSchema, textSchema } from './fields.ts';
import { exportQueryOf, listQuerySchema } from './list.ts';
import { detail, type Message, msg, text, textWith } from './messages.ts';
import { type Cents, MAX_MONTHLY_AMOUNT_CENTS, parseRate, type Rate } from './money.ts';
import { daysBetween, daysInMonth, periodEnd, periodStart } from './periods.ts';
import { addDays, type SettingsSnapshot } from './settings.ts';
import { availableTransitionSchema, defineMachine, type TransitionRequest, transitionRequestSchemaFor } from './state-machine.ts';

/**
 * Passive classes (clases pasivas) and survival checks (supervivencia), issue 15. DOMAIN.md:
 * "Pensioners", "Survival checks", "RENAP", "Pensions, further". The rules here are pure (dates are
 * `YYYY-MM-DD` text, money bigint cents); the API stores and schedules, the web app shows.
 */

// ─── Vocabulary ─────────────────────────────────────────────────────────────────────────────────────

export const pensionTypes = ['JUBILACION', 'INVALIDEZ', 'VIUDEZ', 'ORFANDAD'] as const;
export const pensionTypeSchema = z.enum(pensionTypes, { error: text('pensions.typeInvalid') });
export type PensionType = z.infer<typeof pensionTypeSchema>;
export const pensionTypeLabels: Record<PensionType, string> = {
  JUBILACION: 'Jubilación',
  INVALIDEZ: 'Invalidez',
  VIUDEZ: 'Viudez',
  ORFANDAD: 'Orfandad',
};
/** Survivor pensions: paid to a beneficiary of a deceased contributor. */
export const survivorPensionTypes: readonly PensionType[] = ['VIUDEZ', 'ORFANDAD'];

export const pensionStates = ['ACTIVA', 'SUSPENDIDA', 'FINALIZADA'] as const;
export const pensionStateSchema = z.enum(pensionStates);
export type PensionState = z.infer<typeof pensionStateSchema>;
export const pensionStateLabels: Record<PensionState, string> = {
  ACTIVA: 'Activa',
  SUSPENDIDA: 'Suspendida',
  FINALIZADA: 'Finalizada',
};

export const relationships = ['CONYUGE', 'HIJO', 'PADRE', 'OTRO'] as const;
export const relationshipSchema = z.enum(relationships, { error: text('pensions.relationshipInvalid') });
export type Relationship = z.infer<typeof relationshipSchema>;
export const relationshipLabels: Record<Relationship, string> = {
  CONYUGE: 'Cónyuge o conviviente',
  HIJO: 'Hijo o hija',
  PADRE: 'Padre o madre',
  OTRO: 'Otro',
};

/** Why a pension is (or was) suspended. */
export const suspensionReasons = ['SUPERVIVENCIA', 'FALLECIMIENTO', 'MANUAL'] as const;
export type SuspensionReason = (typeof suspensionReasons)[number];
export const suspensionReasonLabels: Record<SuspensionReason, string> = {
  SUPERVIVENCIA: 'Supervivencia vencida',
  FALLECIMIENTO: 'Fallecimiento registrado en RENAP',
  MANUAL: 'Suspensión manual',
};

export const survivalMethods = ['PRESENCIAL', 'ACTA_NOTARIAL', 'RENAP'] as const;
export const survivalMethodSchema = z.enum(survivalMethods, { error: text('pensions.survivalMethodInvalid') });
export type SurvivalMethod = z.infer<typeof survivalMethodSchema>;
export const survivalMethodLabels: Record<SurvivalMethod, string> = {
  PRESENCIAL: 'En persona',
  ACTA_NOTARIAL: 'Acta notarial',
  RENAP: 'Confirmación de RENAP',
};

// ─── State machine ──────────────────────────────────────────────────────────────────────────────────

/**
 * ACTIVA ⇄ SUSPENDIDA → FINALIZADA. Suspending and ending need a reason. Reactivating is the
 * survival check's consequence (or a death review found wrong): the API refuses it without one.
 */
export const pensionMachine = defineMachine({
  entityType: 'pension',
  label: 'La pensión',
  states: pensionStates,
  stateLabels: pensionStateLabels,
  initial: 'ACTIVA',
  transitions: [
    {
      key: 'PENSION_SUSPEND',
      from: 'ACTIVA',
      to: 'SUSPENDIDA',
      label: 'Suspender',
      permission: { resource: 'passive-classes', action: 'UPDATE' },
      commentRequired: true,
    },
    {
      key: 'PENSION_REACTIVATE',
      from: 'SUSPENDIDA',
      to: 'ACTIVA',
      label: 'Reactivar',
      permission: { resource: 'supervivencia', action: 'CREATE' },
      commentRequired: false,
    },
    {
      key: 'PENSION_END',
      from: ['ACTIVA', 'SUSPENDIDA'],
      to: 'FINALIZADA',
      label: 'Finalizar',
      permission: { resource: 'passive-classes', action: 'APPROVE' },
      commentRequired: true,
    },
  ],
});
export const pensionTransitionSchema = transitionRequestSchemaFor(pensionMachine);
export type PensionTransitionRequest = TransitionRequest<PensionState>;

// ─── Dates ──────────────────────────────────────────────────────────────────────────────────────────

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** The later of two `YYYY-MM-DD` dates (text compares as dates; Math.max would not). */
export const laterDate = (a: string, b: string) => (a > b ? a : b);

export { addMonths, daysBetween, daysInMonth, periodEnd, periodOf, periodStart, periodsBetween } from './periods.ts';

/**
 * The pensioner's birthday in `year`. Someone born on 29 February has it on 28 February in a year
 * that is not a leap year (the last day of their month).
 */
export function birthdayIn(birthDate: string, year: number): string {
  const md = birthDate.slice(5);
  if (md === '02-29' && daysInMonth(`${pad(year, 4)}-02`) === 28) return `${pad(year, 4)}-02-28`;
  return `${pad(year, 4)}-${md}`;
}

/** The age in whole years on `on`. */
export function ageOn(birthDate: string, on: string): number {
  const years = Number(on.slice(0, 4)) - Number(birthDate.slice(0, 4));
  return on < birthdayIn(birthDate, Number(on.slice(0, 4))) ? years - 1 : years;
}

// ─── Survival checks ────────────────────────────────────────────────────────────────────────────────

type SurvivalSettings = Pick<SettingsSnapshot, 'survival.windowDaysAfterBirthday' | 'survival.graceDays'>;

/**
 * The birthday whose check is due next: the first birthday strictly after `after` — the last check,
 * or the pension's start (its resolution proves the pensioner alive that day). One check a year:
 * a check covers the birthday cycle it was presented in.
 */
export function nextSurvivalDue(birthDate: string, after: string): string {
  const year = Number(after.slice(0, 4));
  const thisYear = birthdayIn(birthDate, year);
  return thisYear > after ? thisYear : birthdayIn(birthDate, year + 1);
}

/**
 * The windows of one due birthday: the check is due from the birthday to `windowEnd` (window days
 * after it, settings), overdue after that, and the pension is suspended after `graceEnd` (grace days
 * more, settings). The settings are those in force on the day asked about.
 */
export function survivalWindow(due: string, s: SurvivalSettings) {
  const windowEnd = addDays(due, s['survival.windowDaysAfterBirthday']);
  const graceEnd = addDays(windowEnd, s['survival.graceDays']);
  return { due, windowEnd, graceEnd };
}

export const survivalStatuses = ['AL_DIA', 'PENDIENTE', 'VENCIDA', 'SUSPENDER'] as const;
export type SurvivalStatus = (typeof survivalStatuses)[number];
export const survivalStatusLabels: Record<SurvivalStatus, string> = {
  AL_DIA: 'Al día',
  PENDIENTE: 'Por presentar',
  VENCIDA: 'Vencida (en gracia)',
  SUSPENDER: 'Vencida: se suspende',
};

/**
 * Where a pension stands on `asOf` for the check due on `due`: not yet due (AL_DIA), inside the window
 * (PENDIENTE), overdue but within grace (VENCIDA), or beyond grace (SUSPENDER: the daily job suspends).
 */
export function survivalStatus(due: string, asOf: string, s: SurvivalSettings): SurvivalStatus {
  const w = survivalWindow(due, s);
  if (asOf < w.due) return 'AL_DIA';
  if (asOf <= w.windowEnd) return 'PENDIENTE';
  if (asOf <= w.graceEnd) return 'VENCIDA';
  return 'SUSPENDER';
}

/**
 * The latest due birthday a pension may still be unsuspended for on `asOf`: a pension whose due
 * birthday is before this date is beyond grace. The daily job compares stored due dates with it, so it
 * runs as one indexed range over any number of pensions.
 */
export function suspendIfDueBefore(asOf: string, s: SurvivalSettings): string {
  return addDays(asOf, -(s['survival.windowDaysAfterBirthday'] + s['survival.graceDays']));
}

// ─── Orphans ────────────────────────────────────────────────────────────────────────────────────────

type OrphanSettings = Pick<SettingsSnapshot, 'pensions.orphanEndAge' | 'pensions.orphanStudyingEndAge'>;

/**
 * The day an orphan's pension ends (the day before the birthday of the end age, settings), or the
 * studying end age while a study certificate is valid on the ordinary end date.
 */
export function orphanEndDate(birthDate: string, s: OrphanSettings, studyCertificateUntil?: string | null): string {
  const ordinary = addDays(birthdayIn(birthDate, Number(birthDate.slice(0, 4)) + s['pensions.orphanEndAge']), -1);
  if (!studyCertificateUntil || studyCertificateUntil < ordinary) return ordinary;
  const studying = addDays(birthdayIn(birthDate, Number(birthDate.slice(0, 4)) + s['pensions.orphanStudyingEndAge']), -1);
  // A certificate covers until its own date; the pension ends then unless a new one comes, and never after the studying age.
  return studyCertificateUntil < studying ? studyCertificateUntil : studying;
}

// ─── Money ──────────────────────────────────────────────────────────────────────────────────────────

/** `cents` × `num` / `den`, rounded half-up to the cent (amounts are not negative here). */
export function prorate(cents: Cents, num: number, den: number): Cents {
  if (!Number.isInteger(num) || !Number.isInteger(den) || den <= 0 || num < 0) throw new RangeError('Proporción no válida.');
  if (num >= den) return cents;
  const n = cents * BigInt(num) * 2n + BigInt(den);
  return n / (2n * BigInt(den));
}

/**
 * What a pension pays for `period`: the days of the month it runs (from its start, to its end when it
 * has one) and the monthly amount prorated by those days over the days of the month. Zero days: none.
 */
export function monthlyPayable(
  p: { monthly: Cents; startDate: string; endDate?: string | null },
  period: string,
): { days: number; cents: Cents } {
  const first = periodStart(period);
  const last = periodEnd(period);
  const from = laterDate(p.startDate, first);
  const to = p.endDate && p.endDate < last ? p.endDate : last;
  if (to < from) return { days: 0, cents: 0n };
  const days = daysBetween(from, to) + 1;
  return { days, cents: prorate(p.monthly, days, daysInMonth(period)) };
}

/** The amount in force on `date` among effective-dated changes (latest `from` on or before it). */
export function amountOn<T extends { effectiveFrom: string }>(changes: readonly T[], date: string): T | undefined {
  let best: T | undefined;
  for (const c of changes) if (c.effectiveFrom <= date && (!best || c.effectiveFrom >= best.effectiveFrom)) best = c;
  return best;
}

/** Sum of shares (four-decimal percentage text) in ten-thousandths of a percent, exactly. */
export function sharesTotal(shares: readonly Rate[]): bigint {
  return shares.reduce((s, r) => s + BigInt(r.replace('.', '')), 0n);
}
export const sharesExceed100 = (shares: readonly Rate[]) => sharesTotal(shares) > 1_000_000n;

// ─── Eligibility (issue 28) ─────────────────────────────────────────────────────────────────────────

type EligibilitySettings = Pick<
  SettingsSnapshot,
  | 'pensions.retirementMinAge'
  | 'pensions.retirementMinContributionMonths'
  | 'pensions.disabilityMinContributionMonths'
  | 'pensions.survivorMinContributionMonths'
>;

/** A planilla (sent, in review, observed, approved or paid) of the last months that names the person. */
export interface EmploymentFact {
  entityName: string;
  period: string;
}

/** What the history says about a pension's holder (and, for survivors, about the deceased contributor). */
export interface EligibilityFacts {
  type: PensionType;
  /** The holder's age in whole years on the start date. */
  age: number;
  /** Months with a contribution of the contributor (the deceased one for a survivor pension). */
  contributionMonths: number;
  /** The holder's employment on recent planillas (newest first). */
  employment: readonly EmploymentFact[];
}

export const eligibilityCodes = ['EDAD', 'COTIZACIONES', 'EMPLEO_ACTIVO'] as const;
export type EligibilityCode = (typeof eligibilityCodes)[number];
/** REFUSE: the pension is not registered; WARN: registered only when the clerk confirms having read it. */
export const eligibilitySeverities = ['REFUSE', 'WARN'] as const;
export type EligibilitySeverity = (typeof eligibilitySeverities)[number];
export interface EligibilityIssue {
  code: EligibilityCode;
  severity: EligibilitySeverity;
  message: Message;
}

/**
 * The eligibility of a pension of `f.type` (docs/decisions.md, "Pension eligibility"):
 * - JUBILACION: under the minimum age on the start date is refused (the birth date is RENAP's); fewer
 *   contribution months than required is a warning (the history does not hold service before the
 *   system; the resolution rests on the file); employment on a recent planilla is a warning.
 * - INVALIDEZ: no age; fewer months than required and recent employment are warnings.
 * - VIUDEZ, ORFANDAD: the deceased contributor's months, a warning; the survivor's own employment is
 *   no concern (the orphan's age is checked when the pension is created).
 */
export function pensionEligibility(f: EligibilityFacts, s: EligibilitySettings): EligibilityIssue[] {
  const out: EligibilityIssue[] = [];
  const months = (
    min: number,
    key: 'eligibilityRetirementContributions' | 'eligibilityDisabilityContributions' | 'eligibilitySurvivorContributions',
  ) => {
    if (f.contributionMonths < min) {
      out.push({
        code: 'COTIZACIONES',
        severity: 'WARN',
        message: msg(`pensions.${key}`, { months: f.contributionMonths, min }),
      });
    }
  };
  if (f.type === 'JUBILACION') {
    const min = s['pensions.retirementMinAge'];
    if (f.age < min)
      out.push({ code: 'EDAD', severity: 'REFUSE', message: msg('pensions.eligibilityUnderAge', { age: f.age, min }) });
    months(s['pensions.retirementMinContributionMonths'], 'eligibilityRetirementContributions');
  } else if (f.type === 'INVALIDEZ') {
    months(s['pensions.disabilityMinContributionMonths'], 'eligibilityDisabilityContributions');
  } else {
    months(s['pensions.survivorMinContributionMonths'], 'eligibilitySurvivorContributions');
  }
  if (!survivorPensionTypes.includes(f.type)) {
    for (const e of f.employment) {
      out.push({
        code: 'EMPLEO_ACTIVO',
        severity: 'WARN',
        message: msg('pensions.eligibilityActiveEmployment', { period: e.period, entity: e.entityName }),
      });
    }
  }
  return out;
}

/** One eligibility finding as the API answers it (the message with its key and parameters). */
export const eligibilityIssueSchema = z.object({
  code: z.enum(eligibilityCodes),
  severity: z.enum(eligibilitySeverities),
  message: z.string(),
  key: z.string().optional(),
  params: messageParamsSchema.optional(),
});
export type EligibilityIssueView = z.infer<typeof eligibilityIssueSchema>;
export const eligibilityIssueView = (i: EligibilityIssue): EligibilityIssueView => ({
  code: i.code,
  severity: i.severity,
  ...detail(i.message),
});

export const pensionEligibilitySchema = z.object({
  age: z.number().int(),
  contributionMonths: z.number().int(),
  employment: z.array(z.object({ entityName: z.string(), period: z.string() })),
  issues: z.array(eligibilityIssueSchema),
});
export type PensionEligibility = z.infer<typeof pensionEligibilitySchema>;

/** POST /api/pensions/eligibility: what registering this pension would find, before registering it. */
export const pensionEligibilityInputSchema = z.object({
  cui: cuiSchema,
  type: pensionTypeSchema,
  startDate: dateSchema,
});

// ─── Contracts ──────────────────────────────────────────────────────────────────────────────────────

const shareSchema = z.union([z.string(), z.number()], { error: text('pensions.shareRequired') }).transform((v, ctx) => {
  const r = parseRate(v, { max: '100.0000' });
  if (!r.ok) {
    ctx.addIssue({ code: 'custom', message: textWith('pensions.shareInvalid', { reason: r.message }) });
    return z.NEVER;
  }
  if (r.rate === '0.0000') {
    ctx.addIssue({ code: 'custom', message: text('pensions.shareNotPositive') });
    return z.NEVER;
  }
  return r.rate;
});

const personName = textSchema({ label: 'Nombre completo', max: 150, min: 3 });
const bankAccountSchema = z
  .string({ error: text('pensions.bankAccountRequired') })
  .trim()
  .regex(/^[0-9][0-9-]{4,28}[0-9]$/, { error: text('pensions.bankAccountInvalid') });

const monthlyAmountTexts: AmountTexts = {
  required: text('pensions.monthlyAmountRequired'),
  invalid: (reason) => textWith('pensions.monthlyAmountInvalid', { reason }),
};

export const beneficiaryInputSchema = z.object({
  cui: cuiSchema,
  fullName: personName,
  birthDate: actingDateSchema('La fecha de nacimiento'),
  relationship: relationshipSchema,
  share: shareSchema,
  /** Until when the study certificate presented covers (orphans from the end age on). */
  studyCertificateUntil: z.preprocess((v) => (v === '' ? null : v), dateSchema.nullable().optional()),
});
export type BeneficiaryInput = z.input<typeof beneficiaryInputSchema>;

/** The beneficiaries of a pension: CUIs not repeated, shares summing at most 100 %. */
export const beneficiaryListSchema = z
  .array(beneficiaryInputSchema)
  .max(20, { error: text('pensions.tooManyBeneficiaries') })
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((b, i) => {
      if (seen.has(b.cui)) ctx.addIssue({ code: 'custom', path: [i, 'cui'], message: text('pensions.beneficiaryCuiRepeated') });
      seen.add(b.cui);
    });
    if (sharesExceed100(list.map((b) => b.share))) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: text('pensions.sharesExceed100'),
      });
    }
  });

export const pensionInputSchema = z
  .object({
    /** The pensioner: a contributor (JUBILACION, INVALIDEZ) or a beneficiary of a deceased contributor's pension (VIUDEZ, ORFANDAD). */
    cui: cuiSchema,
    type: pensionTypeSchema,
    resolutionNumber: textSchema({ label: 'Número de resolución', max: 60, min: 1 }),
    resolutionDate: actingDateSchema('La fecha de la resolución'),
    startDate: dateSchema,
    monthlyAmount: amountSchema(monthlyAmountTexts, { maxCents: MAX_MONTHLY_AMOUNT_CENTS }),
    bankAccount: bankAccountSchema,
    beneficiaries: beneficiaryListSchema.default([]),
  })
  .superRefine((v, ctx) => {
    if (v.startDate < v.resolutionDate) {
      ctx.addIssue({ code: 'custom', path: ['startDate'], message: text('pensions.startBeforeResolution') });
    }
    if (v.monthlyAmount === '0.00') {
      ctx.addIssue({ code: 'custom', path: ['monthlyAmount'], message: text('pensions.monthlyAmountNotPositive') });
    }
  });
export type PensionInput = z.input<typeof pensionInputSchema>;

export const pensionUpdateSchema = z.object({
  resolutionNumber: textSchema({ label: 'Número de resolución', max: 60, min: 1 }).optional(),
  bankAccount: bankAccountSchema.optional(),
  beneficiaries: beneficiaryListSchema.optional(),
});

/** An effective-dated amount change; earlier amounts are kept. */
export const amountChangeInputSchema = z.object({
  monthlyAmount: amountSchema(monthlyAmountTexts, { maxCents: MAX_MONTHLY_AMOUNT_CENTS }).refine((v) => v !== '0.00', {
    error: text('pensions.monthlyAmountNotPositive'),
  }),
  effectiveFrom: dateSchema,
  reason: textSchema({ label: 'Motivo', max: 500, min: 5 }),
});

export const beneficiarySchema = z.object({
  id: z.number().int(),
  cui: z.string(),
  fullName: z.string(),
  birthDate: z.string(),
  relationship: relationshipSchema,
  share: z.string(),
  studyCertificateUntil: z.string().nullable(),
  /** When this beneficiary's right ends (orphans: the end age), null for life. */
  endDate: z.string().nullable(),
});
export type Beneficiary = z.infer<typeof beneficiarySchema>;

export const pensionSchema = z.object({
  id: z.number().int(),
  contributorId: z.number().int(),
  contributorCui: z.string(),
  contributorName: z.string(),
  cui: z.string(),
  fullName: z.string(),
  birthDate: z.string(),
  type: pensionTypeSchema,
  resolutionNumber: z.string(),
  resolutionDate: z.string(),
  startDate: z.string(),
  endDate: z.string().nullable(),
  monthlyAmount: z.string(),
  bankAccount: z.string(),
  state: pensionStateSchema,
  entityId: z.number().int().nullable(),
  entityName: z.string().nullable(),
  survivalDue: z.string().nullable(),
  lastCheckDate: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Pension = z.infer<typeof pensionSchema>;

export const amountChangeSchema = z.object({
  id: z.number().int(),
  monthlyAmount: z.string(),
  effectiveFrom: z.string(),
  reason: z.string(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
});

export const suspensionSchema = z.object({
  id: z.number().int(),
  reason: z.enum(suspensionReasons),
  fromDate: z.string(),
  toDate: z.string().nullable(),
  comment: z.string().nullable(),
});

export const owedMonthSchema = z.object({
  period: z.string(),
  amount: z.string(),
  paidInPayrollPeriod: z.string().nullable(),
});

export const pensionDetailSchema = pensionSchema.extend({
  beneficiaries: z.array(beneficiarySchema),
  amounts: z.array(amountChangeSchema),
  suspensions: z.array(suspensionSchema),
  owedMonths: z.array(owedMonthSchema),
  survivalStatus: z.enum(survivalStatuses).nullable(),
  survivalWindowEnd: z.string().nullable(),
  survivalGraceEnd: z.string().nullable(),
  transitions: z.array(availableTransitionSchema),
});
export type PensionDetail = z.infer<typeof pensionDetailSchema>;

export const pensionListQuerySchema = listQuerySchema.extend({
  type: pensionTypeSchema.optional(),
  state: pensionStateSchema.optional(),
  entityId: idTextSchema.optional(),
  contributorId: idTextSchema.optional(),
});
export type PensionListQuery = z.infer<typeof pensionListQuerySchema>;
export const pensionExportQuerySchema = exportQueryOf(pensionListQuerySchema);

// ─── Survival checks ────────────────────────────────────────────────────────────────────────────────

export const survivalCheckInputSchema = z
  .object({
    checkDate: actingDateSchema('La fecha de la supervivencia'),
    method: survivalMethodSchema,
    /** The notarised act's file (uploaded first, POST /api/survival-checks/attachments); required for ACTA_NOTARIAL. */
    attachmentFileId: idSchema.nullable().optional(),
    notes: z.preprocess(
      (v) => (v === '' ? null : v),
      textSchema({ label: 'Observaciones', max: 500, multiline: true }).nullable().optional(),
    ),
  })
  .superRefine((v, ctx) => {
    if (v.method === 'ACTA_NOTARIAL' && !v.attachmentFileId) {
      ctx.addIssue({ code: 'custom', path: ['attachmentFileId'], message: text('pensions.notarialActRequired') });
    }
  });
export type SurvivalCheckInput = z.input<typeof survivalCheckInputSchema>;

export const survivalCheckSchema = z.object({
  id: z.number().int(),
  pensionId: z.number().int(),
  cui: z.string(),
  fullName: z.string(),
  checkDate: z.string(),
  method: survivalMethodSchema,
  coversDue: z.string(),
  attachmentFileId: z.number().int().nullable(),
  attachmentName: z.string().nullable(),
  notes: z.string().nullable(),
  reactivated: z.boolean(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
});
export type SurvivalCheck = z.infer<typeof survivalCheckSchema>;

export const survivalListKinds = ['due', 'overdue', 'done'] as const;
export const survivalListQuerySchema = listQuerySchema.extend({
  kind: z.enum(survivalListKinds).default('due'),
  /** The day the lists are computed for; today by default. */
  asOf: dateSchema.optional(),
  entityId: idTextSchema.optional(),
});
export type SurvivalListQuery = z.infer<typeof survivalListQuerySchema>;

/** One row of the due / overdue lists: the pension and its window. */
export const survivalDueSchema = pensionSchema.extend({
  windowEnd: z.string(),
  graceEnd: z.string(),
  status: z.enum(survivalStatuses),
});
export type SurvivalDue = z.infer<typeof survivalDueSchema>;

/** Letters are sent ahead: every pensioner's next due date falls within the next twelve months. */
export const LETTER_MONTHS_AHEAD = 12;
export const survivalLettersQuerySchema = z.object({
  /** A day of the month whose due pensioners get a letter (and the date the letters bear); today when absent. */
  asOf: actingDayOfPeriodSchema('El mes de las cartas', LETTER_MONTHS_AHEAD).optional(),
  entityId: idTextSchema.optional(),
});

export const survivalJobInputSchema = z.object({
  /**
   * The day the job acts as of (administrators: to rerun a missed day or rehearse a date); today when
   * absent, never after today. Suspensions are dated the day after the grace ends, not this day.
   */
  asOf: actingDateSchema('La fecha de corte').optional(),
});

/** POST /api/survival/renap-jobs: nothing to choose, every pensioner is checked (an empty body, or none). */
export const renapJobInputSchema = z.object({}).optional();

// ─── Reviews (RENAP death records) ──────────────────────────────────────────────────────────────────

export const reviewStates = ['ABIERTA', 'CONFIRMADA', 'DESCARTADA'] as const;
export const reviewStateLabels: Record<(typeof reviewStates)[number], string> = {
  ABIERTA: 'Abierta',
  CONFIRMADA: 'Fallecimiento confirmado',
  DESCARTADA: 'Descartada (el pensionado vive)',
};
export const pensionReviewSchema = z.object({
  id: z.number().int(),
  pensionId: z.number().int(),
  cui: z.string(),
  fullName: z.string(),
  deathDate: z.string(),
  state: z.enum(reviewStates),
  resolution: z.string().nullable(),
  openedAt: z.string(),
  closedAt: z.string().nullable(),
});
export type PensionReview = z.infer<typeof pensionReviewSchema>;
export const reviewListQuerySchema = listQuerySchema.extend({ state: z.enum(reviewStates).optional() });
export const reviewDecisionSchema = z.object({
  decision: z.enum(['CONFIRMADA', 'DESCARTADA'], { error: text('pensions.decisionRequired') }),
  resolution: textSchema({ label: 'Resolución', max: 1000, min: 5, multiline: true }),
});

// ─── Payroll ────────────────────────────────────────────────────────────────────────────────────────

export const payrollStates = ['BORRADOR', 'CERRADA'] as const;
export const payrollStateLabels: Record<(typeof payrollStates)[number], string> = { BORRADOR: 'Borrador', CERRADA: 'Cerrada' };
export const payrollLineKinds = ['MENSUAL', 'ATRASO'] as const;
export const payrollLineKindLabels: Record<(typeof payrollLineKinds)[number], string> = {
  MENSUAL: 'Pensión del mes',
  ATRASO: 'Mes suspendido pagado',
};

export const pensionPayrollSchema = z.object({
  id: z.number().int(),
  period: z.string(),
  state: z.enum(payrollStates),
  lines: z.number().int(),
  pensions: z.number().int(),
  total: z.string(),
  owedTotal: z.string(),
  excludedSuspended: z.number().int(),
  generatedAt: z.string(),
  closedAt: z.string().nullable(),
  closedBy: z.string().nullable(),
});
export type PensionPayroll = z.infer<typeof pensionPayrollSchema>;

export const payrollLineSchema = z.object({
  id: z.number().int(),
  pensionId: z.number().int(),
  cui: z.string(),
  fullName: z.string(),
  type: pensionTypeSchema,
  kind: z.enum(payrollLineKinds),
  forPeriod: z.string(),
  days: z.number().int(),
  amount: z.string(),
  bankAccount: z.string(),
});
export type PayrollLine = z.infer<typeof payrollLineSchema>;

/** What the payroll left out (EXCLUIDA: not paid) or pointed out (OBSERVADA: paid, to be looked at), with the reason. */
export const payrollExceptionKinds = ['EXCLUIDA', 'OBSERVADA'] as const;
export const payrollExceptionReasons = ['FALLECIMIENTO', 'SUPERVIVENCIA', 'MANUAL', 'EMPLEO_ACTIVO'] as const;
export type PayrollExceptionReason = (typeof payrollExceptionReasons)[number];
export const payrollExceptionSchema = z.object({
  id: z.number().int(),
  pensionId: z.number().int(),
  cui: z.string(),
  fullName: z.string(),
  type: pensionTypeSchema,
  kind: z.enum(payrollExceptionKinds),
  reason: z.enum(payrollExceptionReasons),
  message: z.string(),
  key: z.string().optional(),
  params: messageParamsSchema.optional(),
});
export type PayrollException = z.infer<typeof payrollExceptionSchema>;
export const payrollExceptionsQuerySchema = listQuerySchema.extend({ kind: z.enum(payrollExceptionKinds).optional() });

/** The message of an exclusion: why a suspended pension is not paid, from the date its suspension started. */
export function exclusionMessage(reason: SuspensionReason, from: string): Message {
  if (reason === 'FALLECIMIENTO') return msg('pensions.payrollExcludedDeath', { date: from });
  if (reason === 'SUPERVIVENCIA') return msg('pensions.payrollExcludedSurvival', { date: from });
  return msg('pensions.payrollExcludedManual', { date: from });
}

export const payrollParamsSchema = z.object({ period: periodSchema });
/**
 * A new payroll is for the current or the next month (prepared ahead); an earlier month only when its
 * draft exists (checked by the API), to correct or close it.
 */
export const PAYROLL_MONTHS_AHEAD = 1;
export const payrollGenerateParamsSchema = z.object({ period: actingPeriodSchema('El período', PAYROLL_MONTHS_AHEAD) });
export const payrollLinesQuerySchema = listQuerySchema.extend({
  kind: z.enum(payrollLineKinds).optional(),
  pensionId: idTextSchema.optional(),
});
export const payrollListQuerySchema = listQuerySchema;

export const pensionIdParamsSchema = z.object({ id: idTextSchema });

export const survivalListResponseSchema = z.object({
  kind: z.enum(survivalListKinds),
  asOf: z.string(),
  checks: z.object({ items: z.array(survivalCheckSchema), total: z.number().int() }).nullable(),
  pensions: z.object({ items: z.array(survivalDueSchema), total: z.number().int() }).nullable(),
});
export type SurvivalListResponse = z.infer<typeof survivalListResponseSchema>;

export const pensionPaymentSchema = payrollLineSchema.extend({ payrollPeriod: z.string(), payrollState: z.enum(payrollStates) });
export const renapPensionCheckSchema = z.object({
  result: z.string(),
  deathDate: z.string().nullable(),
  reviewOpened: z.boolean(),
  warning: z.string().nullable(),
});
export const attachmentSchema = z.object({ id: z.number().int(), filename: z.string(), size: z.number().int() });
