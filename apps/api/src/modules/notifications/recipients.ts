// Who a notification goes to when it is about an entity's records rather than named users.
import { type Action, type Resource, type Scope, scopeFor } from '@aporta/domain';
import { inArray, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { institutions, userInstitutions, users } from '../../db/schema/index.ts';
import { entityDelegateUserIds, entityInScope } from '../../platform/scope.ts';
import { loadCurrentUser, userFields } from '../../platform/session.ts';
import { findUserIdsWithPermission } from '../auth/service.ts';

/** Users who review the entity's planillas: delegates of its regions or assigned to it, holding planillas APPROVE. */
export async function reviewersOf(tx: Db, entityId: number): Promise<number[]> {
  const holders = new Set(await findUserIdsWithPermission(tx, 'planillas', 'APPROVE'));
  return (await entityDelegateUserIds(tx, entityId)).filter((id) => holders.has(id));
}

/**
 * The entity's own people who hold `resource` `action`: active members of its (active) ENTIDAD institutions —
 * e.g. those who pay its orders (payment-orders READ). Never a user of another entity, nor the central staff.
 */
export async function entityUsersOf(tx: Db, entityId: number, resource: Resource, action: Action): Promise<number[]> {
  const members = rowsOf<{ id: number }>(
    await tx.execute(sql`
      select distinct ui.user_id as id from ${userInstitutions} ui
        join ${institutions} i on i.id = ui.institution_id
        join ${users} u on u.id = ui.user_id
      where i.kind = 'ENTIDAD' and i.is_active and i.entity_id = ${entityId} and u.is_active
      order by 1`),
  ).map((r) => Number(r.id));
  if (!members.length) return [];
  const holders = new Set(await findUserIdsWithPermission(tx, resource, action));
  return members.filter((id) => holders.has(id));
}

/**
 * The holders of `resource` `action` with the scope that grant gives each (ALL, REGION, ENTITY): the staff
 * who handle a kind of record, for a notice that is counted or named in each one's own scope.
 */
export async function holdersWithScope(tx: Db, resource: Resource, action: Action): Promise<{ userId: number; scope: Scope }[]> {
  const ids = await findUserIdsWithPermission(tx, resource, action);
  if (!ids.length) return [];
  const rows = await tx.select(userFields).from(users).where(inArray(users.id, ids)).orderBy(users.id);
  const out: { userId: number; scope: Scope }[] = [];
  for (const u of rows) {
    const scope = scopeFor((await loadCurrentUser(tx, u)).permissions, resource, action);
    if (scope) out.push({ userId: u.id, scope });
  }
  return out;
}

/** The holders of `resource` `action` whose grant's scope reaches entity `entityId` (staff who may see its record). */
export async function holdersReaching(tx: Db, entityId: number, resource: Resource, action: Action): Promise<number[]> {
  const out: number[] = [];
  for (const h of await holdersWithScope(tx, resource, action)) {
    const cond = entityInScope(h.userId, h.scope, sql`${entityId}::int`);
    if (!cond || rowsOf(await tx.execute(sql`select 1 as ok where ${cond}`)).length) out.push(h.userId);
  }
  return out;
}
