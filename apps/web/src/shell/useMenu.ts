import { type EffectivePermissions, filterMenu, type MenuItem, menuTree } from '@aporta/domain';
import { useMemo } from 'react';
import { matchPath } from 'react-router';
import { screenPaths } from '../screens.ts';

/** A menu entry is offered only when its screen exists, so the menu never leads to a placeholder. */
export const isAvailable = (item: MenuItem): boolean =>
  !!item.link && screenPaths.some((path) => matchPath({ path, end: true }, item.link!) !== null);

export function useMenu(permissions: EffectivePermissions | undefined): MenuItem[] {
  return useMemo(() => filterMenu(menuTree, permissions ?? {}, isAvailable), [permissions]);
}
