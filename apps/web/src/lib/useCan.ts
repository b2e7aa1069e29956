import { type Action, hasAnyPermission, type Resource, scopeFor } from '@aporta/domain/permissions';
import { useCallback } from 'react';
import { useCurrentUser } from './auth.ts';

/**
 * `can(resource)`: any action on the resource; `can(resource, action)`: that action, in any scope;
 * `can(resource, action, 'ALL')`: that action over the whole institution (data about no entity, such as
 * bank files or voluntary contributors, which the server refuses to REGION and ENTITY grants).
 */
export type Can = (resource: Resource, action?: Action, scope?: 'ALL') => boolean;

/**
 * What the signed-in user may do, from `/api/auth/me` (the one source every page asks). A page shows
 * only the actions the user may take; the server refuses the rest anyway.
 */
export function useCan(): Can {
  const { data: user } = useCurrentUser();
  return useCallback<Can>(
    (resource, action, scope) => {
      if (!user) return false;
      if (!action) return hasAnyPermission(user.permissions, resource);
      const held = scopeFor(user.permissions, resource, action);
      return scope ? held === scope : !!held;
    },
    [user],
  );
}
