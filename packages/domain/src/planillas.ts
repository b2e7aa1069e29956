import { z } from 'zod';
import { actingDateSchema, actingPeriodSchema } from './acting-dates.ts';
import { foldName } from './contributors.ts';
import { type CuiProblem, cuiProblem, normalizeCui } from './cui.ts';
import { messageParamsSchema } from './errors.ts';
import { idSchema, periodSchema, textSchema } from './fields.ts';
import { type ImportColumn, importBatchSchema } from './imports.ts';
import { listQuerySchema } from './list.ts';
import { detail, type Message, msg, text } from './messages.ts';
import { applyRate, type Cents, MAX_MONTHLY_AMOUNT_CENTS, moneyDecimalSchema, parseAmount, type Rate } from './money.ts';
import { parseCellDate } from './parse.ts';
import { periodCount, periodOf, periodsBetween } from './periods.ts';
import { settingsUsedSchema } from './settings.ts';
import { availableTransitionSchema, defineMachine, type TransitionRequest, transitionRequestSchemaFor } from './state-machine.ts';

/**
 * Planillas (issue 12): an entity's monthly declaration, one line per employee. The calculation and the
 * validation of a line are pure functions here, used by the upload, the on-screen editing and the
 * recalculation alike, so a line is judged the same way whatever way it came in.
 */

// ─── Types and states ───────────────────────────────────────────────────────────────────────────────

export const planillaTypes = ['ORDINARIA', 'COMPLEMENTARIA', 'SALARIOS_CAIDOS'] as const;
export const planillaTypeSchema = z.enum(planillaTypes, { error: text('planillas.typeInvalid') });
export type PlanillaType = z.infer<typeof planillaTypeSchema>;
export const planillaTypeLabels: Record<PlanillaType, string> = {
  ORDINARIA: 'Ordinaria',
  COMPLEMENTARIA: 'Complementaria',
  SALARIOS_CAIDOS: 'Salarios caídos',
};

export const planillaStates = [
  'BORRADOR',
  'ENVIANDO',
  'ENVIADA',
  'EN_REVISION',
  'OBSERVADA',
  'APROBADA',
  'RECHAZADA',
  'PAGADA',
  'ANULADA',
] as const;
export const planillaStateSchema = z.enum(planillaStates, { error: text('planillas.stateInvalid') });
export type PlanillaState = z.infer<typeof planillaStateSchema>;

/** States the entity may still edit lines in. */
export const editablePlanillaStates: readonly PlanillaState[] = ['BORRADOR', 'OBSERVADA'];
/**
 * A planilla being sent: its job re-validates and recalculates every line (platform job `planillas.submit`);
 * nobody edits, submits or voids it meanwhile, and the job ends it in ENVIADA or puts it back where it was.
 */
export const SUBMITTING_STATE = 'ENVIANDO' as const satisfies PlanillaState;
/** States whose lines count in a contributor's history (declared and accepted). */
export const historyPlanillaStates: readonly PlanillaState[] = ['APROBADA', 'PAGADA'];

const REVIEW = { resource: 'planillas', action: 'APPROVE' } as const;

/**
 * The lifecycle of DOMAIN.md. `PAGADA` is reached when the payment orders are paid in full (payments
 * issue): no transition leads there yet. Voiding: the entity voids its own draft (planillas UPDATE);
 * anything further along needs planillas DELETE (central staff). Submitting is a background job: the
 * user's step leads to `ENVIANDO` (a transient state: no edits, no second submit); the job's own `system`
 * steps end it in `ENVIADA`, or put it back in `BORRADOR` / `OBSERVADA` with the reason (a blocking error
 * found, a cancel, a failure), so a planilla is never left sending.
 */
export const planillaMachine = defineMachine({
  entityType: 'planilla',
  label: 'La planilla',
  states: planillaStates,
  stateLabels: {
    BORRADOR: 'Borrador',
    ENVIANDO: 'Enviando',
    ENVIADA: 'Enviada',
    EN_REVISION: 'En revisión',
    OBSERVADA: 'Observada',
    APROBADA: 'Aprobada',
    RECHAZADA: 'Rechazada',
    PAGADA: 'Pagada',
    ANULADA: 'Anulada',
  },
  initial: 'BORRADOR',
  transitions: [
    {
      key: 'PLANILLA_SUBMIT',
      from: ['BORRADOR', 'OBSERVADA'],
      to: 'ENVIANDO',
      label: 'Enviar a revisión',
      permission: { resource: 'planillas', action: 'UPDATE' },
      commentRequired: false,
    },
    {
      key: 'PLANILLA_SUBMITTED',
      from: 'ENVIANDO',
      to: 'ENVIADA',
      label: 'Envío completado (validada y calculada)',
      permission: { resource: 'planillas', action: 'UPDATE' },
      commentRequired: false,
      system: true,
    },
    {
      key: 'PLANILLA_SUBMIT_UNDONE',
      from: 'ENVIANDO',
      to: 'BORRADOR',
      label: 'Envío no completado',
      permission: { resource: 'planillas', action: 'UPDATE' },
      commentRequired: true,
      system: true,
    },
    {
      key: 'PLANILLA_SUBMIT_UNDONE_OBSERVED',
      from: 'ENVIANDO',
      to: 'OBSERVADA',
      label: 'Envío no completado',
      permission: { resource: 'planillas', action: 'UPDATE' },
      commentRequired: true,
      system: true,
    },
    {
      key: 'PLANILLA_TAKE',
      from: 'ENVIADA',
      to: 'EN_REVISION',
      label: 'Tomar para revisión',
      permission: REVIEW,
      commentRequired: false,
    },
    {
      key: 'PLANILLA_APPROVE',
      from: 'EN_REVISION',
      to: 'APROBADA',
      label: 'Aprobar',
      permission: REVIEW,
      commentRequired: false,
      notByMaker: true,
    },
    {
      key: 'PLANILLA_OBSERVE',
      from: 'EN_REVISION',
      to: 'OBSERVADA',
      label: 'Observar',
      permission: REVIEW,
      commentRequired: true,
    },
    {
      key: 'PLANILLA_REJECT',
      from: 'EN_REVISION',
      to: 'RECHAZADA',
      label: 'Rechazar',
      permission: REVIEW,
      commentRequired: true,
    },
    {
      key: 'PLANILLA_DISCARD',
      from: 'BORRADOR',
      to: 'ANULADA',
      label: 'Anular borrador',
      permission: { resource: 'planillas', action: 'UPDATE' },
      commentRequired: true,
    },
    {
      key: 'PLANILLA_VOID',
      from: ['ENVIADA', 'EN_REVISION', 'OBSERVADA', 'APROBADA'],
      to: 'ANULADA',
      label: 'Anular',
      permission: { resource: 'planillas', action: 'DELETE' },
      commentRequired: true,
    },
  ],
  makerMessage: text('planillas.approveNotByMaker'),
});

// ─── Periods ────────────────────────────────────────────────────────────────────────────────────────

export { formatPeriod, nextPeriod, periodOf, periodsBetween, previousPeriod } from './periods.ts';

/** A period after the current one cannot be declared yet (the current month can: payroll closes in it). */
export const isFuturePeriod = (period: string, today: string): boolean => period > periodOf(today);

/** The months between the first and the last of `declared` that have none: the gaps of a history. */
export function contributionGaps(declared: Iterable<string>, range?: { from: string; to: string }): string[] {
  const set = new Set(declared);
  if (!set.size && !range) return [];
  const sorted = [...set].sort();
  const from = range?.from ?? sorted[0];
  const to = range?.to ?? sorted[sorted.length - 1];
  return periodsBetween(from, to).filter((p) => !set.has(p));
}

// ─── Contributions ──────────────────────────────────────────────────────────────────────────────────

/** The settings a planilla's calculation reads, as settingsAt(first day of the period) gives them. */
export interface ContributionRates {
  employeeRate: Rate;
  employerRate: Rate;
  subjectBudgetLines: readonly string[];
}

export const PLANILLA_SETTING_KEYS = [
  'contributions.employeeRate',
  'contributions.employerRate',
  'contributions.subjectBudgetLines',
  'planillas.salaryChangeWarningRate',
] as const;

/** The first day of a period: the date whose settings are in force for it. */
export { periodStart } from './periods.ts';

/**
 * One line's contributions (DOMAIN.md): when its budget line is subject, employee = salary × employee
 * rate and employer = salary × employer rate, EACH rounded half-up to the cent (applyRate); otherwise
 * both are zero.
 */
export function lineContribution(
  salary: Cents,
  budgetLine: string,
  rates: ContributionRates,
): { subject: boolean; employee: Cents; employer: Cents } {
  const subject = rates.subjectBudgetLines.includes(budgetLine);
  if (!subject) return { subject, employee: 0n, employer: 0n };
  return { subject, employee: applyRate(salary, rates.employeeRate), employer: applyRate(salary, rates.employerRate) };
}

/** Totals of a planilla: sums of its rounded lines (never a rate applied to a total). */
export function planillaTotals(lines: readonly { salary: Cents | null; employee: Cents; employer: Cents }[]) {
  let salary = 0n;
  let employee = 0n;
  let employer = 0n;
  for (const l of lines) {
    salary += l.salary ?? 0n;
    employee += l.employee;
    employer += l.employer;
  }
  return { salary, employee, employer };
}

// ─── Validation of one line ─────────────────────────────────────────────────────────────────────────

export const lineIssueCodes = [
  /** A problem the upload found in the file's row (re-checked by the domain when the line is edited or submitted). */
  'ARCHIVO',
  'CUI',
  'CUI_REPETIDO',
  'NOMBRE',
  'RENGLON',
  'SALARIO',
  'DIAS',
  'MOVIMIENTO',
  'RENAP_DESCONOCIDO',
  'RENAP_NOMBRE',
  'RENAP_FALLECIDO',
  'CAMBIO_SALARIO',
  'NUEVO',
] as const;
export type LineIssueCode = (typeof lineIssueCodes)[number];

/**
 * A problem of one line: a blocking error or a warning, with the field it is about. `message` is the
 * Spanish text; `key` and `params` let the web say it in the user's language (messages.ts). Issues stored
 * before messages had keys have none.
 */
export const lineIssueSchema = z.object({
  code: z.enum(lineIssueCodes),
  field: z.string(),
  message: z.string(),
  key: z.string().optional(),
  params: messageParamsSchema.optional(),
});
export type LineIssue = z.infer<typeof lineIssueSchema>;

/** A line issue from a catalogue message. */
const lineIssue = (code: LineIssueCode, field: string, m: Message): LineIssue => ({ code, field, ...detail(m) });

/** A line's CUI problem, by what cuiProblem says. */
const lineCuiProblems: Record<CuiProblem, Message> = {
  EMPTY: msg('planillas.lineCuiEmpty'),
  FORMAT: msg('planillas.lineCuiFormat'),
  LENGTH: msg('planillas.lineCuiLength'),
  CHECK_DIGIT: msg('planillas.lineCuiCheckDigit'),
  DEPARTMENT: msg('planillas.lineCuiDepartment'),
  MUNICIPALITY: msg('planillas.lineCuiMunicipality'),
};

export const movements = ['ALTA', 'BAJA'] as const;
export type Movement = (typeof movements)[number];
export const movementLabels: Record<Movement, string> = { ALTA: 'Alta', BAJA: 'Baja' };

/** A line as typed or read from a file: every value as text. */
export interface RawLine {
  cui: string;
  fullName: string;
  budgetLine: string;
  salary: string | number;
  days?: string | null;
  movement?: string | null;
  movementDate?: string | null;
}

/** What RENAP's copy says about a CUI, for the warnings. */
export interface RenapFacts {
  fullName: string;
  deathDate: string | null;
}

export interface LineContext {
  period: string;
  rates: ContributionRates;
  /** Rate (percentage text) of salary change against the previous period that raises a warning. */
  salaryChangeWarningRate: Rate;
  /** Budget line codes of the catalogue (active). */
  budgetLines: ReadonlySet<string>;
  /** The salaries of the previous period's planilla, by CUI; null when there is no previous planilla. */
  previous: ReadonlyMap<string, Cents> | null;
  /** RENAP facts of the line's CUI: a value when known, null when unknown, undefined when not checked. */
  renap?: RenapFacts | null;
}

/** A checked line: its normalised values, amounts, errors (blocking) and warnings. */
export interface CheckedLine {
  cui: string;
  fullName: string;
  budgetLineCode: string;
  salary: Cents | null;
  /** The salary as typed, kept only when it could not be read as an amount. */
  salaryText: string | null;
  daysWorked: number | null;
  movement: Movement | null;
  movementDate: string | null;
  subject: boolean;
  employee: Cents;
  employer: Cents;
  errors: LineIssue[];
  warnings: LineIssue[];
}

const MAX_NAME = 150;

/**
 * Checks and calculates one line. Blocking errors (DOMAIN.md): bad CUI, salary ≤ 0 or not a number
 * (or with more than two decimals, or above MAX_MONTHLY_AMOUNT_CENTS), unknown budget line, a person
 * RENAP records as dead before the period; also a missing name, days outside 0–31 and a
 * malformed movement. Duplicate CUIs are a property of the whole planilla (see duplicateCuiIssue).
 * Warnings: CUI unknown to RENAP, name differs from RENAP, deceased in or after the period, salary changed more than
 * the configured rate against the previous period, new employee (absent from the previous period).
 * Amounts are computed only for a line without errors.
 */
export function checkLine(raw: RawLine, ctx: LineContext): CheckedLine {
  const errors: LineIssue[] = [];
  const warnings: LineIssue[] = [];
  const cui = normalizeCui(String(raw.cui ?? '').trim()).slice(0, 20);
  const cuiIssue: CuiProblem | null = cui === '' ? 'EMPTY' : cuiProblem(cui);
  if (cuiIssue) errors.push(lineIssue('CUI', 'cui', lineCuiProblems[cuiIssue]));

  const fullName = String(raw.fullName ?? '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_NAME + 1);
  if (!fullName) errors.push(lineIssue('NOMBRE', 'fullName', msg('planillas.lineNameRequired')));
  else if (fullName.length > MAX_NAME)
    errors.push(lineIssue('NOMBRE', 'fullName', msg('planillas.lineNameTooLong', { max: MAX_NAME })));

  const budgetLineCode = String(raw.budgetLine ?? '').trim();
  if (!budgetLineCode) errors.push(lineIssue('RENGLON', 'budgetLine', msg('planillas.budgetLineRequired')));
  else if (!ctx.budgetLines.has(budgetLineCode)) {
    errors.push(
      lineIssue('RENGLON', 'budgetLine', msg('planillas.lineBudgetLineUnknown', { code: budgetLineCode.slice(0, 20) })),
    );
  }

  let salary: Cents | null = null;
  let salaryText: string | null = null;
  const amount = parseAmount(raw.salary ?? '', { maxCents: MAX_MONTHLY_AMOUNT_CENTS });
  if (!amount.ok) {
    salaryText = String(raw.salary ?? '').slice(0, 40);
    errors.push(lineIssue('SALARIO', 'salary', msg('planillas.lineSalaryInvalid', { problem: amount.message })));
  } else if (amount.cents <= 0n) {
    salaryText = String(raw.salary ?? '').slice(0, 40);
    errors.push(lineIssue('SALARIO', 'salary', msg('planillas.lineSalaryNotPositive')));
  } else salary = amount.cents;

  let daysWorked: number | null = null;
  const daysText = String(raw.days ?? '').trim();
  if (daysText) {
    if (/^\d{1,2}$/.test(daysText) && Number(daysText) <= 31) daysWorked = Number(daysText);
    else errors.push(lineIssue('DIAS', 'days', msg('planillas.lineDaysInvalid', { days: daysText.slice(0, 10) })));
  }

  let movement: Movement | null = null;
  let movementDate: string | null = null;
  const movementText = foldName(String(raw.movement ?? ''));
  const dateText = String(raw.movementDate ?? '').trim();
  if (movementText) {
    if ((movements as readonly string[]).includes(movementText)) movement = movementText as Movement;
    else
      errors.push(
        lineIssue('MOVIMIENTO', 'movement', msg('planillas.lineMovementInvalid', { movement: movementText.slice(0, 10) })),
      );
  }
  if (dateText) {
    const d = parseCellDate(dateText, 'Fecha del movimiento');
    // The parser's own keyed refusal, which names the field (its label).
    if (!d.ok) errors.push(lineIssue('MOVIMIENTO', 'movementDate', { key: d.key, params: d.params, text: d.message }));
    else if (periodOf(d.iso) !== ctx.period) {
      errors.push(
        lineIssue('MOVIMIENTO', 'movementDate', msg('planillas.lineMovementDateOutsidePeriod', { period: ctx.period })),
      );
    } else movementDate = d.iso;
  }
  if (movement && !dateText) errors.push(lineIssue('MOVIMIENTO', 'movementDate', msg('planillas.lineMovementDateRequired')));
  if (!movement && dateText && movementDate) {
    errors.push(lineIssue('MOVIMIENTO', 'movement', msg('planillas.lineMovementRequired')));
  }

  // Warnings: only meaningful for a readable CUI.
  if (!cuiIssue) {
    if (ctx.renap === null) {
      warnings.push(lineIssue('RENAP_DESCONOCIDO', 'cui', msg('planillas.lineRenapUnknown')));
    } else if (ctx.renap) {
      if (fullName && foldName(fullName) !== foldName(ctx.renap.fullName)) {
        warnings.push(lineIssue('RENAP_NOMBRE', 'fullName', msg('planillas.lineRenapNameDiffers', { name: ctx.renap.fullName })));
      }
      // A person dead before the period cannot have worked in it: blocking. The month of death (and a
      // death recorded after the period, for a period declared late) is allowed with a warning.
      if (ctx.renap.deathDate && periodOf(ctx.renap.deathDate) < ctx.period) {
        errors.push(
          lineIssue(
            'RENAP_FALLECIDO',
            'cui',
            msg('planillas.lineRenapDeceasedBeforePeriod', { date: ctx.renap.deathDate, period: ctx.period }),
          ),
        );
      } else if (ctx.renap.deathDate) {
        warnings.push(lineIssue('RENAP_FALLECIDO', 'cui', msg('planillas.lineRenapDeceased', { date: ctx.renap.deathDate })));
      }
    }
    if (ctx.previous) {
      const before = ctx.previous.get(cui);
      if (before === undefined) warnings.push(lineIssue('NUEVO', 'cui', msg('planillas.lineNewEmployee')));
      else if (salary != null && salaryChanged(before, salary, ctx.salaryChangeWarningRate)) {
        warnings.push(
          lineIssue(
            'CAMBIO_SALARIO',
            'salary',
            msg('planillas.lineSalaryChanged', { rate: Number(ctx.salaryChangeWarningRate), before }),
          ),
        );
      }
    }
  }

  const ok = errors.length === 0 && salary != null;
  const c = ok
    ? lineContribution(salary!, budgetLineCode, ctx.rates)
    : { subject: ctx.rates.subjectBudgetLines.includes(budgetLineCode), employee: 0n, employer: 0n };
  return {
    cui,
    fullName: fullName.slice(0, MAX_NAME),
    budgetLineCode: budgetLineCode.slice(0, 20),
    salary,
    salaryText,
    daysWorked,
    movement,
    movementDate,
    subject: c.subject,
    employee: c.employee,
    employer: c.employer,
    errors,
    warnings,
  };
}

/**
 * True when `now` differs from `before` by more than `rate` % of `before` (exact, in integers:
 * |now − before| × 100 > before × rate). A change of exactly the rate does not warn.
 */
export function salaryChanged(before: Cents, now: Cents, rate: Rate): boolean {
  if (before <= 0n) return false;
  const diff = now > before ? now - before : before - now;
  const [whole, frac = ''] = rate.split('.');
  const rate4 = BigInt(`${whole}${frac.padEnd(4, '0').slice(0, 4)}`); // rate × 10 000
  return diff * 100n * 10_000n > before * rate4;
}

/** The blocking error of a line whose CUI repeats an earlier line of the same planilla. */
export const duplicateCuiIssue = (firstRow: number): LineIssue =>
  lineIssue('CUI_REPETIDO', 'cui', msg('planillas.lineCuiRepeated', { row: firstRow }));

// ─── Import template ────────────────────────────────────────────────────────────────────────────────

export const planillaImportColumns = [
  { key: 'cui', header: 'CUI', required: true, aliases: ['DPI'] },
  { key: 'fullName', header: 'NOMBRE', required: true, aliases: ['NOMBRE_COMPLETO', 'EMPLEADO'] },
  { key: 'budgetLine', header: 'RENGLON', required: true, aliases: ['RENGLON_PRESUPUESTARIO'] },
  { key: 'salary', header: 'SALARIO', required: true },
  { key: 'days', header: 'DIAS_LABORADOS', required: false, aliases: ['DIAS'] },
  { key: 'movement', header: 'MOVIMIENTO', required: false },
  { key: 'movementDate', header: 'FECHA_MOVIMIENTO', required: false },
] as const satisfies readonly ImportColumn[];
export type PlanillaImportColumnKey = (typeof planillaImportColumns)[number]['key'];

/** The template column of a line issue's field, for the exceptions of an upload. */
export const planillaColumnHeader = (field: string): string =>
  planillaImportColumns.find((c) => c.key === (field === 'budgetLine' ? 'budgetLine' : field))?.header ?? field.toUpperCase();

// ─── Contracts ──────────────────────────────────────────────────────────────────────────────────────

const nullableMoney = moneyDecimalSchema.nullable();

/** A payment order an approved planilla issued, as its page links to it. */
export const planillaOrderSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['LABORAL', 'PATRONAL']),
  reference: z.string(),
  principal: moneyDecimalSchema,
  dueDate: z.string(),
});
export type PlanillaOrder = z.infer<typeof planillaOrderSchema>;

export const planillaSchema = z.object({
  id: z.number().int(),
  entityId: z.number().int(),
  entityCode: z.string(),
  entityName: z.string(),
  period: z.string(),
  type: planillaTypeSchema,
  state: planillaStateSchema,
  lineCount: z.number().int(),
  errorCount: z.number().int(),
  warningCount: z.number().int(),
  /** Lines with a reviewer's observation (planillaLineSchema `observations`): the operator's "Con observación". */
  observedLineCount: z.number().int(),
  totalSalary: moneyDecimalSchema,
  totalEmployee: moneyDecimalSchema,
  totalEmployer: moneyDecimalSchema,
  settings: settingsUsedSchema.nullable(),
  calculatedAt: z.string().nullable(),
  createdByEmail: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  submittedAt: z.string().nullable(),
  submittedById: z.number().int().nullable(),
  /** The job of the latest submit (platform jobs): followed on screen while the planilla is ENVIANDO. */
  submitJobId: z.number().int().nullable(),
  /** Why the latest submit did not complete (a blocking error found, a cancel, a failure); null once sent. */
  submitMessage: z.string().nullable(),
  reviewerEmail: z.string().nullable(),
  decidedAt: z.string().nullable(),
  backPayResolution: z.string().nullable(),
  transitions: z.array(availableTransitionSchema),
  /** The lines may be edited (state and permission). */
  canEdit: z.boolean(),
  /** The payment orders its approval issued (employee and employer shares), void ones left out; empty before. */
  orders: z.array(planillaOrderSchema),
});
export type Planilla = z.infer<typeof planillaSchema>;

/** A reviewer's note on one line of a planilla (written when observing it, or as a line comment). */
export const planillaLineObservationSchema = z.object({
  id: z.number().int(),
  body: z.string(),
  authorEmail: z.string(),
  /** PLANILLA_OBSERVE when written with the observation; null for a comment written on its own. */
  transition: z.string().nullable(),
  createdAt: z.string(),
});
export type PlanillaLineObservation = z.infer<typeof planillaLineObservationSchema>;

export const planillaLineSchema = z.object({
  id: z.number().int(),
  rowNumber: z.number().int(),
  period: z.string(),
  cui: z.string(),
  fullName: z.string(),
  budgetLineCode: z.string(),
  salary: nullableMoney,
  salaryText: z.string().nullable(),
  daysWorked: z.number().int().nullable(),
  movement: z.enum(movements).nullable(),
  movementDate: z.string().nullable(),
  subject: z.boolean(),
  employeeAmount: moneyDecimalSchema,
  employerAmount: moneyDecimalSchema,
  errors: z.array(lineIssueSchema),
  warnings: z.array(lineIssueSchema),
  contributorId: z.number().int().nullable(),
  /** What the reviewer wrote about this line (observations and line comments), oldest first. */
  observations: z.array(planillaLineObservationSchema),
});
export type PlanillaLine = z.infer<typeof planillaLineSchema>;

export const planillaListQuerySchema = listQuerySchema.extend({
  entityId: z
    .string()
    .regex(/^\d{1,9}$/)
    .transform(Number)
    .optional(),
  period: periodSchema.optional(),
  periodFrom: periodSchema.optional(),
  periodTo: periodSchema.optional(),
  state: planillaStateSchema.optional(),
  type: planillaTypeSchema.optional(),
  /** Planillas with a line of this CUI (13 digits). */
  cui: z
    .string()
    .transform((v) => normalizeCui(v))
    .pipe(z.string().regex(/^\d{13}$/, { error: text('planillas.cuiInvalid') }))
    .optional(),
  /** The delegate's queue: ENVIADA and EN_REVISION, oldest submission first; the entity's drafts (ENVIANDO included). */
  queue: z.enum(['review', 'drafts']).optional(),
});
export type PlanillaListQuery = z.infer<typeof planillaListQuerySchema>;

export const planillaLinesQuerySchema = listQuerySchema.extend({
  /** Only lines with errors, with warnings, with a reviewer's observation, or all. */
  issues: z.enum(['errors', 'warnings', 'observations']).optional(),
});
export type PlanillaLinesQuery = z.infer<typeof planillaLinesQuerySchema>;

/** A new planilla typed on screen or copied from the previous period. */
export const planillaCreateSchema = z.object({
  entityId: idSchema,
  period: actingPeriodSchema('El período', 0),
  type: planillaTypeSchema.default('ORDINARIA'),
  /** Copy the lines of the entity's planilla of the previous period (latest approved or submitted). */
  copyPrevious: z.boolean().default(false),
});
export type PlanillaCreate = z.infer<typeof planillaCreateSchema>;

/** Upload parameters (multipart fields). */
export const planillaUploadParamsSchema = z.object({
  entityId: z
    .string({ error: text('planillas.entityRequired') })
    .regex(/^[1-9]\d{0,8}$/, { error: text('planillas.entityInvalid') })
    .transform(Number),
  period: actingPeriodSchema('El período', 0),
  type: planillaTypeSchema.default('ORDINARIA'),
});
export type PlanillaUploadParams = z.infer<typeof planillaUploadParamsSchema>;

/**
 * A planilla upload as the API answers it: the import batch plus the planilla its commit wrote (known
 * once the commit job ended: CONFIRMADO; null before, or when a later upload replaced its lines).
 */
export const planillaUploadSchema = importBatchSchema.extend({ planillaId: z.number().int().nullable() });
export type PlanillaUpload = z.infer<typeof planillaUploadSchema>;
/** GET /api/planilla-uploads: the user's own unfinished uploads. */
export const planillaUploadListSchema = z.array(planillaUploadSchema);

/** A line typed or corrected on screen: refused with every field's reason, never stored with errors. */
export const planillaLineInputSchema = z.object({
  cui: z.string({ error: text('planillas.cuiRequired') }).max(40, { error: text('planillas.cuiTooLong') }),
  fullName: textSchema({ label: 'Nombre', max: MAX_NAME, min: 1 }),
  budgetLine: z.string({ error: text('planillas.budgetLineRequired') }).max(20),
  salary: z.union([z.string(), z.number()], { error: text('planillas.salaryRequired') }),
  days: z
    .union([z.string().max(10), z.number().int()])
    .nullable()
    .optional(),
  movement: z.string().max(10).nullable().optional(),
  movementDate: z.string().max(20).nullable().optional(),
});
export type PlanillaLineInput = z.infer<typeof planillaLineInputSchema>;

/** Observing, approving, rejecting… a planilla; observations may name lines. */
export const planillaTransitionSchema = transitionRequestSchemaFor(planillaMachine).and(
  z.object({
    lineComments: z
      .array(z.object({ lineId: idSchema, comment: textSchema({ label: 'Observación de la línea', max: 500, min: 1 }) }))
      .max(200)
      .optional(),
  }),
);
export type PlanillaTransitionRequest = TransitionRequest<PlanillaState> & {
  lineComments?: { lineId: number; comment: string }[];
};

export const planillaCommentSchema = z.object({
  id: z.number().int(),
  lineId: z.number().int().nullable(),
  lineRow: z.number().int().nullable(),
  lineCui: z.string().nullable(),
  body: z.string(),
  authorEmail: z.string(),
  transition: z.string().nullable(),
  createdAt: z.string(),
});
export type PlanillaComment = z.infer<typeof planillaCommentSchema>;
/** A planilla's comments, oldest first (not paged: a planilla has few). */
export const planillaCommentListSchema = z.object({ items: z.array(planillaCommentSchema) });

export const planillaCommentCreateSchema = z.object({
  body: textSchema({ label: 'Comentario', max: 1000, min: 1, multiline: true }),
  lineId: idSchema.nullable().optional(),
});

/** The review's comparison against the previous period. */
export const planillaComparisonSchema = z.object({
  previous: z
    .object({
      id: z.number().int(),
      period: z.string(),
      state: planillaStateSchema,
      lineCount: z.number().int(),
      totalSalary: moneyDecimalSchema,
      totalEmployee: moneyDecimalSchema,
      totalEmployer: moneyDecimalSchema,
    })
    .nullable(),
  newCount: z.number().int(),
  missingCount: z.number().int(),
  salaryChangeCount: z.number().int(),
  renapCount: z.number().int(),
  /** Lines of people RENAP records as deceased (warning RENAP_FALLECIDO), first 50 by row: said before approving. */
  deceased: z.array(z.object({ lineId: z.number().int(), rowNumber: z.number().int(), cui: z.string(), fullName: z.string() })),
  deceasedCount: z.number().int(),
  /** Employees of the previous period missing now (first 200). */
  missing: z.array(z.object({ cui: z.string(), fullName: z.string(), salary: moneyDecimalSchema.nullable() })),
});
export type PlanillaComparison = z.infer<typeof planillaComparisonSchema>;

/** `/planilla`: the period at a glance. */
export const planillaOverviewSchema = z.object({
  period: z.string(),
  byState: z.array(z.object({ state: planillaStateSchema, count: z.number().int() })),
  entitiesInScope: z.number().int(),
  declared: z.number().int(),
  totals: z.object({ salary: moneyDecimalSchema, employee: moneyDecimalSchema, employer: moneyDecimalSchema }),
  previousTotals: z.object({ salary: moneyDecimalSchema, employee: moneyDecimalSchema, employer: moneyDecimalSchema }),
  omisos: z.array(
    z.object({ entityId: z.number().int(), code: z.string(), name: z.string(), lastPeriod: z.string().nullable() }),
  ),
  trend: z.array(
    z.object({ period: z.string(), employee: moneyDecimalSchema, employer: moneyDecimalSchema, count: z.number().int() }),
  ),
});
export type PlanillaOverview = z.infer<typeof planillaOverviewSchema>;

/**
 * One share of a month (employee or employer) in a contributor's history: whether it is paid, and the
 * payment order that charges it (the planilla's LABORAL or PATRONAL order, or the voluntary order that
 * covered the month), void orders left out. Each share is paid on its own: the employee share is PAGADO once
 * its order is paid, whatever the employer's order says.
 */
export const contributionShareSchema = z.object({
  paid: z.boolean(),
  /** Null when no live order charges it (approved before orders were issued, or its order voided). */
  order: z
    .object({
      id: z.number().int(),
      reference: z.string(),
      /** The stored state: EMITIDA (unpaid or partly paid), PAGADA, or CONVENIDA (its balance owed in an agreement). */
      state: z.enum(['EMITIDA', 'PAGADA', 'CONVENIDA']),
    })
    .nullable(),
});
export type ContributionShare = z.infer<typeof contributionShareSchema>;

/** One month of a contributor's (or an entity's) contribution history. */
export const contributionMonthSchema = z.object({
  period: z.string(),
  entityId: z.number().int().nullable(),
  entityName: z.string().nullable(),
  planillaId: z.number().int().nullable(),
  planillaType: planillaTypeSchema.nullable(),
  salary: moneyDecimalSchema.nullable(),
  employeeAmount: moneyDecimalSchema.nullable(),
  employerAmount: moneyDecimalSchema.nullable(),
  /** Both shares paid (null for a gap). Each share on its own: `employeeShare`, `employerShare`. */
  paid: z.boolean().nullable(),
  /** The employee share (laboral): paid or not, and its order. Null for a gap. */
  employeeShare: contributionShareSchema.nullable(),
  /** The employer share (patronal): paid or not, and its order. Null for a gap. */
  employerShare: contributionShareSchema.nullable(),
  /** A month between the first and last contribution without one. */
  gap: z.boolean(),
});
export type ContributionMonth = z.infer<typeof contributionMonthSchema>;

export const contributionHistorySchema = z.object({
  cui: z.string(),
  contributorId: z.number().int().nullable(),
  fullName: z.string().nullable(),
  months: z.array(contributionMonthSchema),
  gaps: z.array(z.string()),
  totals: z.object({ employee: moneyDecimalSchema, employer: moneyDecimalSchema }),
});
export type ContributionHistory = z.infer<typeof contributionHistorySchema>;

export const contributionHistoryQuerySchema = z.object({
  cui: z
    .string({ error: text('planillas.cuiRequired') })
    .transform((v) => normalizeCui(v))
    .pipe(z.string().regex(/^\d{13}$/, { error: text('planillas.cuiInvalid') })),
  from: periodSchema.optional(),
  to: periodSchema.optional(),
});

export const entityContributionHistoryQuerySchema = z.object({
  entityId: z
    .string({ error: text('planillas.entityRequired') })
    .regex(/^[1-9]\d{0,8}$/, { error: text('planillas.entityInvalid') })
    .transform(Number),
  from: periodSchema.optional(),
  to: periodSchema.optional(),
});

export const entityContributionMonthSchema = z.object({
  period: z.string(),
  planillas: z.number().int(),
  employees: z.number().int(),
  salary: moneyDecimalSchema,
  employeeAmount: moneyDecimalSchema,
  employerAmount: moneyDecimalSchema,
  /** Every planilla of the month paid, both shares (null for a gap). */
  paid: z.boolean().nullable(),
  /** Each share on its own: the employee (laboral) orders of the month all paid; null for a gap. */
  employeePaid: z.boolean().nullable(),
  /** The employer (patronal) orders of the month all paid; null for a gap. */
  employerPaid: z.boolean().nullable(),
  gap: z.boolean(),
});
export const entityContributionHistorySchema = z.object({
  entityId: z.number().int(),
  entityName: z.string(),
  months: z.array(entityContributionMonthSchema),
  gaps: z.array(z.string()),
});
export type EntityContributionHistory = z.infer<typeof entityContributionHistorySchema>;

/** `/planilla/empleados`: the employees an entity declared, each with first and last period. */
export const planillaEmployeeSchema = z.object({
  cui: z.string(),
  fullName: z.string(),
  firstPeriod: z.string(),
  lastPeriod: z.string(),
  months: z.number().int(),
  lastSalary: moneyDecimalSchema.nullable(),
  entityId: z.number().int(),
  entityName: z.string(),
});
export type PlanillaEmployee = z.infer<typeof planillaEmployeeSchema>;
export const planillaEmployeesQuerySchema = listQuerySchema.extend({
  entityId: z
    .string()
    .regex(/^[1-9]\d{0,8}$/)
    .transform(Number)
    .optional(),
  cui: z
    .string()
    .transform((v) => normalizeCui(v))
    .pipe(z.string().regex(/^\d{13}$/, { error: text('planillas.cuiInvalid') }))
    .optional(),
});

/** The entities a user may choose on the planilla screens. */
export const planillaOptionsSchema = z.object({
  entities: z.array(z.object({ id: z.number().int(), code: z.string(), name: z.string() })),
});
export type PlanillaOptions = z.infer<typeof planillaOptionsSchema>;

// ─── Back-pay (salarios caídos) ─────────────────────────────────────────────────────────────────────

/** Most months one resolution may order (ten years). */
export const BACK_PAY_MAX_MONTHS = 120;

/**
 * A back-pay resolution (DOMAIN.md): a court or administrative resolution orders a contributor's pay
 * for a range of months; its SALARIOS_CAIDOS planilla has one line per month, which enters the
 * contributor's history for those months.
 */
export const backPayCreateSchema = z
  .object({
    entityId: idSchema,
    resolutionNumber: textSchema({ label: 'Número de resolución', max: 60, min: 1 }),
    resolutionDate: actingDateSchema('La fecha de la resolución'),
    cui: z.string({ error: text('planillas.cuiRequired') }).max(40),
    fullName: textSchema({ label: 'Nombre', max: 150, min: 1 }),
    budgetLine: z.string({ error: text('planillas.budgetLineRequired') }).max(20),
    fromPeriod: periodSchema,
    toPeriod: actingPeriodSchema('El último mes', 0),
    monthlySalary: z.union([z.string(), z.number()], { error: text('planillas.monthlySalaryRequired') }),
  })
  .superRefine((v, ctx) => {
    // zod runs this even when a period failed its own check: count arithmetically, never walk the range.
    const months = periodCount(v.fromPeriod, v.toPeriod);
    if (months === null) return;
    if (months === 0) {
      ctx.addIssue({ code: 'custom', path: ['toPeriod'], message: text('planillas.backPayLastBeforeFirst') });
    } else if (months > BACK_PAY_MAX_MONTHS) {
      // The text names BACK_PAY_MAX_MONTHS (120): a schema's message has no placeholders.
      ctx.addIssue({ code: 'custom', path: ['toPeriod'], message: text('planillas.backPayTooManyMonths') });
    }
  });
export type BackPayCreate = z.infer<typeof backPayCreateSchema>;
