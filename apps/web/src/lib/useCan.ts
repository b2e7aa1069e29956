import { type Action, hasAnyPermission, type Resource, scopeFor } from '@aporta/domain/permissions';
import { useCallback } from 'react';
import { useCurrentUser } from '../features/auth/useAuth.ts';

/** `can(resource)`: any action on the resource; `can(resource, action)`: that action, in any scope. */
export type Can = (resource: Resource, action?: Action) => boolean;

/**
 * What the signed-in user may do, from `/api/auth/me` (the one source every page asks). A page shows
 * only the actions the user may take; the server refuses the rest anyway.
 */
export function useCan(): Can {
  const { data: user } = useCurrentUser();
  return useCallback<Can>(
    (resource, action) =>
      !!user && (action ? !!scopeFor(user.permissions, resource, action) : hasAnyPermission(user.permissions, resource)),
    [user],
  );
}
