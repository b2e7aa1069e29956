import { type EffectivePermissions, filterMenu, type MenuItem, menuTree, withoutDuplicates } from '@aporta/domain';
import { useMemo } from 'react';
import { matchPath } from 'react-router';
import { useDynamicMenuEntries } from '../features/catalogs/useCollections.ts';
import { menuPaths } from '../screens.ts';

/** A menu entry is offered only when its screen exists, so the menu never leads to a placeholder. */
export const isAvailable = (item: MenuItem): boolean =>
  !!item.link && menuPaths.some((path) => matchPath({ path, end: true }, item.link!) !== null);

/**
 * The spec's menu tree plus one `/dcrud/{collection}` entry per collection the user may read and that
 * has no entry of its own in the tree (each screen once: decisions.md, issue 9).
 */
export function useMenu(permissions: EffectivePermissions | undefined): MenuItem[] {
  const dynamic = useDynamicMenuEntries();
  return useMemo(
    () => filterMenu([...menuTree, ...withoutDuplicates(menuTree, dynamic)], permissions ?? {}, isAvailable),
    [permissions, dynamic],
  );
}
