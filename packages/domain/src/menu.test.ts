import { describe, expect, it } from 'vitest';
import { collectionNames, dcrudMenuGroup } from './catalogs.ts';
import { filterMenu, menuLeaves, menuTree, withoutDuplicates } from './menu.ts';
import { allPermissions } from './permissions.ts';

describe('menu', () => {
  it('shows every screen once: no /dcrud entry for a collection that has its own menu entry', () => {
    const dynamic = [dcrudMenuGroup(collectionNames)!];
    const menu = filterMenu([...menuTree, ...withoutDuplicates(menuTree, dynamic)], allPermissions());
    const names = menuLeaves(menu).map((l) => l.name);
    expect(names.length).toBe(new Set(names).size);
    // Every collection stays reachable from the menu.
    for (const c of collectionNames) expect(names).toContain(c);
    expect(menuLeaves(menu).filter((l) => l.link?.startsWith('/dcrud/'))).toEqual([]);
  });

  it('keeps a dynamic entry for a collection without a screen of its own', () => {
    const extra = [
      {
        id: 'dcrud',
        label: 'x',
        link: '',
        subItems: [
          { id: 'a', label: 'a', name: 'regions' as const, link: '/dcrud/regions' },
          { id: 'b', label: 'b', name: 'workflow' as const, link: '/dcrud/workflow' },
        ],
      },
    ];
    expect(withoutDuplicates(menuTree, extra)[0].subItems?.map((s) => s.link)).toEqual(['/dcrud/workflow']);
    expect(withoutDuplicates(menuTree, [{ ...extra[0], subItems: [extra[0].subItems[0]] }])).toEqual([]);
  });

  it('offers the audit trail under Administración to whoever may read it', () => {
    const menu = filterMenu(menuTree, { audit: { READ: 'ALL' } });
    expect(menu.map((m) => m.id)).toEqual(['apps', 'administrativeGroup']);
    expect(menu[1].subItems?.map((s) => [s.name, s.link, s.label])).toEqual([['audit', '/audit', 'menu.audit']]);
  });
});
