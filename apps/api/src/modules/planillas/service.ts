import {
  AppError,
  type BackPayCreate,
  type Cents,
  type ContributionHistory,
  centsToDecimal,
  checkLine,
  contributionGaps,
  decimalToCents,
  duplicateCuiIssue,
  type EntityContributionHistory,
  editablePlanillaStates,
  formatPeriod,
  guatemalaToday,
  historyPlanillaStates,
  type ImportBatch,
  type ImportRow,
  isFuturePeriod,
  type ListQuery,
  type Planilla,
  type PlanillaComment,
  type PlanillaComparison,
  type PlanillaCreate,
  type PlanillaEmployee,
  type PlanillaLine,
  type PlanillaLineInput,
  type PlanillaLinesQuery,
  type PlanillaListQuery,
  type PlanillaOverview,
  type PlanillaTransitionRequest,
  type PlanillaUpload,
  type PlanillaUploadParams,
  periodOf,
  periodsBetween,
  planillaMachine,
  planillaTypeLabels,
  previousPeriod,
  SUBMITTING_STATE,
} from '@aporta/domain';
import { and, asc, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Db, rowsOf } from '../../db/client.ts';
import {
  contributors,
  contributorTypes,
  cuiApprovalRequests,
  municipalEntities,
  planillaComments,
  planillaLines,
  planillas,
  renapPeople,
  users,
} from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import {
  commitBatch,
  discardBatch,
  exceptionsExport,
  findBatchRows,
  findOpenBatches,
  getBatch,
  stageUpload,
} from '../../platform/imports/pipeline.ts';
import { keysetBatches, keysetOf, likePattern, listPage, type Page, pageOf, type ReadBack } from '../../platform/list.ts';
import { type MakerSpec, makersOf, makersSql, withColumns } from '../../platform/maker-checker.ts';
import { isEntityInScope, scopedEntityIdSet } from '../../platform/scope.ts';
import { applyTransition, availableTransitions, findTransitionHistory, RACE_MESSAGE } from '../../platform/transitions.ts';
import { issuePlanillaOrders } from '../payments/orders.ts';
import { paidMonths } from '../payments/voluntary.ts';
import {
  lineContext,
  lineInputColumns,
  loadBasis,
  previousPlanilla,
  rawOf,
  recalculatePlanilla,
  refreshTotals,
  renapFactsOf,
  renapFor,
  storedLine,
} from './calculation.ts';
import { planillaImportKind as kind, type UploadParams } from './kind.ts';
import { notifyPlanillaStep } from './notify.ts';
import { assertCanDeclare, editableOrdinary, lockEditable } from './rules.ts';
import { queueSubmit, settleStalledSubmits, submitRefusal } from './submit.ts';

const creator = alias(users, 'creator');
const reviewer = alias(users, 'reviewer');
const money = (c: Cents) => centsToDecimal(c);

const notFound = () => new AppError('NOT_FOUND', 'La planilla no existe o no está dentro de su alcance.');

// ─── Reading ────────────────────────────────────────────────────────────────────────────────────────

const baseQuery = (db: Db) =>
  db
    .select({
      p: planillas,
      entityCode: municipalEntities.code,
      entityName: municipalEntities.name,
      createdByEmail: creator.email,
      reviewerEmail: reviewer.email,
    })
    .from(planillas)
    .innerJoin(municipalEntities, eq(municipalEntities.id, planillas.entityId))
    .leftJoin(creator, eq(creator.id, planillas.createdBy))
    .leftJoin(reviewer, eq(reviewer.id, planillas.reviewerId));
type Joined = Awaited<ReturnType<ReturnType<typeof baseQuery>['execute']>>[number];

/**
 * Who made a planilla, for maker-checker: whoever created it (typed, copied, uploaded), wrote, changed or
 * deleted a line, or submitted it. Reviewing (take, comment, observe) is not making.
 */
const planillaMakers: MakerSpec = {
  entityType: 'planilla',
  actions: ['CREATE', 'PLANILLA_UPLOAD', 'PLANILLA_LINE_CREATE', 'PLANILLA_LINE_UPDATE', 'PLANILLA_LINE_DELETE'],
};

async function toPlanillas(ctx: RequestContext, rows: Joined[]): Promise<Planilla[]> {
  const makers = await makersOf(
    ctx.db,
    planillaMakers,
    rows.map(({ p }) => p.id),
  );
  const allowed = await availableTransitions(
    ctx,
    planillaMachine,
    rows.map(({ p }) => ({
      id: p.id,
      state: p.state,
      entityId: p.entityId,
      makerId: p.submittedBy,
      makerIds: withColumns(makers.get(p.id), p.createdBy),
    })),
  );
  const editable = await editableIds(ctx, rows);
  return rows.map(({ p, entityCode, entityName, createdByEmail, reviewerEmail }) => ({
    id: p.id,
    entityId: p.entityId,
    entityCode,
    entityName,
    period: p.period,
    type: p.type,
    state: p.state,
    lineCount: p.lineCount,
    errorCount: p.errorCount,
    warningCount: p.warningCount,
    totalSalary: money(p.totalSalary),
    totalEmployee: money(p.totalEmployee),
    totalEmployer: money(p.totalEmployer),
    settings: p.settings ?? null,
    calculatedAt: p.calculatedAt?.toISOString() ?? null,
    createdByEmail,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    submittedAt: p.submittedAt?.toISOString() ?? null,
    submittedById: p.submittedBy,
    submitJobId: p.submitJobId,
    submitMessage: p.submitMessage,
    reviewerEmail,
    decidedAt: p.decidedAt?.toISOString() ?? null,
    backPayResolution: p.backPayResolution,
    transitions: allowed.get(p.id) ?? [],
    canEdit: editable.has(p.id),
  }));
}

async function editableIds(ctx: RequestContext, rows: Joined[]): Promise<Set<number>> {
  const out = new Set<number>();
  const scope = ctx.scopeFor('planillas', 'UPDATE');
  if (!scope) return out;
  const reach = await scopedEntityIdSet(ctx.db, ctx.user.id, scope);
  for (const { p } of rows) {
    if (editablePlanillaStates.includes(p.state) && (!reach || reach.has(p.entityId))) out.add(p.id);
  }
  return out;
}

const sortable = {
  id: planillas.id,
  period: planillas.period,
  state: planillas.state,
  entity: municipalEntities.name,
  submittedAt: planillas.submittedAt,
  totalEmployee: planillas.totalEmployee,
  lineCount: planillas.lineCount,
};

function listConditions(ctx: RequestContext, q: Partial<PlanillaListQuery>): SQL | undefined {
  const where: (SQL | undefined)[] = [ctx.inScope(planillas.entityId)];
  if (q.entityId) where.push(eq(planillas.entityId, q.entityId));
  if (q.period) where.push(eq(planillas.period, q.period));
  if (q.periodFrom) where.push(sql`${planillas.period} >= ${q.periodFrom}`);
  if (q.periodTo) where.push(sql`${planillas.period} <= ${q.periodTo}`);
  if (q.state) where.push(eq(planillas.state, q.state));
  if (q.type) where.push(eq(planillas.type, q.type));
  if (q.queue === 'review') where.push(inArray(planillas.state, ['ENVIADA', 'EN_REVISION']));
  if (q.queue === 'drafts') where.push(inArray(planillas.state, ['BORRADOR', 'OBSERVADA', SUBMITTING_STATE]));
  if (q.cui) {
    where.push(sql`exists (select 1 from ${planillaLines} l where l.planilla_id = ${planillas.id} and l.cui = ${q.cui})`);
  }
  // Every word must match the entity (name or code) or the period, written `AAAA-MM` or `MM/AAAA`.
  for (const word of (q.q ?? '').split(/\s+/).filter(Boolean).slice(0, 5)) {
    const mmYyyy = /^(\d{1,2})\/(\d{4})$/.exec(word);
    const period = mmYyyy ? `${mmYyyy[2]}-${mmYyyy[1].padStart(2, '0')}` : word;
    const pattern = likePattern(word);
    where.push(
      sql`(${municipalEntities.name} ilike ${pattern} or ${municipalEntities.code} ilike ${pattern} or ${planillas.period} like ${likePattern(period, 'prefix')})`,
    );
  }
  return and(...where.filter((w): w is SQL => !!w));
}

/** The entity name of planilla `id`: the sort by entity pages by key (platform/list.ts, ReadBack). */
const planillaReadBack: Record<string, ReadBack> = {
  entity: (id) =>
    sql`(select ${municipalEntities.name} from ${planillas} join ${municipalEntities} on ${municipalEntities.id} = ${planillas.entityId} where ${planillas.id} = ${id})`,
};

/** The default order of a list: the review queue is oldest submission first; the rest newest period first. */
const planillaDefaultSort = (q: Partial<PlanillaListQuery>) => (q.queue === 'review' ? 'submittedAt' : '-period');

/** Planillas within the route's scope, with filters; the review queue is oldest submission first. Pages by key. */
export async function findPlanillas(ctx: RequestContext, q: PlanillaListQuery): Promise<Page<Planilla>> {
  const cond = listConditions(ctx, q);
  const page = await listPage(ctx.db, {
    query: q,
    sortable,
    defaultSort: planillaDefaultSort(q),
    readBack: planillaReadBack,
    rows: (c) =>
      baseQuery(ctx.db)
        .where(and(cond, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.p.id,
    count: () =>
      ctx.db
        .select({ id: planillas.id })
        .from(planillas)
        .innerJoin(municipalEntities, eq(municipalEntities.id, planillas.entityId))
        .where(cond),
  });
  return { ...page, items: await toPlanillas(ctx, page.items) };
}

/** Batches of the list for its export, with the list's filters and sort. */
export async function* planillaExportBatches(
  ctx: RequestContext,
  q: Omit<PlanillaListQuery, 'page' | 'pageSize' | 'after' | 'before'>,
) {
  const cond = listConditions(ctx, q);
  // Built before the first byte: an unknown sort is a 400, never a broken download.
  const keyset = keysetOf(q.sort, sortable, planillaDefaultSort(q), undefined, planillaReadBack);
  for await (const rows of keysetBatches(
    keyset,
    (c) =>
      baseQuery(ctx.db)
        .where(and(cond, c.after))
        .orderBy(...c.order)
        .limit(c.limit),
    (r) => r.p.id,
    500,
  )) {
    if (rows.length) yield await toPlanillas(ctx, rows);
  }
}

async function loadRow(ctx: RequestContext, db: Db, id: number): Promise<Joined> {
  const [row] = await baseQuery(db)
    .where(and(eq(planillas.id, id), ctx.inScope(planillas.entityId)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

export async function getPlanilla(ctx: RequestContext, input: { id: number }): Promise<Planilla> {
  let row = await loadRow(ctx, ctx.db, input.id);
  // Sending, with its job ended without ending it (a crash, a cancel while queued): put back before it is shown.
  if (row.p.state === SUBMITTING_STATE && (await settleStalledSubmits(ctx.db, { id: row.p.id })).length) {
    row = await loadRow(ctx, ctx.db, input.id);
  }
  return (await toPlanillas(ctx, [row]))[0];
}

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

const toLine = (l: LineRow): PlanillaLine => ({
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
});

function lineConditions(id: number, q: Partial<PlanillaLinesQuery>): SQL {
  const where: SQL[] = [eq(planillaLines.planillaId, id)];
  if (q.issues === 'errors') where.push(eq(planillaLines.hasErrors, true));
  if (q.issues === 'warnings') where.push(eq(planillaLines.hasWarnings, true));
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
  return { ...page, items: page.items.map(toLine) };
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
    if (rows.length) yield rows.map(toLine);
  }
}

export async function findPlanillaHistory(ctx: RequestContext, input: { id: number }) {
  await loadRow(ctx, ctx.db, input.id);
  return findTransitionHistory(ctx.db, planillaMachine, input.id);
}

export async function findPlanillaComments(ctx: RequestContext, input: { id: number }): Promise<PlanillaComment[]> {
  await loadRow(ctx, ctx.db, input.id);
  const rows = await ctx.db
    .select({ c: planillaComments, lineRow: planillaLines.rowNumber, lineCui: planillaLines.cui })
    .from(planillaComments)
    .leftJoin(planillaLines, eq(planillaLines.id, planillaComments.lineId))
    .where(eq(planillaComments.planillaId, input.id))
    .orderBy(asc(planillaComments.createdAt), asc(planillaComments.id));
  return rows.map(({ c, lineRow, lineCui }) => ({
    id: c.id,
    lineId: c.lineId,
    lineRow,
    lineCui,
    body: c.body,
    authorEmail: c.authorEmail,
    transition: c.transition,
    createdAt: c.createdAt.toISOString(),
  }));
}

/** A comment on a planilla (general or about one of its lines). Callers: planillas READ within scope. */
export async function addPlanillaComment(ctx: RequestContext, input: { id: number; body: string; lineId?: number | null }) {
  const row = await loadRow(ctx, ctx.db, input.id);
  await ctx.db.transaction(async (tx) => {
    if (input.lineId) await assertLineOf(tx, input.id, input.lineId);
    await tx.insert(planillaComments).values({
      planillaId: input.id,
      lineId: input.lineId ?? null,
      body: input.body,
      authorId: ctx.actor.id,
      authorEmail: ctx.actor.email,
    });
    await ctx.audit(
      {
        action: 'PLANILLA_COMMENT',
        entityType: 'planilla',
        entityId: input.id,
        after: { body: input.body, lineId: input.lineId ?? null },
        scopeEntityId: row.p.entityId,
      },
      tx,
    );
  });
  return findPlanillaComments(ctx, { id: input.id });
}

async function assertLineOf(db: Db, planillaId: number, lineId: number) {
  const [l] = await db
    .select({ id: planillaLines.id })
    .from(planillaLines)
    .where(and(eq(planillaLines.id, lineId), eq(planillaLines.planillaId, planillaId)));
  if (!l)
    throw new AppError('VALIDATION', 'La línea no pertenece a esta planilla.', [{ path: 'lineId', message: 'Línea no válida.' }]);
}

/** This period beside the previous one: new, missing, salary changes and RENAP warnings. */
export async function comparePlanilla(ctx: RequestContext, input: { id: number }): Promise<PlanillaComparison> {
  const { p } = await loadRow(ctx, ctx.db, input.id);
  const prev = await previousPlanilla(ctx.db, p.entityId, p.period, p.id);
  const [counts] = rowsOf<{ nuevo: number; cambio: number; renap: number }>(
    await ctx.db.execute(sql`
      select count(*) filter (where warnings @> '[{"code":"NUEVO"}]')::int as nuevo,
        count(*) filter (where warnings @> '[{"code":"CAMBIO_SALARIO"}]')::int as cambio,
        count(*) filter (where warnings @> '[{"code":"RENAP_DESCONOCIDO"}]' or warnings @> '[{"code":"RENAP_NOMBRE"}]'
          or warnings @> '[{"code":"RENAP_FALLECIDO"}]')::int as renap
      from ${planillaLines} where planilla_id = ${p.id} and has_warnings`),
  );
  if (!prev)
    return {
      previous: null,
      newCount: counts.nuevo,
      missingCount: 0,
      salaryChangeCount: counts.cambio,
      renapCount: counts.renap,
      missing: [],
    };
  const [pr] = await ctx.db.select().from(planillas).where(eq(planillas.id, prev.id));
  const missingWhere = sql`l.planilla_id = ${prev.id} and not exists (select 1 from ${planillaLines} c where c.planilla_id = ${p.id} and c.cui = l.cui)`;
  const [{ n }] = rowsOf<{ n: number }>(
    await ctx.db.execute(sql`select count(*)::int as n from ${planillaLines} l where ${missingWhere}`),
  );
  const missing = rowsOf<{ cui: string; full_name: string; salary: string | null }>(
    await ctx.db.execute(
      sql`select l.cui, l.full_name, l.salary::text as salary from ${planillaLines} l where ${missingWhere} order by l.row_number limit 200`,
    ),
  );
  return {
    previous: {
      id: pr.id,
      period: pr.period,
      state: pr.state,
      lineCount: pr.lineCount,
      totalSalary: money(pr.totalSalary),
      totalEmployee: money(pr.totalEmployee),
      totalEmployer: money(pr.totalEmployer),
    },
    newCount: counts.nuevo,
    missingCount: Number(n),
    salaryChangeCount: counts.cambio,
    renapCount: counts.renap,
    missing: missing.map((m) => ({
      cui: m.cui,
      fullName: m.full_name,
      salary: m.salary == null ? null : money(decimalToCents(m.salary)),
    })),
  };
}

// ─── Creating and editing ───────────────────────────────────────────────────────────────────────────

/**
 * A new planilla for an entity in scope (typed on screen), optionally with the lines of the previous
 * period's planilla copied, then calculated. Callers: planillas CREATE.
 */
export async function createPlanilla(ctx: RequestContext, input: PlanillaCreate): Promise<Planilla> {
  if (!(await isEntityInScope(ctx, input.entityId)))
    throw new AppError('FORBIDDEN', 'No puede declarar planillas de esa entidad.');
  const id = await ctx.db.transaction(async (tx) => {
    await assertCanDeclare(tx, input);
    const prev = input.copyPrevious ? await previousPlanilla(tx, input.entityId, input.period) : null;
    if (input.copyPrevious && !prev) {
      const message = `La entidad no tiene planilla del período ${formatPeriod(previousPeriod(input.period))} para copiar.`;
      throw new AppError('CONFLICT', message, [{ path: 'copyPrevious', message }]);
    }
    const [p] = await tx
      .insert(planillas)
      .values({
        entityId: input.entityId,
        period: input.period,
        type: input.type,
        createdBy: ctx.actor.id,
        copiedFromId: prev?.id ?? null,
      })
      .returning({ id: planillas.id });
    if (prev) {
      await tx.execute(sql`
        insert into ${planillaLines} (planilla_id, row_number, period, entity_id, cui, full_name, budget_line_code, salary, salary_text, days_worked)
        select ${p.id}, row_number() over (order by row_number), ${input.period}, ${input.entityId}, cui, full_name, budget_line_code,
          salary, salary_text, days_worked
        from ${planillaLines} where planilla_id = ${prev.id} and (movement is distinct from 'BAJA')`);
    }
    await recalculatePlanilla(tx, p.id);
    await ctx.audit(
      {
        action: 'CREATE',
        entityType: 'planilla',
        entityId: p.id,
        after: { period: input.period, type: input.type, copiedFrom: prev?.id ?? null },
        scopeEntityId: input.entityId,
      },
      tx,
    );
    return p.id;
  });
  return getPlanilla(ctx, { id });
}

function refuseLine(errors: { field: string; message: string }[]): never {
  throw new AppError(
    'VALIDATION',
    errors.map((e) => e.message).join(' '),
    errors.map((e) => ({ path: e.field, message: e.message })),
  );
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
  return toLine(l);
}

async function lockLine(tx: Db, planillaId: number, lineId: number) {
  const [l] = await tx
    .select()
    .from(planillaLines)
    .where(and(eq(planillaLines.id, lineId), eq(planillaLines.planillaId, planillaId)))
    .for('update');
  if (!l) throw new AppError('NOT_FOUND', 'La línea no existe en esta planilla.');
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

/**
 * A back-pay resolution and its SALARIOS_CAIDOS planilla (a draft, then the usual review): one line per
 * month of the resolution for the contributor, each calculated with the settings of its own month, so
 * approving it puts those months in the contributor's history. Callers: fallen-wages CREATE.
 */
export async function createBackPay(ctx: RequestContext, input: BackPayCreate): Promise<Planilla> {
  if (!(await isEntityInScope(ctx, input.entityId)))
    throw new AppError('FORBIDDEN', 'No puede declarar planillas de esa entidad.');
  const today = guatemalaToday();
  if (input.resolutionDate > today) {
    throw new AppError('VALIDATION', 'La fecha de la resolución no puede ser futura.', [
      { path: 'resolutionDate', message: 'Fecha futura.' },
    ]);
  }
  if (isFuturePeriod(input.toPeriod, today)) {
    throw new AppError('VALIDATION', 'Los salarios caídos son de meses pasados.', [{ path: 'toPeriod', message: 'Mes futuro.' }]);
  }
  const months = periodsBetween(input.fromPeriod, input.toPeriod);
  const id = await ctx.db.transaction(async (tx) => {
    const [p] = await tx
      .insert(planillas)
      .values({
        entityId: input.entityId,
        period: periodOf(today),
        type: 'SALARIOS_CAIDOS',
        createdBy: ctx.actor.id,
        backPayResolution: `Resolución ${input.resolutionNumber} del ${input.resolutionDate.split('-').reverse().join('/')}`,
      })
      .returning();
    // Checked with the first month's settings before anything is written: a bad line refuses the whole resolution.
    const basis = await loadBasis(tx, input.entityId, months[0]);
    const cui = input.cui.replace(/[\s-]/g, '');
    const renap = await renapFactsOf(tx, [cui]);
    const c = checkLine(
      { cui: input.cui, fullName: input.fullName, budgetLine: input.budgetLine, salary: input.monthlySalary },
      lineContext({ ...basis, previous: null }, months[0], renapFor(renap, cui)),
    );
    if (c.errors.length) refuseLine(c.errors.map((e) => ({ ...e, field: e.field === 'salary' ? 'monthlySalary' : e.field })));
    await tx
      .insert(planillaLines)
      .values(
        months.map((m, i) => ({ planillaId: p.id, rowNumber: i + 1, period: m, entityId: input.entityId, ...storedLine(c) })),
      );
    await recalculatePlanilla(tx, p.id);
    await ctx.audit(
      {
        action: 'CREATE',
        entityType: 'planilla',
        entityId: p.id,
        after: {
          type: 'SALARIOS_CAIDOS',
          resolution: input.resolutionNumber,
          cui: c.cui,
          from: input.fromPeriod,
          to: input.toPeriod,
        },
        scopeEntityId: input.entityId,
      },
      tx,
    );
    return p.id;
  });
  return getPlanilla(ctx, { id });
}

// ─── Upload ─────────────────────────────────────────────────────────────────────────────────────────

/**
 * Reads an uploaded planilla file for an entity in scope and period; its rows are validated in the
 * background. When the entity has an editable ordinary planilla for the period, confirming the upload
 * replaces its lines. Refused before reading: a future period, an ordinary one already submitted or
 * approved, a complementary one without an approved ordinary. Callers: planilla-upload CREATE.
 */
export async function uploadPlanilla(
  ctx: RequestContext,
  input: { params: PlanillaUploadParams; fileName: string; path: string; id?: string },
): Promise<PlanillaUpload> {
  const { entityId, period, type } = input.params;
  if (!(await isEntityInScope(ctx, entityId))) throw new AppError('FORBIDDEN', 'No puede declarar planillas de esa entidad.');
  const target = type === 'ORDINARIA' ? await editableOrdinary(ctx.db, entityId, period) : null;
  if (!target) await assertCanDeclare(ctx.db, { entityId, period, type });
  const params: UploadParams = { period, type, planillaId: target };
  const batch = await stageUpload(ctx, kind, {
    id: input.id,
    fileName: input.fileName,
    path: input.path,
    scopeEntityId: entityId,
    params,
  });
  return { ...batch, planillaId: null };
}

/** The batch with the planilla its commit wrote (planillas.import_id names the batch once committed). */
async function withPlanilla(ctx: RequestContext, batch: ImportBatch): Promise<PlanillaUpload> {
  if (batch.status !== 'CONFIRMADO') return { ...batch, planillaId: null };
  const [p] = await ctx.db.select({ id: planillas.id }).from(planillas).where(eq(planillas.importId, batch.id));
  return { ...batch, planillaId: p?.id ?? null };
}

export const findOpenPlanillaUploads = async (ctx: RequestContext): Promise<PlanillaUpload[]> =>
  (await findOpenBatches(ctx, kind)).map((b) => ({ ...b, planillaId: null }));
export const getPlanillaUpload = async (ctx: RequestContext, input: { id: string }) =>
  withPlanilla(ctx, await getBatch(ctx, kind, input.id));
export const planillaUploadExceptions = (ctx: RequestContext, input: { id: string }) => exceptionsExport(ctx, kind, input.id);
export const discardPlanillaUpload = async (ctx: RequestContext, input: { id: string }) =>
  withPlanilla(ctx, await discardBatch(ctx, kind, input.id));

/**
 * Queues the commit of a validated upload as a job (answers CONFIRMANDO at once): the job writes the
 * planilla and every line (exceptions marked), or nothing. Once the batch is CONFIRMADO its GET names
 * the planilla.
 */
export const commitPlanillaUpload = async (ctx: RequestContext, input: { id: string }): Promise<PlanillaUpload> => ({
  ...(await commitBatch(ctx, kind, input.id)),
  planillaId: null,
});

export async function findPlanillaUploadRows(
  ctx: RequestContext,
  input: { id: string; query: { kind: 'valid' | 'error'; page: number; pageSize: number } },
): Promise<{ items: ImportRow[]; total: number }> {
  const { items, total } = await findBatchRows(ctx, kind, input.id, input.query);
  return {
    items: items.map((r) => {
      const v = r.values as Record<string, unknown>;
      return {
        rowNumber: r.rowNumber,
        cui: r.key ?? String(v.cui ?? ''),
        name: String(v.fullName ?? ''),
        errors: r.errors,
        warnings: r.warnings,
      };
    }),
    total,
  };
}

// ─── Lifecycle ──────────────────────────────────────────────────────────────────────────────────────

/**
 * Moves a planilla through its machine (packages/domain: planillaMachine). Submitting a planilla without
 * lines is refused at once (409); otherwise it moves to ENVIANDO and its submit job (`submit.ts`)
 * re-validates and recalculates every line, then sends it, or puts it back with the lines that block it —
 * the answer names the job.
 * Taking it records the reviewer; two delegates taking it at once: one wins, the other gets 409. Observing
 * may name lines. Approving creates the contributors the planilla names that RENAP knows and are not yet
 * registered (CUI approval pending) and links every line to its contributor. Every transition notifies the
 * other side, in the same transaction. Callers: the permission the transition declares, in scope.
 */
export async function transitionPlanilla(ctx: RequestContext, input: { id: number; data: PlanillaTransitionRequest }) {
  const { to, comment, expected, lineComments } = input.data;
  await ctx.db.transaction(async (tx) => {
    let submitFrom: 'BORRADOR' | 'OBSERVADA' | null = null;
    if (to === SUBMITTING_STATE) {
      const p = await lockEditable(ctx, tx, input.id);
      if (expected && expected !== p.state) throw new AppError('CONFLICT', RACE_MESSAGE);
      const refusal = await submitRefusal(tx, p.id, { errors: false });
      if (refusal) throw refusal;
      submitFrom = p.state === 'OBSERVADA' ? 'OBSERVADA' : 'BORRADOR';
    }
    const applied = await applyTransition(ctx, {
      tx,
      machine: planillaMachine,
      table: planillas,
      id: input.id,
      to,
      comment,
      expected,
      entityId: planillas.entityId,
      makerId: planillas.submittedBy,
      makers: makersSql(planillaMakers, planillas.id, [planillas.createdBy]),
      set: ({ transition }) => {
        const now = new Date();
        if (transition.key === 'PLANILLA_SUBMIT') return { submitFrom, submitMessage: null, updatedAt: now };
        if (transition.key === 'PLANILLA_TAKE') return { reviewerId: ctx.actor.id, updatedAt: now };
        if (['PLANILLA_APPROVE', 'PLANILLA_OBSERVE', 'PLANILLA_REJECT'].includes(transition.key)) {
          return { decidedAt: now, reviewerId: ctx.actor.id, updatedAt: now };
        }
        return { updatedAt: now };
      },
      auditAfter: (row) => ({
        period: row.period,
        type: row.type,
        totalEmployee: money(row.totalEmployee),
        totalEmployer: money(row.totalEmployer),
      }),
    });
    const p = applied.row;
    if (applied.comment) {
      await tx.insert(planillaComments).values({
        planillaId: p.id,
        body: applied.comment,
        transition: applied.transition.key,
        authorId: ctx.actor.id,
        authorEmail: ctx.actor.email,
      });
    }
    if (lineComments?.length) {
      if (applied.transition.key !== 'PLANILLA_OBSERVE') {
        throw new AppError('VALIDATION', 'Las observaciones por línea se hacen al observar la planilla.', [
          { path: 'lineComments', message: 'Solo al observar.' },
        ]);
      }
      for (const lc of lineComments) await assertLineOf(tx, p.id, lc.lineId);
      await tx.insert(planillaComments).values(
        lineComments.map((lc) => ({
          planillaId: p.id,
          lineId: lc.lineId,
          body: lc.comment,
          transition: applied.transition.key,
          authorId: ctx.actor.id,
          authorEmail: ctx.actor.email,
        })),
      );
    }
    // Sending: the job does the work and tells the reviewers once the planilla reaches them.
    if (applied.transition.key === 'PLANILLA_SUBMIT') {
      await queueSubmit(ctx, tx, p.id);
      return;
    }
    if (applied.transition.key === 'PLANILLA_APPROVE') {
      await registerContributors(ctx, tx, p);
      // Approval issues the planilla's payment orders (employee and employer), in the same transaction.
      await issuePlanillaOrders(ctx, tx, p);
    }
    await notifyPlanillaStep(tx, p, {
      key: applied.transition.key,
      label: applied.transition.label,
      comment: applied.comment,
      actorId: ctx.actor.id,
      actorEmail: ctx.actor.email,
    });
  });
  return getPlanilla(ctx, { id: input.id });
}

/**
 * Registers the people an approved planilla names who are not contributors yet, from RENAP's copy
 * (names, birth date, sex), with their CUI approval pending, and links every line of the planilla to
 * its contributor. A CUI RENAP does not know cannot be registered without a birth date and sex: its
 * lines stay unlinked, and the history (by CUI) is complete all the same.
 */
async function registerContributors(ctx: RequestContext, tx: Db, p: typeof planillas.$inferSelect) {
  const [type] = await tx.select({ id: contributorTypes.id }).from(contributorTypes).orderBy(contributorTypes.sortOrder).limit(1);
  if (type) {
    const created = rowsOf<{ id: number; cui: string }>(
      await tx.execute(sql`
        insert into ${contributors} (cui, first_name, second_name, third_name, first_surname, second_surname, married_surname,
          search_name, birth_date, sex, type_id, entity_id, budget_line_code, salary, cui_state, created_by)
        select distinct on (l.cui) l.cui, r.first_name, r.second_name, r.third_name, r.first_surname, r.second_surname, r.married_surname,
          upper(regexp_replace(concat_ws(' ', r.first_name, r.second_name, r.third_name, r.first_surname, r.second_surname, r.married_surname), '\\s+', ' ', 'g')),
          r.birth_date, r.sex, ${type.id}, ${p.entityId}, l.budget_line_code, l.salary, 'PENDIENTE', ${ctx.actor.id}
        from ${planillaLines} l join ${renapPeople} r on r.cui = l.cui
        where l.planilla_id = ${p.id} and not exists (select 1 from ${contributors} c where c.cui = l.cui)
        order by l.cui
        returning id, cui`),
    );
    if (created.length) {
      await tx.insert(cuiApprovalRequests).values(
        created.map((c) => ({
          contributorId: Number(c.id),
          kind: 'ALTA' as const,
          proposedCui: c.cui,
          requestedBy: ctx.actor.id,
        })),
      );
      await tx.execute(sql`
        insert into audit_log (actor_id, actor_email, action, entity_type, entity_id, after, ip, scope_entity_id)
        select ${ctx.actor.id}, ${ctx.actor.email}, 'CREATE', 'contributor', c.id::text,
          jsonb_build_object('cui', c.cui, 'origen', 'planilla aprobada', 'planillaId', ${p.id}::int), ${ctx.actor.ip ?? null}, c.entity_id
        from ${contributors} c where c.id = any(string_to_array(${created.map((c) => c.id).join(',')}, ',')::int[])`);
    }
  }
  await tx.execute(sql`
    update ${planillaLines} l set contributor_id = c.id from ${contributors} c
    where l.planilla_id = ${p.id} and c.cui = l.cui and l.contributor_id is distinct from c.id`);
}

/** The entities the caller may see planillas of (active), for the screens' entity choices. */
export async function planillaEntityOptions(ctx: RequestContext) {
  const entities = await ctx.db
    .select({ id: municipalEntities.id, code: municipalEntities.code, name: municipalEntities.name })
    .from(municipalEntities)
    .where(and(eq(municipalEntities.isActive, true), ctx.inScope(municipalEntities.id)))
    .orderBy(municipalEntities.name);
  return { entities };
}

// ─── Overview, histories, employees ─────────────────────────────────────────────────────────────────

/** `/planilla`: the period by state, the entities in scope that have not declared (omisos), totals and a trend. */
export async function planillaOverview(ctx: RequestContext, input: { period?: string }): Promise<PlanillaOverview> {
  const period = input.period ?? previousPeriod(periodOf(guatemalaToday()));
  const scope = ctx.inScope(planillas.entityId);
  const byState = await ctx.db
    .select({ state: planillas.state, count: count() })
    .from(planillas)
    .where(and(eq(planillas.period, period), scope))
    .groupBy(planillas.state);
  const totalsOf = async (per: string) => {
    const [t] = await ctx.db
      .select({
        salary: sql<string>`coalesce(sum(${planillas.totalSalary}), 0)::text`,
        employee: sql<string>`coalesce(sum(${planillas.totalEmployee}), 0)::text`,
        employer: sql<string>`coalesce(sum(${planillas.totalEmployer}), 0)::text`,
      })
      .from(planillas)
      .where(and(eq(planillas.period, per), scope, sql`${planillas.state} not in ('ANULADA', 'RECHAZADA')`));
    const d = (s: string) => money(decimalToCents(s));
    return { salary: d(t.salary), employee: d(t.employee), employer: d(t.employer) };
  };
  const entityScope = ctx.inScope(municipalEntities.id);
  const omisosRows = await ctx.db
    .select({
      entityId: municipalEntities.id,
      code: municipalEntities.code,
      name: municipalEntities.name,
      lastPeriod: sql<
        string | null
      >`(select max(p.period) from ${planillas} p where p.entity_id = ${municipalEntities.id} and p.state not in ('ANULADA', 'RECHAZADA', 'BORRADOR'))`,
    })
    .from(municipalEntities)
    .where(
      and(
        eq(municipalEntities.isActive, true),
        entityScope,
        sql`not exists (select 1 from ${planillas} p where p.entity_id = ${municipalEntities.id} and p.period = ${period}
              and p.state not in ('ANULADA', 'RECHAZADA', 'BORRADOR'))`,
      ),
    )
    .orderBy(municipalEntities.name)
    .limit(200);
  const [{ inScope }] = await ctx.db
    .select({ inScope: count() })
    .from(municipalEntities)
    .where(and(eq(municipalEntities.isActive, true), entityScope));
  const trend = rowsOf<{ period: string; employee: string; employer: string; n: number }>(
    await ctx.db.execute(sql`
      select period, coalesce(sum(total_employee), 0)::text as employee, coalesce(sum(total_employer), 0)::text as employer, count(*)::int as n
      from ${planillas} where period > ${periodsBack(period, 12)} and period <= ${period}
        and state not in ('ANULADA', 'RECHAZADA') ${scope ? sql`and ${scope}` : sql``}
      group by period order by period`),
  );
  const d = (s: string) => money(decimalToCents(s));
  const declared = byState
    .filter((s) => !['ANULADA', 'RECHAZADA', 'BORRADOR'].includes(s.state))
    .reduce((a, s) => a + s.count, 0);
  return {
    period,
    byState: byState.map((s) => ({ state: s.state, count: s.count })),
    entitiesInScope: inScope,
    declared,
    totals: await totalsOf(period),
    previousTotals: await totalsOf(previousPeriod(period)),
    omisos: omisosRows.map((o) => ({ ...o, lastPeriod: o.lastPeriod ?? null })),
    trend: trend.map((t) => ({ period: t.period, employee: d(t.employee), employer: d(t.employer), count: Number(t.n) })),
  };
}

function periodsBack(period: string, n: number) {
  let p = period;
  for (let i = 0; i < n; i++) p = previousPeriod(p);
  return p;
}

/**
 * A contributor's contributions month by month (approved or paid planillas, every entity in the
 * caller's scope), with the gaps between the first and the last month. Paid is null until payments exist.
 */
export async function contributorHistory(
  ctx: RequestContext,
  input: { cui: string; from?: string; to?: string },
): Promise<ContributionHistory> {
  const rows = await ctx.db
    .select({
      period: planillaLines.period,
      entityId: planillaLines.entityId,
      entityName: municipalEntities.name,
      planillaId: planillaLines.planillaId,
      planillaType: planillas.type,
      salary: planillaLines.salary,
      employee: planillaLines.employeeAmount,
      employer: planillaLines.employerAmount,
    })
    .from(planillaLines)
    .innerJoin(planillas, eq(planillas.id, planillaLines.planillaId))
    .innerJoin(municipalEntities, eq(municipalEntities.id, planillaLines.entityId))
    .where(
      and(
        eq(planillaLines.cui, input.cui),
        input.from ? sql`${planillaLines.period} >= ${input.from}` : undefined,
        input.to ? sql`${planillaLines.period} <= ${input.to}` : undefined,
        inArray(planillas.state, [...historyPlanillaStates]),
        ctx.inScope(planillaLines.entityId),
      ),
    )
    .orderBy(planillaLines.period, planillaLines.planillaId);
  const [c] = await ctx.db
    .select({
      id: contributors.id,
      firstName: contributors.firstName,
      firstSurname: contributors.firstSurname,
      secondName: contributors.secondName,
      secondSurname: contributors.secondSurname,
    })
    .from(contributors)
    .where(eq(contributors.cui, input.cui));
  // Paid: the planilla's orders are paid (planilla PAGADA); voluntary months enter once their order is paid.
  const paid = await paidMonths(ctx.db, input.cui);
  const inSpan = (p: string) => (!input.from || p >= input.from) && (!input.to || p <= input.to);
  const voluntary = ctx.scope === 'ALL' ? [...paid.voluntary].filter(([p]) => inSpan(p)) : [];
  const voluntaryMonths = await Promise.all(
    voluntary.map(async ([period, v]) => {
      // What the order paid for the month (its shares sum exactly to the order, voluntaryMonthShares).
      const salary = v.salary ? decimalToCents(v.salary) : 0n;
      return {
        period,
        entityId: null,
        entityName: 'Pago voluntario',
        planillaId: null,
        planillaType: null,
        salary: v.salary ? money(salary) : null,
        employeeAmount: money(decimalToCents(v.employeeAmount)),
        employerAmount: money(decimalToCents(v.employerAmount)),
        paid: true,
        gap: false,
      };
    }),
  );
  const gaps = contributionGaps(
    [...rows.map((r) => r.period), ...voluntary.map(([p]) => p)],
    input.from && input.to ? { from: input.from, to: input.to } : undefined,
  );
  const months = [
    ...rows.map((r) => ({
      period: r.period,
      entityId: r.entityId,
      entityName: r.entityName,
      planillaId: r.planillaId,
      planillaType: r.planillaType,
      salary: r.salary == null ? null : money(r.salary),
      employeeAmount: money(r.employee),
      employerAmount: money(r.employer),
      paid: paid.planilla.has(r.planillaId),
      gap: false,
    })),
    ...voluntaryMonths,
    ...gaps.map((g) => ({
      period: g,
      entityId: null,
      entityName: null,
      planillaId: null,
      planillaType: null,
      salary: null,
      employeeAmount: null,
      employerAmount: null,
      paid: null,
      gap: true,
    })),
  ].sort((a, b) => a.period.localeCompare(b.period));
  return {
    cui: input.cui,
    contributorId: c?.id ?? null,
    fullName: c ? [c.firstName, c.secondName, c.firstSurname, c.secondSurname].filter(Boolean).join(' ') : null,
    months,
    gaps,
    totals: {
      employee: money(rows.reduce((s, r) => s + r.employee, 0n)),
      employer: money(rows.reduce((s, r) => s + r.employer, 0n)),
    },
  };
}

/** An entity's declared months (approved or paid planillas): employees, salaries, amounts, and the gaps. */
export async function entityHistory(
  ctx: RequestContext,
  input: { entityId: number; from?: string; to?: string },
): Promise<EntityContributionHistory> {
  const [ent] = await ctx.db
    .select({ id: municipalEntities.id, name: municipalEntities.name })
    .from(municipalEntities)
    .where(and(eq(municipalEntities.id, input.entityId), ctx.inScope(municipalEntities.id)));
  if (!ent) throw new AppError('NOT_FOUND', 'La entidad no existe o no está dentro de su alcance.');
  const rows = rowsOf<{
    period: string;
    n: number;
    employees: number;
    salary: string;
    employee: string;
    employer: string;
    paid: boolean;
  }>(
    await ctx.db.execute(sql`
      select period, count(*)::int as n, sum(line_count)::int as employees, sum(total_salary)::text as salary,
        sum(total_employee)::text as employee, sum(total_employer)::text as employer, bool_and(state = 'PAGADA') as paid
      from ${planillas} where entity_id = ${input.entityId} and state in ('APROBADA', 'PAGADA')
        ${input.from ? sql`and period >= ${input.from}` : sql``} ${input.to ? sql`and period <= ${input.to}` : sql``}
      group by period order by period`),
  );
  const d = (s: string) => money(decimalToCents(s));
  const gaps = contributionGaps(
    rows.map((r) => r.period),
    input.from && input.to ? { from: input.from, to: input.to } : undefined,
  );
  const months = [
    ...rows.map((r) => ({
      period: r.period,
      planillas: Number(r.n),
      employees: Number(r.employees),
      salary: d(r.salary),
      employeeAmount: d(r.employee),
      employerAmount: d(r.employer),
      paid: Boolean(r.paid),
      gap: false,
    })),
    ...gaps.map((g) => ({
      period: g,
      planillas: 0,
      employees: 0,
      salary: '0.00',
      employeeAmount: '0.00',
      employerAmount: '0.00',
      paid: null,
      gap: true,
    })),
  ].sort((a, b) => a.period.localeCompare(b.period));
  return { entityId: ent.id, entityName: ent.name, months, gaps };
}

/** The employees declared by the entities in scope (or one entity, or one CUI across entities), over time. */
export async function findPlanillaEmployees(
  ctx: RequestContext,
  q: ListQuery & { entityId?: number; cui?: string },
): Promise<{ items: PlanillaEmployee[]; total: number }> {
  const where: SQL[] = [sql`p.state not in ('ANULADA', 'RECHAZADA')`];
  const scope = ctx.inScope(sql`l.entity_id`);
  if (scope) where.push(scope);
  if (q.entityId) where.push(sql`l.entity_id = ${q.entityId}`);
  if (q.cui) where.push(sql`l.cui = ${q.cui}`);
  if (q.q) {
    const digits = q.q.replace(/[\s-]/g, '');
    where.push(/^\d+$/.test(digits) ? sql`l.cui like ${`${digits}%`}` : sql`l.full_name ilike ${likePattern(q.q)}`);
  }
  const cond = sql.join(where, sql` and `);
  const { limit, offset } = pageOf(q);
  const rows = rowsOf<{
    cui: string;
    full_name: string;
    first: string;
    last: string;
    months: number;
    last_salary: string | null;
    entity_id: number;
    entity_name: string;
  }>(
    await ctx.db.execute(sql`
      select l.cui, l.entity_id, e.name as entity_name, min(l.period) as first, max(l.period) as last, count(distinct l.period)::int as months,
        (array_agg(l.full_name order by l.period desc))[1] as full_name,
        (array_agg(l.salary::text order by l.period desc))[1] as last_salary
      from ${planillaLines} l join ${planillas} p on p.id = l.planilla_id join ${municipalEntities} e on e.id = l.entity_id
      where ${cond}
      group by l.cui, l.entity_id, e.name
      order by max(l.period) desc, l.cui
      limit ${limit} offset ${offset}`),
  );
  const [{ n }] = rowsOf<{ n: number }>(
    await ctx.db.execute(sql`
      select count(*)::int as n from (select 1 from ${planillaLines} l join ${planillas} p on p.id = l.planilla_id
      where ${cond} group by l.cui, l.entity_id) x`),
  );
  return {
    items: rows.map((r) => ({
      cui: r.cui,
      fullName: r.full_name,
      firstPeriod: r.first,
      lastPeriod: r.last,
      months: Number(r.months),
      lastSalary: r.last_salary == null ? null : money(decimalToCents(r.last_salary)),
      entityId: Number(r.entity_id),
      entityName: r.entity_name,
    })),
    total: Number(n),
  };
}

/** Label of a planilla for documents and the palette: `Municipalidad de Mixco · 03/2026 (ordinaria)`. */
export const planillaTitle = (p: Pick<Planilla, 'entityName' | 'period' | 'type'>) =>
  `${p.entityName} · ${formatPeriod(p.period)} (${planillaTypeLabels[p.type].toLowerCase()})`;
