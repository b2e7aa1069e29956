// A planilla's lines: listing them (pages and batches) and editing them on screen (add, correct, remove).
import {
  AppError,
  checkLine,
  duplicateCuiIssue,
  type LineIssue,
  msg,
  type PlanillaLine,
  type PlanillaLineInput,
  type PlanillaLineObservation,
  type PlanillaLinesQuery,
} from '@aporta/domain';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { planillaComments, planillaLines, type planillas } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { keysetBatches, keysetOf, likePattern, listPage } from '../../platform/list.ts';
import {
  lineContext,
  lineInputColumns,
  loadBasis,
  rawOf,
  refreshTotals,
  renapFactsOf,
  renapFor,
  storedLine,
} from './calculation.ts';
import { loadRow, money } from './queries.ts';
import { lockEditable } from './rules.ts';

const lineColumns = {
  ...lineInputColumns,
  subject: planillaLines.subject,
  employeeAmount: planillaLines.employeeAmount,
  employerAmount: planillaLines.employerAmount,
  errors: planillaLines.errors,
  warnings: planillaLines.warnings,
  contributorId: planillaLines.contributorId,
};
type LineRow = { [K in keyof typeof lineColumns]: (typeof lineColumns)[K]['_']['data'] | null };

const toLine = (l: LineRow, observations: PlanillaLineObservation[] = []): PlanillaLine => ({
  id: l.id as number,
  rowNumber: l.rowNumber as number,
  period: l.period as string,
  cui: l.cui as string,
  fullName: l.fullName as string,
  budgetLineCode: l.budgetLineCode as string,
  salary: l.salary == null ? null : money(l.salary),
  salaryText: l.salaryText,
  daysWorked: l.daysWorked,
  movement: l.movement,
  movementDate: l.movementDate,
  subject: !!l.subject,
  employeeAmount: money(l.employeeAmount ?? 0n),
  employerAmount: money(l.employerAmount ?? 0n),
  errors: l.errors ?? [],
  warnings: l.warnings ?? [],
  contributorId: l.contributorId,
  observations,
});

/**
 * The reviewer's notes on each of these lines (written when observing the planilla, or as line comments),
 * oldest first: the operator reads them on the line itself. One statement for the page or batch.
 */
async function observationsOf(db: Db, lineIds: number[]): Promise<Map<number, PlanillaLineObservation[]>> {
  const out = new Map<number, PlanillaLineObservation[]>();
  if (!lineIds.length) return out;
  const rows = await db
    .select({
      id: planillaComments.id,
      lineId: planillaComments.lineId,
      body: planillaComments.body,
      authorEmail: planillaComments.authorEmail,
      transition: planillaComments.transition,
      createdAt: planillaComments.createdAt,
    })
    .from(planillaComments)
    .where(inArray(planillaComments.lineId, lineIds))
    .orderBy(asc(planillaComments.createdAt), asc(planillaComments.id));
  for (const r of rows) {
    if (r.lineId == null) continue;
    const list = out.get(r.lineId) ?? [];
    list.push({
      id: r.id,
      body: r.body,
      authorEmail: r.authorEmail,
      transition: r.transition,
      createdAt: r.createdAt.toISOString(),
    });
    out.set(r.lineId, list);
  }
  return out;
}

/** Lines as the API answers them, each with its observations. */
async function linesWithObservations(db: Db, rows: LineRow[]): Promise<PlanillaLine[]> {
  const observations = await observationsOf(
    db,
    rows.map((l) => l.id as number),
  );
  return rows.map((l) => toLine(l, observations.get(l.id as number)));
}

function lineConditions(id: number, q: Partial<PlanillaLinesQuery>): SQL {
  const where: SQL[] = [eq(planillaLines.planillaId, id)];
  if (q.issues === 'errors') where.push(eq(planillaLines.hasErrors, true));
  if (q.issues === 'warnings') where.push(eq(planillaLines.hasWarnings, true));
  if (q.issues === 'observations') {
    where.push(sql`exists (select 1 from ${planillaComments} c where c.line_id = ${planillaLines.id})`);
  }
  if (q.q) {
    const digits = q.q.replace(/[\s-]/g, '');
    where.push(
      /^\d+$/.test(digits)
        ? sql`${planillaLines.cui} like ${`${digits}%`}`
        : sql`${planillaLines.fullName} ilike ${likePattern(q.q)}`,
    );
  }
  return and(...where) as SQL;
}

/** The sortable columns of a planilla's lines; each has an index on (planilla, column, id). */
const lineSortable = {
  id: planillaLines.id,
  rowNumber: planillaLines.rowNumber,
  cui: planillaLines.cui,
  fullName: planillaLines.fullName,
  salary: planillaLines.salary,
};

/**
 * One page of a planilla's lines (row order), searchable by CUI prefix or name, or only those with issues.
 * Pages by key (listPage); the total is exact (one planilla's lines are bounded by the planilla, and the
 * screen pages by number up to its last page).
 */
export async function findPlanillaLines(ctx: RequestContext, input: { id: number; query: PlanillaLinesQuery }) {
  await loadRow(ctx, ctx.db, input.id);
  const cond = lineConditions(input.id, input.query);
  const page = await listPage(ctx.db, {
    query: input.query,
    sortable: lineSortable,
    defaultSort: 'rowNumber',
    rows: (c) =>
      ctx.db
        .select(lineColumns)
        .from(planillaLines)
        .where(and(cond, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (l) => l.id as number,
    count: () => ctx.db.select({ id: planillaLines.id }).from(planillaLines).where(cond),
    countCap: Number.MAX_SAFE_INTEGER - 1,
  });
  return { ...page, items: await linesWithObservations(ctx.db, page.items) };
}

/** The lines for a spreadsheet or a PDF of the declaration, in keyset batches (row number, or the list's sort). */
export async function* planillaLineBatches(ctx: RequestContext, id: number, q: Partial<PlanillaLinesQuery> = {}) {
  await loadRow(ctx, ctx.db, id);
  const cond = lineConditions(id, q);
  const keyset = keysetOf(q.sort, lineSortable, 'rowNumber');
  for await (const rows of keysetBatches(
    keyset,
    (c) =>
      ctx.db
        .select(lineColumns)
        .from(planillaLines)
        .where(and(cond, c.after))
        .orderBy(...c.order)
        .limit(c.limit),
    (l) => l.id as number,
    1000,
  )) {
    if (rows.length) yield await linesWithObservations(ctx.db, rows);
  }
}

/**
 * Refuses a line (400) with every field's reason as a keyed detail. One reason is also the error's
 * message; several are said together in Spanish, keyed as the code's own message (the details word them).
 */
export function refuseLine(errors: readonly LineIssue[]): never {
  const details = errors.map(({ field, message, key, params }) => ({
    path: field,
    message,
    ...(key ? { key } : {}),
    ...(params ? { params } : {}),
  }));
  const [only] = errors;
  const message =
    errors.length === 1 && only.key
      ? { key: only.key, ...(only.params ? { params: only.params } : {}), text: only.message }
      : { key: 'errors.VALIDATION', text: errors.map((e) => e.message).join(' ') };
  throw new AppError('VALIDATION', message, details);
}

async function checkInput(tx: Db, p: typeof planillas.$inferSelect, input: PlanillaLineInput, exceptLineId?: number) {
  const basis = await loadBasis(tx, p.entityId, p.period);
  const raw = {
    cui: input.cui,
    fullName: input.fullName,
    budgetLine: input.budgetLine,
    salary: input.salary,
    days: input.days == null ? null : String(input.days),
    movement: input.movement ?? null,
    movementDate: input.movementDate ?? null,
  };
  const cui = raw.cui.replace(/[\s-]/g, '');
  const renap = await renapFactsOf(tx, [cui]);
  const c = checkLine(raw, lineContext(basis, p.period, renapFor(renap, cui)));
  if (c.errors.length) refuseLine(c.errors);
  const [dup] = await tx
    .select({ rowNumber: planillaLines.rowNumber, id: planillaLines.id })
    .from(planillaLines)
    .where(and(eq(planillaLines.planillaId, p.id), eq(planillaLines.cui, c.cui)));
  if (dup && dup.id !== exceptLineId) refuseLine([duplicateCuiIssue(dup.rowNumber)]);
  return c;
}

/** Adds a line typed on screen to a draft or observed planilla; refused (400) with every field's reason. */
export async function addPlanillaLine(
  ctx: RequestContext,
  input: { id: number; data: PlanillaLineInput },
): Promise<PlanillaLine> {
  const lineId = await ctx.db.transaction(async (tx) => {
    const p = await lockEditable(ctx, tx, input.id);
    const c = await checkInput(tx, p, input.data);
    const [{ next }] = rowsOf<{ next: number }>(
      await tx.execute(
        sql`select coalesce(max(row_number), 0)::int + 1 as next from ${planillaLines} where planilla_id = ${p.id}`,
      ),
    );
    const [l] = await tx
      .insert(planillaLines)
      .values({ planillaId: p.id, rowNumber: Number(next), period: p.period, entityId: p.entityId, ...storedLine(c) })
      .returning({ id: planillaLines.id });
    await refreshTotals(tx, p.id);
    await ctx.audit(
      {
        action: 'PLANILLA_LINE_CREATE',
        entityType: 'planilla',
        entityId: p.id,
        after: { lineId: l.id, cui: c.cui, salary: c.salary == null ? null : money(c.salary) },
        scopeEntityId: p.entityId,
      },
      tx,
    );
    return l.id;
  });
  return getLine(ctx.db, lineId);
}

async function getLine(db: Db, lineId: number): Promise<PlanillaLine> {
  const [l] = await db.select(lineColumns).from(planillaLines).where(eq(planillaLines.id, lineId));
  const [line] = await linesWithObservations(db, [l]);
  return line;
}

async function lockLine(tx: Db, planillaId: number, lineId: number) {
  const [l] = await tx
    .select()
    .from(planillaLines)
    .where(and(eq(planillaLines.id, lineId), eq(planillaLines.planillaId, planillaId)))
    .for('update');
  if (!l) throw new AppError('NOT_FOUND', msg('planillas.lineNotFound'));
  return l;
}

/** Corrects a line of a draft or observed planilla; a line repeating its CUI is re-checked too. */
export async function updatePlanillaLine(
  ctx: RequestContext,
  input: { id: number; lineId: number; data: PlanillaLineInput },
): Promise<PlanillaLine> {
  await ctx.db.transaction(async (tx) => {
    const p = await lockEditable(ctx, tx, input.id);
    const before = await lockLine(tx, p.id, input.lineId);
    const c = await checkInput(tx, p, input.data, input.lineId);
    await tx.update(planillaLines).set(storedLine(c)).where(eq(planillaLines.id, input.lineId));
    if (before.cui !== c.cui) await recheckDuplicates(tx, p, before.cui);
    await refreshTotals(tx, p.id);
    await ctx.audit(
      {
        action: 'PLANILLA_LINE_UPDATE',
        entityType: 'planilla',
        entityId: p.id,
        before: {
          lineId: before.id,
          cui: before.cui,
          salary: before.salary == null ? before.salaryText : money(before.salary),
          budgetLine: before.budgetLineCode,
        },
        after: { lineId: before.id, cui: c.cui, salary: c.salary == null ? null : money(c.salary), budgetLine: c.budgetLineCode },
        scopeEntityId: p.entityId,
      },
      tx,
    );
  });
  return getLine(ctx.db, input.lineId);
}

/** Removes a line of a draft or observed planilla. */
export async function removePlanillaLine(ctx: RequestContext, input: { id: number; lineId: number }): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const p = await lockEditable(ctx, tx, input.id);
    const before = await lockLine(tx, p.id, input.lineId);
    await tx.delete(planillaLines).where(eq(planillaLines.id, input.lineId));
    await recheckDuplicates(tx, p, before.cui);
    await refreshTotals(tx, p.id);
    await ctx.audit(
      {
        action: 'PLANILLA_LINE_DELETE',
        entityType: 'planilla',
        entityId: p.id,
        before: { lineId: before.id, cui: before.cui, fullName: before.fullName },
        scopeEntityId: p.entityId,
      },
      tx,
    );
  });
}

/** The lines left with `cui` after one moved away or was removed: the first of them is no longer a repeat. */
async function recheckDuplicates(tx: Db, p: typeof planillas.$inferSelect, cui: string) {
  const rest = await tx
    .select()
    .from(planillaLines)
    .where(and(eq(planillaLines.planillaId, p.id), eq(planillaLines.cui, cui)))
    .orderBy(planillaLines.rowNumber);
  if (!rest.length) return;
  const basis = await loadBasis(tx, p.entityId, p.period);
  const renap = await renapFactsOf(tx, [cui]);
  for (const [i, l] of rest.entries()) {
    const c = checkLine(rawOf(l), lineContext(basis, p.period, renapFor(renap, cui)));
    if (i > 0 && !c.errors.some((e) => e.code === 'CUI')) {
      c.errors.push(duplicateCuiIssue(rest[0].rowNumber));
      c.employee = 0n;
      c.employer = 0n;
    }
    await tx.update(planillaLines).set(storedLine(c)).where(eq(planillaLines.id, l.id));
  }
}
