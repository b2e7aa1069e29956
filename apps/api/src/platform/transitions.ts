import {
  AppError,
  type AvailableTransition,
  allowedTransitions,
  checkTransition,
  detail,
  msg,
  type Scope,
  type StateMachine,
  type StateTransition,
  type Transition,
  text,
  toAvailable,
} from '@aporta/domain';
import { type AnyColumn, and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { type Db, rowsOf } from '../db/client.ts';
import { auditLog, stateTransitions } from '../db/schema/index.ts';
import type { RequestContext } from './context.ts';
import { entityInScope, scopedEntityIdSet } from './scope.ts';

/** A table whose rows follow a machine: an integer `id` and a text `state`. */
export type StatefulTable = PgTable & { id: AnyPgColumn; state: AnyPgColumn };

/** The loser's answer when two people act on one record at once (its text, for the callers that compare it). */
export const RACE_MESSAGE = text('platform.transitionRace');

export interface ApplyTransitionOptions<S extends string, T extends StatefulTable> {
  /** The caller's transaction: the state change, its history row, the audit row and the caller's own work commit together. */
  tx: Db;
  machine: StateMachine<S>;
  table: T;
  id: number;
  /** The state the user saw; when the record is no longer in it, 409 rather than acting on a state nobody reviewed. */
  expected?: S;
  to: S;
  comment?: string | null;
  /**
   * The municipal entity the record belongs to, as a column of `table` or an SQL expression over the
   * row (a correlated subquery when the entity sits on a parent record). Omit for records of no
   * entity: then only an ALL grant reaches them.
   */
  entityId?: AnyColumn | SQL;
  /** Who made the record (requester, submitter), for maker-checker transitions. */
  makerId?: AnyColumn | SQL;
  /** Everyone who made or changed the record, an `int[]` over the row (`makersSql` in platform/maker-checker.ts). */
  makers?: SQL;
  /** Other columns the transition sets together with the state (decided by/at, the reason…). */
  set?: (step: { transition: Transition<S>; comment: string | null }) => Partial<T['$inferInsert']>;
  /** Extra facts of the changed row for the audit row's `after` (the state and comment are always there). */
  auditAfter?: (row: T['$inferSelect']) => Record<string, unknown>;
  /**
   * The application takes one of the machine's `system` steps (a job finishing or undoing what a user's
   * permitted step started, on a record it already holds): no permission or scope is asked, only the state.
   * Without it, `system` steps are refused as if they did not exist.
   */
  system?: boolean;
}

export interface AppliedTransition<S extends string, T extends StatefulTable> {
  row: T['$inferSelect'];
  from: S;
  transition: Transition<S>;
  comment: string | null;
  entityId: number | null;
}

/**
 * Moves one record of `machine` to `to`, or throws what the user sees. The permission and its scope
 * are those the machine declares for the transition (`ctx.scopeFor`), not the route's: the record
 * must lie within that scope (else 404, as if absent). The change is one conditional UPDATE
 * (`WHERE id = $id AND state = $from`): when another transaction moved the record first — two
 * reviewers pressing at once — it matches no row and the loser gets 409 with RACE_MESSAGE; under
 * READ COMMITTED the second UPDATE waits for the first's row lock and then re-checks the state, so
 * exactly one wins. Writes the history row and the audit row in `tx`.
 */
export async function applyTransition<S extends string, T extends StatefulTable>(
  ctx: RequestContext,
  opts: ApplyTransitionOptions<S, T>,
): Promise<AppliedTransition<S, T>> {
  const { tx, machine, table, id, to } = opts;
  const label = (st: S) => machine.stateLabels[st] ?? st;
  if (!machine.states.includes(to)) {
    throw new AppError('VALIDATION', msg('platform.transitionTargetUnknown', { to }), [
      { path: 'to', ...detail(msg('platform.transitionStateUnknown')) },
    ]);
  }
  const ways = machine.transitions.filter((t) => t.to === to && (opts.system ? t.system : !t.system));
  if (!ways.length) {
    throw new AppError('VALIDATION', msg('platform.transitionNoWay', { to: label(to) }), [
      { path: 'to', ...detail(msg('platform.transitionTargetInvalid')) },
    ]);
  }
  // Before anything about the record is revealed (its state included), the user must hold a way in
  // and the record must lie within that permission's scope (the application's own steps: it holds them).
  const held: Scope[] = opts.system
    ? ['ALL']
    : [...new Set(ways.map((t) => ctx.scopeFor(t.permission.resource, t.permission.action)))].filter(
        (sc): sc is Scope => sc != null,
      );
  if (!held.length) throw new AppError('FORBIDDEN', msg('platform.transitionForbidden', { action: ways[0].label }));
  const [current] = rowsOf<{ state: S; entity_id: number | null; maker_id: number | null; maker_ids: number[] | null }>(
    await tx.execute(sql`
      select ${table.state} as state,
             ${opts.entityId ?? sql`null`}::int as entity_id,
             ${opts.makerId ?? sql`null`}::int as maker_id,
             ${opts.makers ?? sql`null`}::int[] as maker_ids
        from ${table} where ${table.id} = ${id}`),
  );
  const notFound = new AppError('NOT_FOUND', msg('platform.transitionRecordNotFound', { record: machine.label }));
  if (!current) throw notFound;
  const entityId = current.entity_id == null ? null : Number(current.entity_id);
  const reached = new Map<Scope, boolean>();
  const inScope = async (sc: Scope) => {
    if (!reached.has(sc)) reached.set(sc, await reaches(tx, ctx.user.id, sc, entityId));
    return reached.get(sc) as boolean;
  };
  let anyReached = false;
  for (const sc of held) if (await inScope(sc)) anyReached = true;
  if (!anyReached) throw notFound;
  const from = current.state;
  if (opts.expected && opts.expected !== from) throw new AppError('CONFLICT', msg('platform.transitionRace'));
  const { transition, comment } = checkTransition(machine, {
    from,
    to,
    comment: opts.comment,
    permissions: ctx.user.permissions,
    actorId: ctx.actor.id,
    makerId: current.maker_id == null ? null : Number(current.maker_id),
    makerIds: current.maker_ids?.map(Number) ?? null,
    system: opts.system,
  });
  const scope = opts.system ? 'ALL' : (ctx.scopeFor(transition.permission.resource, transition.permission.action) as Scope);
  if (!(await inScope(scope))) throw notFound;

  const [row] = (await tx
    .update(table)
    .set({ ...opts.set?.({ transition, comment }), state: to } as never)
    .where(and(eq(table.id, id), eq(table.state, from)))
    .returning()) as T['$inferSelect'][];
  if (!row) throw new AppError('CONFLICT', msg('platform.transitionRace'));

  await tx.insert(stateTransitions).values({
    entityType: machine.entityType,
    entityId: id,
    transition: transition.key,
    fromState: from,
    toState: to,
    comment,
    actorId: ctx.actor.id,
    actorEmail: ctx.actor.email,
    scopeEntityId: entityId,
  });
  await ctx.audit(
    {
      action: transition.key,
      entityType: machine.entityType,
      entityId: id,
      before: { state: from },
      after: { ...opts.auditAfter?.(row), state: to, comment },
      scopeEntityId: entityId,
    },
    tx,
  );
  return { row, from, transition, comment, entityId };
}

async function reaches(db: Db, userId: number, scope: Scope, entityId: number | null): Promise<boolean> {
  if (scope === 'ALL') return true;
  // A record of no entity is central data: only an ALL grant reaches it (as resourceScopability 'none').
  if (entityId == null) return false;
  const cond = entityInScope(userId, scope, sql`${entityId}::int`);
  return rowsOf(await db.execute(sql`select 1 as ok where ${cond}`)).length > 0;
}

/** What availableTransitions needs of one record. */
export interface TransitionSubject<S extends string> {
  id: number;
  state: S;
  entityId: number | null;
  makerId?: number | null;
  makerIds?: readonly number[] | null;
}

/**
 * The transitions the current user may take on each record, for the web app to show only those
 * actions: declared from the record's state, permission held, not the maker of a maker-checker step,
 * and the record within the permission's scope. One query per distinct non-ALL scope, whatever the
 * number of records, so a list page asks once.
 */
export async function availableTransitions<S extends string>(
  ctx: RequestContext,
  machine: StateMachine<S>,
  records: readonly TransitionSubject<S>[],
): Promise<Map<number, AvailableTransition[]>> {
  const reach = new Map<Scope, Set<number> | null>();
  const out = new Map<number, AvailableTransition[]>();
  for (const r of records) {
    const list: AvailableTransition[] = [];
    for (const t of allowedTransitions(machine, r.state, ctx.user.permissions, {
      actorId: ctx.actor.id,
      makerId: r.makerId,
      makerIds: r.makerIds,
    })) {
      const scope = ctx.scopeFor(t.permission.resource, t.permission.action) as Scope;
      if (scope !== 'ALL') {
        if (r.entityId == null) continue;
        if (!reach.has(scope)) reach.set(scope, await scopedEntityIdSet(ctx.db, ctx.user.id, scope));
        if (!reach.get(scope)?.has(r.entityId)) continue;
      }
      list.push(toAvailable(t));
    }
    out.set(r.id, list);
  }
  return out;
}

/**
 * The history of one record, oldest first, with the machine's labels. The caller has already found
 * the record within the reader's scope; the history is the record's, not filtered again.
 */
export async function findTransitionHistory<S extends string>(
  db: Db,
  machine: StateMachine<S>,
  id: number,
): Promise<StateTransition[]> {
  const rows = await db
    .select()
    .from(stateTransitions)
    .where(and(eq(stateTransitions.entityType, machine.entityType), eq(stateTransitions.entityId, id)))
    .orderBy(asc(stateTransitions.at), asc(stateTransitions.id));
  const labelOf = (s: string) => machine.stateLabels[s as S] ?? s;
  return rows.map((r) => ({
    id: r.id,
    transition: r.transition,
    label: machine.transitions.find((t) => t.key === r.transition)?.label ?? r.transition,
    from: r.fromState,
    fromLabel: labelOf(r.fromState),
    to: r.toState,
    toLabel: labelOf(r.toState),
    comment: r.comment,
    actorId: r.actorId,
    actorEmail: r.actorEmail,
    at: r.at.toISOString(),
  }));
}

/**
 * Moves every record of `table` that is in `from` and matches `where` to `to`, in one statement: the
 * update, its history rows and its audit rows together (a daily job that suspends thousands of
 * records cannot afford a round trip per record). The transition's permission is the caller's, and
 * only records within its scope move (by `entityId`; without one, only an ALL grant moves any).
 * `set` adds assignments (`"column" = value`, unqualified); the state column is named `state`. Returns the moved records.
 */
export async function applyTransitionWhere<S extends string, T extends StatefulTable>(
  ctx: RequestContext,
  opts: {
    tx: Db;
    machine: StateMachine<S>;
    table: T;
    from: S;
    to: S;
    where: SQL;
    comment: string | null;
    entityId?: AnyColumn;
    set?: SQL;
  },
): Promise<{ id: number; entityId: number | null }[]> {
  const { tx, machine, table, from, to } = opts;
  const { transition, comment } = checkTransition(machine, {
    from,
    to,
    comment: opts.comment,
    permissions: ctx.user.permissions,
    actorId: ctx.actor.id,
  });
  const scope = ctx.scopeFor(transition.permission.resource, transition.permission.action) as Scope;
  const inScope = scope === 'ALL' ? undefined : opts.entityId ? entityInScope(ctx.user.id, scope, opts.entityId) : sql`false`;
  const entity = opts.entityId ? sql`${opts.entityId}` : sql`null::int`;
  const result = await tx.execute(sql`
    with moved as (
      update ${table} set "state" = ${to}${opts.set ? sql`, ${opts.set}` : sql``}
       where ${table.state} = ${from} and ${and(opts.where, inScope)}
       returning ${table.id} as id, ${entity} as entity_id
    ), history as (
      insert into ${stateTransitions} (entity_type, entity_id, transition, from_state, to_state, comment, actor_id, actor_email, scope_entity_id)
      select ${machine.entityType}, id, ${transition.key}, ${from}, ${to}, ${comment}, ${ctx.actor.id}, ${ctx.actor.email}, entity_id from moved
    ), audit as (
      insert into ${auditLog} (actor_id, actor_email, action, entity_type, entity_id, before, after, ip, scope_entity_id)
      select ${ctx.actor.id}, ${ctx.actor.email}, ${transition.key}, ${machine.entityType}, id::text,
             jsonb_build_object('state', ${from}::text), jsonb_build_object('state', ${to}::text, 'comment', ${comment}::text),
             ${ctx.actor.ip ?? null}, entity_id from moved
    )
    select id, entity_id from moved`);
  return rowsOf<{ id: number; entity_id: number | null }>(result).map((r) => ({
    id: Number(r.id),
    entityId: r.entity_id == null ? null : Number(r.entity_id),
  }));
}
