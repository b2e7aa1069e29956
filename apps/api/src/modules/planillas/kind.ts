import {
  AppError,
  centsToDecimal,
  checkLine,
  formatPeriod,
  type ImportIssue,
  type LineIssue,
  msg,
  PLANILLA_SETTING_KEYS,
  type PlanillaImportColumnKey,
  type PlanillaType,
  periodStart,
  planillaColumnHeader,
  planillaImportColumns,
  type RenapFacts,
  settingsUsed,
} from '@aporta/domain';
import { eq, sql } from 'drizzle-orm';
import { importRows, planillaLines, planillas } from '../../db/schema/index.ts';
import { analyzeIfStale } from '../../db/statistics.ts';
import { defineImportKind } from '../../platform/imports/kind.ts';
import { settingsAt } from '../settings/service.ts';
import {
  assertStorableUploadTotals,
  lineContext,
  loadBasis,
  type PeriodBasis,
  refreshTotals,
  renapFactsOf,
  renapFor,
} from './calculation.ts';
import { assertCanDeclare, lockEditable, registerPlanillaConstraints } from './rules.ts';

export interface UploadParams {
  period: string;
  type: PlanillaType;
  /** The editable planilla whose lines the upload replaces; null creates a new planilla. */
  planillaId: number | null;
}

interface Lookups {
  basis: PeriodBasis;
  period: string;
}

/** A valid row as checked and calculated by the domain (amounts as decimal text): the commit writes it as is. */
interface Row {
  cui: string;
  fullName: string;
  budgetLine: string;
  salary: string;
  days: string | null;
  movement: string | null;
  movementDate: string | null;
  subject: boolean;
  employee: string;
  employer: string;
  warnings: LineIssue[] | null;
}

/** A line issue as an upload's row issue (its key and parameters kept). */
const issue = (i: LineIssue): ImportIssue => ({
  column: planillaColumnHeader(i.field),
  message: i.message,
  ...(i.key ? { key: i.key } : {}),
  ...(i.params ? { params: i.params } : {}),
});

registerPlanillaConstraints();

/**
 * Planilla uploads on the one import pipeline (platform/imports): the batch is for one entity
 * (`scopeEntityId`) and period (`params`); each row is judged by the domain's checkLine with the
 * period's settings, the previous period and RENAP's copy; a repeated CUI is an exception. The commit
 * writes EVERY row as a line — exceptions too, marked with their errors so the clerk fixes them on screen
 * (a draft may hold errors; submit refuses them) — then recalculates the planilla, in one transaction.
 */
export const planillaImportKind = defineImportKind<PlanillaImportColumnKey, Row, Lookups, Map<string, RenapFacts>>({
  kind: 'planillas',
  resource: 'planilla-upload',
  auditEntityType: 'planilla_import',
  columns: planillaImportColumns,

  async prepare(ctx, batch) {
    const params = batch.params as UploadParams;
    if (batch.scopeEntityId == null) throw new AppError('VALIDATION', msg('planillas.uploadNoEntity'));
    return { basis: await loadBasis(ctx.db, batch.scopeEntityId, params.period), period: params.period };
  },

  prefetch: (ctx, rows) =>
    renapFactsOf(
      ctx.db,
      rows.map((r) => (r.values.cui ?? '').replace(/[\s-]/g, '')),
    ),

  validateRow(row, { basis, period }, renap) {
    const v = row.values;
    const raw = {
      cui: v.cui ?? '',
      fullName: v.fullName ?? '',
      budgetLine: v.budgetLine ?? '',
      salary: v.salary ?? '',
      days: v.days ?? null,
      movement: v.movement ?? null,
      movementDate: v.movementDate ?? null,
    };
    const cui = raw.cui.replace(/[\s-]/g, '');
    const c = checkLine(raw, lineContext(basis, period, renapFor(renap, cui)));
    const key = c.cui || null;
    if (c.errors.length) return { key, errors: c.errors.map(issue), warnings: c.warnings.map(issue) };
    const data: Row = {
      cui: c.cui,
      fullName: c.fullName,
      budgetLine: c.budgetLineCode,
      salary: centsToDecimal(c.salary as bigint),
      days: c.daysWorked == null ? null : String(c.daysWorked),
      movement: c.movement,
      movementDate: c.movementDate,
      subject: c.subject,
      employee: centsToDecimal(c.employee),
      employer: centsToDecimal(c.employer),
      warnings: c.warnings.length ? c.warnings : null,
    };
    return { key, data, errors: [], warnings: c.warnings.map(issue) };
  },

  uniqueKey: { column: 'cui', message: (first) => msg('planillas.uploadCuiRepeated', { row: first }).text },

  // The planilla's totals are the sums of its valid rows: refused before the commit when a numeric(14,2)
  // column cannot keep them (each salary is bounded on its line; a file of many such lines is not).
  checkCommit: (_ctx, db, batch) => assertStorableUploadTotals(db, batch.id),

  async commit(ctx, tx, batch) {
    const params = batch.params as UploadParams;
    const entityId = batch.scopeEntityId as number;
    let planillaId = params.planillaId;
    if (planillaId) {
      await lockEditable(ctx, tx, planillaId);
      await tx.execute(sql`delete from ${planillaLines} where planilla_id = ${planillaId}`);
      await tx.execute(sql`update ${planillas} set import_id = ${batch.id}::uuid, updated_at = now() where id = ${planillaId}`);
    } else {
      await assertCanDeclare(tx, { entityId, period: params.period, type: params.type });
      const [p] = await tx
        .insert(planillas)
        .values({ entityId, period: params.period, type: params.type, importId: batch.id, createdBy: ctx.actor.id })
        .returning({ id: planillas.id });
      planillaId = p.id;
    }
    // Valid rows as validated and calculated (the settings of the batch's period, the previous period and
    // RENAP as of the validation); exceptions from their cells as read, with their errors: every row is a
    // line. Submitting re-checks the whole planilla, so nothing validated earlier goes unchecked.
    await tx.execute(sql`
      insert into ${planillaLines} (planilla_id, row_number, period, entity_id, cui, full_name, budget_line_code, salary,
        salary_text, days_worked, movement, movement_date, subject, employee_amount, employer_amount, errors, warnings,
        has_errors, has_warnings)
      select ${planillaId}, r.row_number, ${params.period}, ${entityId}, d.cui, d."fullName", d."budgetLine", d.salary, null,
        d.days::smallint, d.movement, d."movementDate", d.subject, d.employee, d.employer, null, d.warnings, false,
        d.warnings is not null
      from ${importRows} r, jsonb_to_record(r.data) as d(cui text, "fullName" text, "budgetLine" text, salary numeric,
        days text, movement text, "movementDate" date, subject boolean, employee numeric, employer numeric, warnings jsonb)
      where r.batch_id = ${batch.id}::uuid and r.is_valid`);
    await tx.execute(sql`
      insert into ${planillaLines} (planilla_id, row_number, period, entity_id, cui, full_name, budget_line_code, salary_text,
        days_worked, movement, movement_date, errors, has_errors)
      select ${planillaId}, r.row_number, ${params.period}, ${entityId},
        left(regexp_replace(coalesce(r.raw->>'cui', ''), '[[:space:]-]', '', 'g'), 20),
        left(coalesce(r.raw->>'fullName', ''), 150), left(trim(coalesce(r.raw->>'budgetLine', '')), 20),
        left(coalesce(r.raw->>'salary', ''), 40),
        case when trim(coalesce(r.raw->>'days', '')) ~ '^[0-9]{1,2}$' and (r.raw->>'days')::int <= 31 then trim(r.raw->>'days')::smallint end,
        case when upper(trim(coalesce(r.raw->>'movement', ''))) in ('ALTA', 'BAJA') then upper(trim(r.raw->>'movement')) end,
        case when coalesce(r.raw->>'movementDate', '') ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' then (r.raw->>'movementDate')::date end,
        (select jsonb_agg(jsonb_strip_nulls(jsonb_build_object('code', 'ARCHIVO', 'field', e->>'column', 'message', e->>'message',
            'key', e->'key', 'params', e->'params')))
           from jsonb_array_elements(coalesce(r.errors, '[]'::jsonb)) e),
        true
      from ${importRows} r
      where r.batch_id = ${batch.id}::uuid and not r.is_valid`);
    await refreshTotals(tx, planillaId, settingsUsed(await settingsAt(tx, periodStart(params.period)), PLANILLA_SETTING_KEYS));
    const [{ n }] = await tx.select({ n: planillas.lineCount }).from(planillas).where(eq(planillas.id, planillaId));
    await ctx.audit(
      {
        action: 'PLANILLA_UPLOAD',
        entityType: 'planilla',
        entityId: planillaId,
        after: { importId: batch.id, fileName: batch.fileName, lines: Number(n), period: formatPeriod(params.period) },
        scopeEntityId: entityId,
      },
      tx,
    );
    return Number(n);
  },

  // Fresh statistics for the planner once the lines written since the last ANALYZE are enough to matter.
  async afterCommit(ctx) {
    await analyzeIfStale(ctx.db, planillaLines);
  },
});
