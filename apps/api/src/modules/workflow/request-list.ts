import {
  AppError,
  defineMachine,
  type FlowDefinition,
  isFinalFlowState,
  msg,
  type SigRequest,
  type SigRequestListQuery,
  type StateMachine,
} from '@aporta/domain';
import { and, asc, eq, getTableColumns, ilike, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { municipalEntities, sigRequests, users, wfFlows, wfFlowVersions, wfFormVersions } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { EXPORT_CHUNK_ROWS, type KeysetChunk, keysetBatches, keysetOf, likePattern, listPage } from '../../platform/list.ts';
import { entityInScope } from '../../platform/scope.ts';
import { settingsAt } from '../settings/service.ts';
import { roleIdsOf } from './flows.ts';

/**
 * Workflow requests (SIG) as lists: each flow version as a state machine, the request row with its flow,
 * the lists, export and counts by flow and state within the caller's scope, and what waits for the user.
 */

export const SIG_ENTITY_TYPE = 'sig_request';

// ─── The flow version as a state machine ──────────────────────────────────────────────────────────

const machines = new Map<number, StateMachine>();

/**
 * A published flow version as a machine of the platform: `applyTransition` then checks the state,
 * the permission (sig-items UPDATE) and its data scope, settles races and writes history and audit.
 * The role (or the requester) a transition names is checked here before.
 */
export function machineOf(versionId: number, def: FlowDefinition): StateMachine {
  let m = machines.get(versionId);
  if (!m) {
    m = defineMachine({
      entityType: SIG_ENTITY_TYPE,
      label: 'La solicitud',
      states: def.states.map((s) => s.key),
      stateLabels: Object.fromEntries(def.states.map((s) => [s.key, s.label])),
      initial: def.initial,
      transitions: def.transitions.map((t) => ({
        key: t.key,
        from: t.from,
        to: t.to,
        label: t.label,
        commentRequired: !!t.commentRequired,
        permission: { resource: 'sig-items', action: 'UPDATE' },
      })),
    });
    machines.set(versionId, m);
  }
  return m;
}

export const stateLabel = (def: FlowDefinition, key: string) => def.states.find((s) => s.key === key)?.label ?? key;

/** When a request entering `state` falls due: the state's own SLA, else the setting; none for a final state. */
export async function dueFor(db: Db, def: FlowDefinition, state: string, from = new Date()): Promise<Date | null> {
  if (isFinalFlowState(def, state)) return null;
  const own = def.states.find((s) => s.key === state)?.slaDays;
  const days = own ?? (await settingsAt(db, from.toISOString().slice(0, 10))).values['sig.slaDays'];
  return new Date(from.getTime() + days * 86_400_000);
}

// ─── Reading ───────────────────────────────────────────────────────────────────────────────────────

const requesterName = sql<string>`coalesce((select trim(u.first_name || ' ' || u.last_name) from ${users} u where u.id = ${sigRequests}.${sql.identifier('requester_id')}), '')`;
const overdueSql = sql<boolean>`(${sigRequests.closedAt} is null and ${sigRequests.dueAt} < now())`;

const listColumns = {
  ...getTableColumns(sigRequests),
  flowTitle: wfFlows.title,
  flowVersion: wfFlowVersions.version,
  definition: wfFlowVersions.definition,
  formVersion: wfFormVersions.version,
  entityName: municipalEntities.name,
  requesterName,
  overdue: overdueSql,
};

const baseQuery = (db: Db) =>
  db
    .select(listColumns)
    .from(sigRequests)
    .innerJoin(wfFlows, eq(wfFlows.id, sigRequests.flowId))
    .innerJoin(wfFlowVersions, eq(wfFlowVersions.id, sigRequests.flowVersionId))
    .innerJoin(wfFormVersions, eq(wfFormVersions.id, sigRequests.formVersionId))
    .leftJoin(municipalEntities, eq(municipalEntities.id, sigRequests.entityId));

export type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>['execute']>>[number];

export const toRequest = (r: Row): SigRequest => {
  const def = r.definition as FlowDefinition;
  return {
    id: r.id,
    number: r.number,
    flowId: r.flowId,
    flowTitle: r.flowTitle,
    flowVersion: r.flowVersion,
    formVersion: r.formVersion,
    state: r.state,
    stateLabel: stateLabel(def, r.state),
    final: r.closedAt != null,
    entityId: r.entityId,
    entityName: r.entityName ?? null,
    requesterId: r.requesterId,
    requesterName: r.requesterName,
    createdAt: r.createdAt.toISOString(),
    stateSince: r.stateSince.toISOString(),
    dueAt: r.dueAt?.toISOString() ?? null,
    overdue: !!r.overdue,
    closedAt: r.closedAt?.toISOString() ?? null,
    summary: r.summary,
  };
};

/** Requests the user is expected to act on: an outgoing transition of a role they hold, or theirs as requester. */
export function waitingFor(userId: number, roleIds: number[] | null): SQL {
  const byRole =
    roleIds === null ? sql`(t->>'roleId') is not null` : roleIds.length ? sql`(t->>'roleId')::int in ${roleIds}` : sql`false`;
  return sql`(${sigRequests.closedAt} is null and exists (
    select 1 from jsonb_array_elements(${wfFlowVersions.definition}->'transitions') t
     where t->>'from' = ${sigRequests.state}
       and (${byRole} or (coalesce((t->>'requester')::boolean, false) and ${sigRequests.requesterId} = ${userId}))))`;
}

export async function filters(ctx: RequestContext, q: Partial<SigRequestListQuery>): Promise<SQL | undefined> {
  const text = q.q?.trim();
  let waiting: SQL | undefined;
  if (q.waiting === 'true') {
    const scope = ctx.scopeFor('sig-items', 'UPDATE');
    waiting = scope
      ? and(
          waitingFor(ctx.user.id, await roleIdsOf(ctx.db, ctx.user.id)),
          entityInScope(ctx.user.id, scope, sigRequests.entityId),
        )
      : sql`false`;
  }
  const gt = (col: SQL | typeof sigRequests.createdAt) => sql`(${col} at time zone 'America/Guatemala')::date`;
  return and(
    ctx.inScope(sigRequests.entityId),
    text ? or(ilike(sigRequests.number, likePattern(text)), ilike(sigRequests.summary, likePattern(text))) : undefined,
    q.flowId ? eq(sigRequests.flowId, q.flowId) : undefined,
    q.state ? eq(sigRequests.state, q.state) : undefined,
    q.entityId ? eq(sigRequests.entityId, q.entityId) : undefined,
    q.requester ? sql`${requesterName} ilike ${likePattern(q.requester)}` : undefined,
    q.from ? sql`${gt(sigRequests.createdAt)} >= ${q.from}` : undefined,
    q.to ? sql`${gt(sigRequests.createdAt)} <= ${q.to}` : undefined,
    q.overdue === 'true' ? overdueSql : q.overdue === 'false' ? sql`not ${overdueSql}` : undefined,
    q.open === 'true' ? isNull(sigRequests.closedAt) : q.open === 'false' ? sql`${sigRequests.closedAt} is not null` : undefined,
    waiting,
  );
}

const sortable = {
  id: sigRequests.id,
  number: sigRequests.number,
  createdAt: sigRequests.createdAt,
  stateSince: sigRequests.stateSince,
  dueAt: sigRequests.dueAt,
  state: sigRequests.state,
};

/** Requests within the route's scope (Consulta SIG, the requests list). Callers: sig-query READ, sig-items READ. */
export async function findRequests(ctx: RequestContext, query: SigRequestListQuery) {
  const where = await filters(ctx, query);
  const page = await listPage(ctx.db, {
    query,
    sortable,
    defaultSort: '-id',
    rows: (c) =>
      baseQuery(ctx.db)
        .where(and(where, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.id,
    count: () =>
      ctx.db
        .select({ id: sigRequests.id })
        .from(sigRequests)
        .innerJoin(wfFlowVersions, eq(wfFlowVersions.id, sigRequests.flowVersionId))
        .where(where),
  });
  return { ...page, items: page.items.map(toRequest) };
}

/** The export of Consulta SIG, in keyset chunks. Callers: sig-query EXPORT. */
export async function exportRequestBatches(ctx: RequestContext, query: Partial<SigRequestListQuery>) {
  const where = await filters(ctx, query);
  return keysetBatches(
    keysetOf(query.sort, sortable, 'id'),
    async (c: KeysetChunk) =>
      (
        await baseQuery(ctx.db)
          .where(and(where, c.after))
          .orderBy(...c.order)
          .limit(c.limit)
      ).map(toRequest),
    (r) => r.id,
    EXPORT_CHUNK_ROWS,
  );
}

/** Counts by flow and state (and how many overdue), with the same filters and scope. Callers: sig-query READ. */
export async function countRequests(ctx: RequestContext, query: Partial<SigRequestListQuery>) {
  const where = await filters(ctx, query);
  const rows = await ctx.db
    .select({
      flowId: sigRequests.flowId,
      flowTitle: wfFlows.title,
      state: sigRequests.state,
      definition: sql<FlowDefinition>`(select v.definition from ${wfFlowVersions} v where v.id = max(${sigRequests}.${sql.identifier('flow_version_id')}))`,
      count: sql<number>`count(*)::int`,
      overdue: sql<number>`count(*) filter (where ${overdueSql})::int`,
    })
    .from(sigRequests)
    .innerJoin(wfFlows, eq(wfFlows.id, sigRequests.flowId))
    .innerJoin(wfFlowVersions, eq(wfFlowVersions.id, sigRequests.flowVersionId))
    .where(where)
    .groupBy(sigRequests.flowId, wfFlows.title, sigRequests.state)
    .orderBy(asc(wfFlows.title), asc(sigRequests.state));
  return {
    items: rows.map((r) => ({
      flowId: r.flowId,
      flowTitle: r.flowTitle,
      state: r.state,
      stateLabel: stateLabel(r.definition, r.state),
      count: Number(r.count),
      overdue: Number(r.overdue),
    })),
  };
}

export async function requestRow(ctx: RequestContext, id: number) {
  const [r] = await baseQuery(ctx.db).where(and(eq(sigRequests.id, id), ctx.inScope(sigRequests.entityId)));
  if (!r) throw new AppError('NOT_FOUND', msg('workflow.requestNotFound'));
  return r;
}

/** The home queue: requests waiting for the user (role or requester), within sig-items UPDATE scope. */
export async function waitingCount(ctx: RequestContext): Promise<number> {
  const roleIds = await roleIdsOf(ctx.db, ctx.user.id);
  const [{ n }] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(sigRequests)
    .innerJoin(wfFlowVersions, eq(wfFlowVersions.id, sigRequests.flowVersionId))
    .where(and(waitingFor(ctx.user.id, roleIds), ctx.inScope(sigRequests.entityId)));
  return Number(n);
}
