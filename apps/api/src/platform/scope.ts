import { AsyncLocalStorage } from 'node:async_hooks';
import { AppError, msg, type Scope } from '@aporta/domain';
import { type AnyColumn, and, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import {
  delegates,
  entityAssignments,
  entityRegions,
  institutions,
  municipalEntities,
  regionDelegates,
  userInstitutions,
} from '../db/schema/index.ts';
import type { RequestContext } from './context.ts';

/**
 * The data scope as SQL. A grant's scope decides which municipal entities a user reaches:
 * ALL — every entity; REGION — the entities of the regions of the (active) delegate linked to the
 * user, plus the entities assigned to that delegate directly; ENTITY — the entities of the user's
 * ENTIDAD institutions. Services add the condition to their WHERE so filtering happens in the query.
 */

/**
 * A request made with an integration token (issue 30) acts as the token's creator, pinned to the token's one
 * municipal entity: the access guard runs the route inside `withEntityPin`, so every scope this module computes
 * for that user during the request — `ctx.inScope`, `scopedEntityIdSet`, the transitions' checks, whatever
 * the scope (ALL included) — reaches that entity alone. Only the pinned user is affected; work queued for later
 * (a job) runs outside the request and rebuilds its own context.
 */
const entityPins = new AsyncLocalStorage<{ userId: number; entityId: number }>();

/** Runs `fn` (and everything it awaits) with `userId`'s scopes pinned to `entityId`. */
export const withEntityPin = <T>(pin: { userId: number; entityId: number }, fn: () => T): T => entityPins.run(pin, fn);

/** The entity `userId`'s scopes are pinned to in this request, or null. */
export function entityPinOf(userId: number): number | null {
  const pin = entityPins.getStore();
  return pin && pin.userId === userId ? pin.entityId : null;
}

/** Subquery of the entity ids a user reaches with `scope`; null for ALL (no restriction). */
export function scopedEntityIds(userId: number, scope: Scope): SQL | null {
  const pinned = entityPinOf(userId);
  if (pinned != null) return sql`(select ${pinned}::int as id)`;
  if (scope === 'ALL') return null;
  if (scope === 'REGION') {
    return sql`(
      select ${entityRegions.entityId} from ${entityRegions}
        join ${regionDelegates} on ${regionDelegates.regionId} = ${entityRegions.regionId}
        join ${delegates} on ${delegates.id} = ${regionDelegates.delegateId}
        where ${delegates.userId} = ${userId} and ${delegates.isActive}
      union
      select ${entityAssignments.entityId} from ${entityAssignments}
        join ${delegates} on ${delegates.id} = ${entityAssignments.delegateId}
        where ${delegates.userId} = ${userId} and ${delegates.isActive}
    )`;
  }
  return sql`(
    select ${institutions.entityId} from ${userInstitutions}
      join ${institutions} on ${institutions.id} = ${userInstitutions.institutionId}
      where ${userInstitutions.userId} = ${userId} and ${institutions.kind} = 'ENTIDAD'
        and ${institutions.isActive} and ${isNotNull(institutions.entityId)}
  )`;
}

/** WHERE condition limiting `entityIdColumn` to the entities a user reaches with `scope`; undefined for ALL. */
export function entityInScope(userId: number, scope: Scope, entityIdColumn: AnyColumn | SQL): SQL | undefined {
  const ids = scopedEntityIds(userId, scope);
  return ids ? sql`${entityIdColumn} in ${ids}` : undefined;
}

/** The entity ids a user may write to with `scope`; null means any (scope ALL). */
export async function scopedEntityIdSet(db: Db, userId: number, scope: Scope): Promise<Set<number> | null> {
  const ids = scopedEntityIds(userId, scope);
  if (!ids) return null;
  const r = await db.execute(sql`select distinct id from ${ids} as scoped(id) where id is not null`);
  return new Set(rowsOf<{ id: number }>(r).map((row) => Number(row.id)));
}

/** True when `entityId` lies inside the route's scope (for creates and checks of a chosen entity). */
export async function isEntityInScope(ctx: RequestContext, entityId: number): Promise<boolean> {
  const cond = ctx.inScope(sql`${entityId}::int`);
  if (!cond) return true;
  return rowsOf(await ctx.db.execute(sql`select 1 as ok where ${cond}`)).length > 0;
}

/**
 * The municipal entity `entityId` when the route's scope reaches it; otherwise 404, the same answer as for
 * an entity that does not exist (no oracle). `db` is a transaction when the caller is inside one.
 */
export async function scopedEntityOr404(ctx: RequestContext, entityId: number, db: Db = ctx.db) {
  const [e] = await db
    .select({ id: municipalEntities.id, name: municipalEntities.name, code: municipalEntities.code })
    .from(municipalEntities)
    .where(and(eq(municipalEntities.id, entityId), ctx.inScope(municipalEntities.id)));
  if (!e) throw new AppError('NOT_FOUND', msg('platform.entityNotFound'));
  return e;
}

/**
 * WHERE condition limiting `userIdColumn` to the users the route's scope reaches: the members of the
 * ENTIDAD institutions of the entities in scope (a delegate sees the staff of its regions'
 * municipalities, an entity user its colleagues). Users of no entity (central staff, SISTEMA) are seen
 * only with ALL. Undefined for ALL.
 */
export function usersInScope(ctx: RequestContext, userIdColumn: AnyColumn | SQL): SQL | undefined {
  const inScope = ctx.inScope(institutions.entityId);
  if (!inScope) return undefined;
  return sql`${userIdColumn} in (
    select ${userInstitutions.userId} from ${userInstitutions}
      join ${institutions} on ${institutions.id} = ${userInstitutions.institutionId}
      where ${institutions.kind} = 'ENTIDAD' and ${inScope}
  )`;
}

/**
 * The users whose REGION scope reaches entity `entityId`: the active delegates of its regions or assigned to
 * it (the reverse of `scopedEntityIds` for REGION). Callers filter them by the permission they need.
 */
export async function entityDelegateUserIds(db: Db, entityId: number): Promise<number[]> {
  const rows = rowsOf<{ user_id: number }>(
    await db.execute(sql`
      select d.user_id from ${delegates} d where d.is_active and (
        exists (select 1 from ${regionDelegates} rd join ${entityRegions} er on er.region_id = rd.region_id
                where rd.delegate_id = d.id and er.entity_id = ${entityId})
        or exists (select 1 from ${entityAssignments} ea where ea.delegate_id = d.id and ea.entity_id = ${entityId}))`),
  );
  return rows.map((r) => Number(r.user_id));
}
