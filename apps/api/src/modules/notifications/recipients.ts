// Who a notification goes to when it is about an entity's records rather than named users.
import type { Db } from '../../db/client.ts';
import { entityDelegateUserIds } from '../../platform/scope.ts';
import { findUserIdsWithPermission } from '../auth/service.ts';

/** Users who review the entity's planillas: delegates of its regions or assigned to it, holding planillas APPROVE. */
export async function reviewersOf(tx: Db, entityId: number): Promise<number[]> {
  const holders = new Set(await findUserIdsWithPermission(tx, 'planillas', 'APPROVE'));
  return (await entityDelegateUserIds(tx, entityId)).filter((id) => holders.has(id));
}
