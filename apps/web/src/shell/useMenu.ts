import { type EffectivePermissions, filterMenu, type MenuItem, menuTree, templateMenu, withoutDuplicates } from '@aporta/domain';
import { useMemo } from 'react';
import { matchPath } from 'react-router';
import { usePendingCount } from '../features/signing/api.ts';
import { useDynamicMenuEntries } from '../lib/useCollections.ts';
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
  // "Pendientes" of the signing group carries how many documents wait for the user's signature.
  const pending = usePendingCount(!!permissions?.['signing-pending']).data?.pending ?? 0;
  return useMemo(
    () =>
      withBadge(
        filterMenu([...menuTree, templateMenu, ...withoutDuplicates(menuTree, dynamic)], permissions ?? {}, isAvailable),
        'signingPending',
        pending > 0 ? { variant: 'danger', text: String(pending) } : undefined,
      ),
    [permissions, dynamic, pending],
  );
}

/** The menu with `badge` on the entry `id` (a live count), wherever it sits in the tree. */
export function withBadge(items: MenuItem[], id: string, badge: MenuItem['badge']): MenuItem[] {
  if (!badge) return items;
  return items.map((i) =>
    i.id === id ? { ...i, badge } : i.subItems ? { ...i, subItems: withBadge(i.subItems, id, badge) } : i,
  );
}
