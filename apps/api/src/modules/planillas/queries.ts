// Reading planillas: the list within scope (and its export), one planilla, the entity choices, its title.
import {
  AppError,
  type Cents,
  centsToDecimal,
  editablePlanillaStates,
  formatPeriod,
  msg,
  type Planilla,
  type PlanillaListQuery,
  planillaMachine,
  planillaTypeLabels,
  SUBMITTING_STATE,
} from '@aporta/domain';
import { and, asc, eq, inArray, isNotNull, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { municipalEntities, paymentOrders, planillaComments, planillaLines, planillas, users } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { keysetBatches, keysetOf, likePattern, listPage, type Page, type ReadBack } from '../../platform/list.ts';
import { type MakerSpec, makersOf, withColumns } from '../../platform/maker-checker.ts';
import { scopedEntityIdSet } from '../../platform/scope.ts';
import { availableTransitions } from '../../platform/transitions.ts';
import { settleStalledSubmits } from './submit.ts';

const creator = alias(users, 'creator');
const reviewer = alias(users, 'reviewer');
export const money = (c: Cents) => centsToDecimal(c);

const notFound = () => new AppError('NOT_FOUND', msg('planillas.notFound'));

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
export const planillaMakers: MakerSpec = {
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
  const orders = await ordersOf(
    ctx.db,
    rows.map(({ p }) => p.id),
  );
  const observed = await observedLineCounts(
    ctx.db,
    rows.map(({ p }) => p.id),
  );
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
    observedLineCount: observed.get(p.id) ?? 0,
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
    orders: orders.get(p.id) ?? [],
  }));
}

/**
 * The payment orders the approval of each planilla issued (employee and employer shares; void ones left
 * out), for the link from the planilla to them. One statement for the whole page.
 */
async function ordersOf(db: Db, ids: number[]): Promise<Map<number, Planilla['orders']>> {
  const out = new Map<number, Planilla['orders']>();
  if (!ids.length) return out;
  const rows = await db
    .select({
      id: paymentOrders.id,
      planillaId: paymentOrders.planillaId,
      kind: paymentOrders.kind,
      reference: paymentOrders.reference,
      principal: paymentOrders.principal,
      dueDate: paymentOrders.dueDate,
    })
    .from(paymentOrders)
    .where(and(inArray(paymentOrders.planillaId, ids), ne(paymentOrders.state, 'ANULADA')))
    .orderBy(asc(paymentOrders.id));
  for (const o of rows) {
    if (o.planillaId == null || (o.kind !== 'LABORAL' && o.kind !== 'PATRONAL')) continue;
    const list = out.get(o.planillaId) ?? [];
    list.push({ id: o.id, kind: o.kind, reference: o.reference, principal: money(o.principal), dueDate: o.dueDate });
    out.set(o.planillaId, list);
  }
  return out;
}

/** How many lines of each planilla carry a reviewer's observation (a line comment). One statement for the page. */
async function observedLineCounts(db: Db, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ planillaId: planillaComments.planillaId, n: sql<number>`count(distinct ${planillaComments.lineId})::int` })
    .from(planillaComments)
    .where(and(inArray(planillaComments.planillaId, ids), isNotNull(planillaComments.lineId)))
    .groupBy(planillaComments.planillaId);
  return new Map(rows.map((r) => [r.planillaId, Number(r.n)]));
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

export async function loadRow(ctx: RequestContext, db: Db, id: number): Promise<Joined> {
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

/** The entities the caller may see planillas of (active), for the screens' entity choices. */
export async function planillaEntityOptions(ctx: RequestContext) {
  const entities = await ctx.db
    .select({ id: municipalEntities.id, code: municipalEntities.code, name: municipalEntities.name })
    .from(municipalEntities)
    .where(and(eq(municipalEntities.isActive, true), ctx.inScope(municipalEntities.id)))
    .orderBy(municipalEntities.name);
  return { entities };
}

/** Label of a planilla for documents and the palette: `Municipalidad de Mixco · 03/2026 (ordinaria)`. */
export const planillaTitle = (p: Pick<Planilla, 'entityName' | 'period' | 'type'>) =>
  `${p.entityName} · ${formatPeriod(p.period)} (${planillaTypeLabels[p.type].toLowerCase()})`;
