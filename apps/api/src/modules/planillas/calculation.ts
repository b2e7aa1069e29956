import {
  AppError,
  type Cents,
  type CheckedLine,
  type ContributionRates,
  centsToDecimal,
  checkLine,
  contributorFullName,
  decimalToCents,
  detail,
  duplicateCuiIssue,
  isValidCui,
  type LineContext,
  MAX_AMOUNT_CENTS,
  msg,
  PLANILLA_SETTING_KEYS,
  type PlanillaState,
  periodStart,
  previousPeriod,
  type RawLine,
  type RenapFacts,
  type SettingsAt,
  settingsUsed,
} from '@aporta/domain';
import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { budgetLines, importRows, planillaLines, planillas, renapPeople } from '../../db/schema/index.ts';
import { settingsAt } from '../settings/service.ts';

/**
 * What a planilla's lines are checked against: the settings of its period, the budget-line catalogue,
 * the previous period's salaries and RENAP's copy. Loaded set-based, once per planilla or per upload
 * chunk, never per line.
 */

/** States of a previous planilla whose lines count as "last month" for the comparison. */
const PREVIOUS_STATES: PlanillaState[] = ['APROBADA', 'PAGADA', 'EN_REVISION', 'ENVIADA', 'OBSERVADA'];

export interface PeriodBasis {
  settings: SettingsAt;
  rates: ContributionRates;
  salaryChangeWarningRate: string;
  budgetLines: Set<string>;
  previousId: number | null;
  previous: Map<string, Cents> | null;
}

/** The latest planilla of the previous period for the entity (approved first), or null. */
export async function previousPlanilla(db: Db, entityId: number, period: string, exceptId?: number) {
  const [prev] = await db
    .select({ id: planillas.id, state: planillas.state })
    .from(planillas)
    .where(
      and(
        eq(planillas.entityId, entityId),
        eq(planillas.period, previousPeriod(period)),
        inArray(planillas.state, PREVIOUS_STATES),
        eq(planillas.type, 'ORDINARIA'),
        exceptId ? ne(planillas.id, exceptId) : undefined,
      ),
    )
    .orderBy(sql`${planillas.state} in ('APROBADA','PAGADA') desc`, desc(planillas.id))
    .limit(1);
  return prev ?? null;
}

export async function loadBasis(db: Db, entityId: number, period: string): Promise<PeriodBasis> {
  const settings = await settingsAt(db, periodStart(period));
  const lines = await db.select({ code: budgetLines.code }).from(budgetLines).where(eq(budgetLines.isActive, true));
  const prev = await previousPlanilla(db, entityId, period);
  let previous: Map<string, Cents> | null = null;
  if (prev) {
    const rows = await db
      .select({ cui: planillaLines.cui, salary: planillaLines.salary })
      .from(planillaLines)
      .where(and(eq(planillaLines.planillaId, prev.id), eq(planillaLines.hasErrors, false)));
    previous = new Map(rows.filter((r) => r.salary != null).map((r) => [r.cui, r.salary as Cents]));
  }
  return {
    settings,
    rates: {
      employeeRate: settings.values['contributions.employeeRate'],
      employerRate: settings.values['contributions.employerRate'],
      subjectBudgetLines: settings.values['contributions.subjectBudgetLines'],
    },
    salaryChangeWarningRate: settings.values['planillas.salaryChangeWarningRate'],
    budgetLines: new Set(lines.map((l) => l.code)),
    previousId: prev?.id ?? null,
    previous,
  };
}

/** RENAP's copy (renap_people) for these CUIs: one query with one text parameter. */
export async function renapFactsOf(db: Db, cuis: readonly string[]): Promise<Map<string, RenapFacts>> {
  const valid = [...new Set(cuis.filter((c) => /^\d{13}$/.test(c)))];
  if (!valid.length) return new Map();
  const rows = await db
    .select()
    .from(renapPeople)
    .where(sql`${renapPeople.cui} = any(string_to_array(${valid.join(',')}, ','))`);
  return new Map(rows.map((p) => [p.cui, { fullName: contributorFullName(p), deathDate: p.deathDate }]));
}

export const lineContext = (basis: PeriodBasis, period: string, renap: RenapFacts | null | undefined): LineContext => ({
  period,
  rates: basis.rates,
  salaryChangeWarningRate: basis.salaryChangeWarningRate,
  budgetLines: basis.budgetLines,
  previous: basis.previous,
  renap,
});

/** RENAP facts for checkLine: a person, null when the CUI is valid and unknown, undefined when not a CUI. */
export const renapFor = (facts: Map<string, RenapFacts>, cui: string) => facts.get(cui) ?? (isValidCui(cui) ? null : undefined);

/** A stored line as checkLine reads it. */
export function rawOf(l: {
  cui: string;
  fullName: string;
  budgetLineCode: string;
  salary: Cents | null;
  salaryText: string | null;
  daysWorked: number | null;
  movement: string | null;
  movementDate: string | null;
}): RawLine {
  return {
    cui: l.cui,
    fullName: l.fullName,
    budgetLine: l.budgetLineCode,
    salary: l.salary != null ? centsToDecimal(l.salary) : (l.salaryText ?? ''),
    days: l.daysWorked == null ? null : String(l.daysWorked),
    movement: l.movement,
    movementDate: l.movementDate,
  };
}

/** The columns of a checked line as stored. */
export const storedLine = (c: CheckedLine) => ({
  cui: c.cui,
  fullName: c.fullName,
  budgetLineCode: c.budgetLineCode,
  salary: c.salary,
  salaryText: c.salaryText,
  daysWorked: c.daysWorked,
  movement: c.movement,
  movementDate: c.movementDate,
  subject: c.subject,
  employeeAmount: c.employee,
  employerAmount: c.employer,
  errors: c.errors.length ? c.errors : null,
  warnings: c.warnings.length ? c.warnings : null,
  hasErrors: c.errors.length > 0,
  hasWarnings: c.warnings.length > 0,
});

const UPDATE_CHUNK = 5000;

/** Progress of a recalculation: lines checked and written so far, of the whole. */
export type RecalcProgress = (p: { done: number; total: number; phase: string }) => Promise<void>;

/**
 * Re-checks and recalculates every line of a planilla with the settings of its period, marks repeated
 * CUIs, writes the lines back in chunks (one UPDATE … FROM jsonb per chunk) and the planilla's totals
 * and counts as SQL sums of its lines. Stores the settings snapshot. Runs in the caller's transaction.
 */
export async function recalculatePlanilla(tx: Db, planillaId: number): Promise<void> {
  const [p] = await tx.select().from(planillas).where(eq(planillas.id, planillaId)).for('update');
  if (!p) return;
  const settings = await recalculateLines(tx, p);
  await refreshTotals(tx, planillaId, settings);
}

/** A line as the employer sent it: what the calculation reads (the lines' view adds what it produced). */
export const lineInputColumns = {
  id: planillaLines.id,
  rowNumber: planillaLines.rowNumber,
  period: planillaLines.period,
  cui: planillaLines.cui,
  fullName: planillaLines.fullName,
  budgetLineCode: planillaLines.budgetLineCode,
  salary: planillaLines.salary,
  salaryText: planillaLines.salaryText,
  daysWorked: planillaLines.daysWorked,
  movement: planillaLines.movement,
  movementDate: planillaLines.movementDate,
};

/**
 * The lines' part of `recalculatePlanilla`: checks every line, then writes them back a chunk per
 * statement, reporting `progress` between chunks (the submit job: its planilla is ENVIANDO, so nobody
 * changes a line meanwhile and the chunks need not share a transaction; a rerun recalculates the same).
 * Returns the settings snapshot for `refreshTotals`.
 */
export async function recalculateLines(
  db: Db,
  p: { id: number; entityId: number; period: string },
  progress?: RecalcProgress,
): Promise<ReturnType<typeof settingsUsed>> {
  const planillaId = p.id;
  const basis = await loadBasis(db, p.entityId, p.period);
  // A back-pay planilla's lines are months of the past: each is calculated with the settings of its own month.
  const bases = new Map<string, PeriodBasis>([[p.period, basis]]);
  const basisOf = async (period: string) => {
    if (!bases.has(period)) bases.set(period, { ...(await loadBasis(db, p.entityId, period)), previous: null });
    return bases.get(period) as PeriodBasis;
  };
  const lines = await db
    .select(lineInputColumns)
    .from(planillaLines)
    .where(eq(planillaLines.planillaId, planillaId))
    .orderBy(planillaLines.rowNumber);
  const total = lines.length;
  // Checking counts for half of the work, writing for the other half.
  await progress?.({ done: 0, total: total * 2, phase: `Validando y calculando ${total} líneas` });
  const renap = await renapFactsOf(
    db,
    lines.map((l) => l.cui),
  );
  const firstRow = new Map<string, number>();
  const out: Record<string, unknown>[] = [];
  for (const l of lines) {
    const c = checkLine(rawOf(l), lineContext(await basisOf(l.period), l.period, renapFor(renap, l.cui)));
    if (!c.errors.some((e) => e.code === 'CUI')) {
      // One line per person and month: the same CUI twice in a month is a repeat.
      const key = `${c.cui}|${l.period}`;
      const first = firstRow.get(key);
      if (first === undefined) firstRow.set(key, l.rowNumber);
      else {
        c.errors.push(duplicateCuiIssue(first));
        c.employee = 0n;
        c.employer = 0n;
      }
    }
    const s = storedLine(c);
    out.push({
      id: l.id,
      salary: s.salary == null ? null : centsToDecimal(s.salary),
      salary_text: s.salaryText,
      subject: s.subject,
      employee: centsToDecimal(s.employeeAmount),
      employer: centsToDecimal(s.employerAmount),
      errors: s.errors,
      warnings: s.warnings,
      has_errors: s.hasErrors,
      has_warnings: s.hasWarnings,
    });
    if (progress && out.length % UPDATE_CHUNK === 0) {
      await progress({ done: out.length, total: total * 2, phase: `Validando y calculando ${total} líneas` });
    }
  }
  for (let i = 0; i < out.length; i += UPDATE_CHUNK) {
    await progress?.({ done: total + i, total: total * 2, phase: `Guardando ${total} líneas calculadas` });
    const chunk = out.slice(i, i + UPDATE_CHUNK);
    await db.execute(sql`
      update ${planillaLines} l set salary = x.salary, salary_text = x.salary_text, subject = x.subject, employee_amount = x.employee,
        employer_amount = x.employer, errors = x.errors, warnings = x.warnings, has_errors = x.has_errors,
        has_warnings = x.has_warnings
      from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb)
        as x(id int, salary numeric, salary_text text, subject boolean, employee numeric, employer numeric, errors jsonb, warnings jsonb,
             has_errors boolean, has_warnings boolean)
      where l.id = x.id`);
  }
  await progress?.({ done: total * 2, total: total * 2, phase: 'Sumando los totales' });
  return settingsUsed(basis.settings, PLANILLA_SETTING_KEYS);
}

/**
 * Refuses (400, naming the total) a planilla whose sums a numeric(14,2) column cannot keep: checked
 * before any write of the totals, so the person reads why instead of a commit failing over and over.
 */
export function assertStorableTotals(t: { salary: string; employee: string; employer: string }): void {
  const totals = [
    [t.salary, 'planillas.totalSalaryTooLarge'],
    [t.employee, 'planillas.totalEmployeeTooLarge'],
    [t.employer, 'planillas.totalEmployerTooLarge'],
  ] as const;
  for (const [value, key] of totals) {
    const total = decimalToCents(value);
    if ((total < 0n ? -total : total) <= MAX_AMOUNT_CENTS) continue;
    const problem = msg(key, { total, max: MAX_AMOUNT_CENTS });
    throw new AppError('VALIDATION', problem, [{ path: 'salary', ...detail(problem) }]);
  }
}

/** The same check on the valid rows of an upload (import batch `batchId`), before its commit. */
export async function assertStorableUploadTotals(db: Db, batchId: string): Promise<void> {
  const [t] = rowsOf<{ salary: string; employee: string; employer: string }>(
    await db.execute(sql`
      select coalesce(sum((data->>'salary')::numeric), 0)::text as salary,
        coalesce(sum((data->>'employee')::numeric), 0)::text as employee,
        coalesce(sum((data->>'employer')::numeric), 0)::text as employer
      from ${importRows} where batch_id = ${batchId}::uuid and is_valid`),
  );
  assertStorableTotals(t);
}

/** The planilla's counts and totals as sums of its lines (and, when given, its settings snapshot). */
export async function refreshTotals(tx: Db, planillaId: number, settings?: ReturnType<typeof settingsUsed>): Promise<void> {
  const [t] = rowsOf<{ n: number; e: number; w: number; s: string; ee: string; er: string }>(
    await tx.execute(sql`
      select count(*)::int as n, count(*) filter (where has_errors)::int as e, count(*) filter (where has_warnings)::int as w,
        coalesce(sum(salary), 0)::text as s, coalesce(sum(employee_amount), 0)::text as ee,
        coalesce(sum(employer_amount), 0)::text as er
      from ${planillaLines} where planilla_id = ${planillaId}`),
  );
  assertStorableTotals({ salary: t.s, employee: t.ee, employer: t.er });
  await tx.execute(sql`
    update ${planillas} set line_count = ${t.n}, error_count = ${t.e}, warning_count = ${t.w},
      total_salary = ${t.s}::numeric, total_employee = ${t.ee}::numeric, total_employer = ${t.er}::numeric,
      ${settings ? sql`settings = ${JSON.stringify(settings)}::jsonb, calculated_at = now(),` : sql``}
      updated_at = now()
    where id = ${planillaId}`);
}
