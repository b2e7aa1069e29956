import type { Scope } from '@aporta/domain';
import { type AnyColumn, and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  delegates,
  entityRegions,
  institutions,
  municipalEntities,
  regionDelegates,
  userInstitutions,
} from '../../db/schema/index.ts';

/**
 * Data scope of contributor queries, by the contributor's current entity. ALL: no filter. ENTITY: the
 * entities of the user's ENTIDAD institutions. REGION: the entities of the regions the user is a
 * delegate of. A contributor without an entity is visible only with ALL.
 *
 * MERGE NOTE: the catalogues branch brings apps/api/src/platform/scope.ts with the same rule for every
 * module; this function is to be replaced by it.
 */
export function contributorEntityScope(db: Db, userId: number, scope: Scope, entityColumn: AnyColumn): SQL | undefined {
  if (scope === 'ALL') return undefined;
  if (scope === 'ENTITY') {
    const own = db
      .select({ id: institutions.entityId })
      .from(userInstitutions)
      .innerJoin(institutions, eq(institutions.id, userInstitutions.institutionId))
      .where(and(eq(userInstitutions.userId, userId), eq(institutions.kind, 'ENTIDAD')));
    return inArray(entityColumn, own);
  }
  const regional = db
    .select({ id: entityRegions.entityId })
    .from(entityRegions)
    .innerJoin(regionDelegates, eq(regionDelegates.regionId, entityRegions.regionId))
    .innerJoin(delegates, eq(delegates.id, regionDelegates.delegateId))
    .where(and(eq(delegates.userId, userId), eq(delegates.isActive, true)));
  return inArray(entityColumn, regional);
}

/** The entity ids a scoped user may write to; null means any (scope ALL). */
export async function allowedEntityIds(db: Db, userId: number, scope: Scope): Promise<Set<number> | null> {
  if (scope === 'ALL') return null;
  const cond = contributorEntityScope(db, userId, scope, municipalEntities.id);
  const rows = await db
    .select({ id: municipalEntities.id })
    .from(municipalEntities)
    .where(cond ?? sql`true`);
  return new Set(rows.map((r) => r.id));
}
