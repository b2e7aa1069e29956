import { sortGrants } from './accounts.ts';
import {
  type Action,
  allPermissions,
  type EffectivePermissions,
  type Grant,
  type Resource,
  resourceKeys,
  resources,
  type Scope,
  SYSTEM_INSTITUTION,
  scopeFor,
  scopeRank,
} from './permissions.ts';

/**
 * The privilege ceiling: nobody grants, through users, roles or institutions, a permission or a scope they
 * do not hold themselves. One rule, used by every service that assigns permissions and by the screens
 * that offer them.
 */

/** What an actor may hand out: their effective permissions, and whether they are a super administrator. */
export interface Ceiling {
  permissions: EffectivePermissions;
  /** Member of SISTEMA: the only one who may act on super-administrator accounts and SISTEMA membership. */
  isSuperAdmin: boolean;
}

/** The ceiling of a signed-in user (the shape /api/auth/me answers). */
export function ceilingOf(user: { permissions: Record<string, Record<string, Scope>>; institucion: readonly string[] }): Ceiling {
  const isSuperAdmin = user.institucion.includes(SYSTEM_INSTITUTION);
  return { permissions: isSuperAdmin ? allPermissions() : (user.permissions as EffectivePermissions), isSuperAdmin };
}

/** True when `perms` holds `grant`: the same resource and action with a scope at least as broad. */
export function holdsGrant(perms: EffectivePermissions, grant: Pick<Grant, 'resource' | 'action' | 'scope'>): boolean {
  const held = scopeFor(perms, grant.resource, grant.action);
  return !!held && scopeRank[held] >= scopeRank[grant.scope];
}

/** The grants of `grants` that `perms` does not hold (empty when all may be given). */
export function grantsBeyond<T extends Pick<Grant, 'resource' | 'action' | 'scope'>>(
  perms: EffectivePermissions,
  grants: readonly T[],
): T[] {
  return grants.filter((g) => !holdsGrant(perms, g));
}

/** Effective permissions as a list of grants (the inverse of mergeGrants). */
export function grantsOf(perms: EffectivePermissions): Grant[] {
  const out: Grant[] = [];
  for (const resource of resourceKeys) {
    const byAction = perms[resource];
    if (!byAction) continue;
    for (const action of resources[resource] as readonly Action[]) {
      const scope = byAction[action];
      if (scope) out.push({ resource, action, scope });
    }
  }
  return out;
}

/** True when `perms` holds every permission of `other` with at least its scope. */
export function covers(perms: EffectivePermissions, other: EffectivePermissions): boolean {
  return grantsBeyond(perms, grantsOf(other)).length === 0;
}

const actionLabel: Record<Action, string> = {
  READ: 'ver',
  CREATE: 'crear',
  UPDATE: 'modificar',
  DELETE: 'eliminar',
  APPROVE: 'aprobar',
  EXPORT: 'exportar',
  SIGN: 'firmar',
};
const scopeLabel: Record<Scope, string> = { ALL: 'todo', REGION: 'sus regiones', ENTITY: 'su entidad' };

/** "roles: modificar (todo), users: crear (sus regiones)…" in catalogue order, at most `max` named, for a Spanish message. */
export function describeGrants(grants: readonly Pick<Grant, 'resource' | 'action' | 'scope'>[], max = 8): string {
  const named = sortGrants(grants)
    .slice(0, max)
    .map((g) => `${g.resource as Resource}: ${actionLabel[g.action as Action] ?? g.action} (${scopeLabel[g.scope] ?? g.scope})`);
  const rest = grants.length - named.length;
  return rest > 0 ? `${named.join(', ')} y ${rest} más` : named.join(', ');
}
