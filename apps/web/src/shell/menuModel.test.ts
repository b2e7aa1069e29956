import { allPermissions, filterMenu, type MenuItem, menuTree } from '@aporta/domain';
import { describe, expect, it } from 'vitest';
import { activeGroupIds, activeLinkOf, fitHorizontal, fold, linkCovers, menuLeaves, searchMenu } from './menuModel.ts';
import { isAvailable } from './useMenu.ts';

const tree: MenuItem[] = [
  { id: 'apps', label: 'APLICACIONES', isTitle: true },
  { id: 'users', label: 'Usuarios', link: '/users' },
  {
    id: 'planillas',
    label: 'Planillas',
    subItems: [
      { id: 'carga', label: 'Carga de planilla', link: '/planilla/carga' },
      { id: 'deep', label: 'Más planillas', subItems: [{ id: 'cuotas', label: 'Cuotas', link: '/planilla/cuotas' }] },
    ],
  },
];
const id = (s: string) => s;

describe('menu model', () => {
  it('folds accents and case', () => {
    expect(fold('  Órdenes de PAGO ')).toBe('ordenes de pago');
  });
  it('finds entries by label at any depth, keeping their groups and the title', () => {
    const r = searchMenu(tree, 'cuota', id);
    expect(r.map((i) => i.id)).toEqual(['apps', 'planillas']);
    expect(r[1].subItems?.[0].subItems?.[0].id).toBe('cuotas');
    expect(searchMenu(tree, 'nada', id)).toEqual([]);
    expect(searchMenu(tree, '', id)).toBe(tree);
  });
  it('opens the groups on the path to the active entry', () => {
    expect(activeGroupIds(tree, activeLinkOf(tree, '/planilla/cuotas'))).toEqual(['planillas', 'deep']);
    expect(linkCovers('/sig/item/1', '/sig/item/1')).toBe(true);
    expect(linkCovers('/', '/users')).toBe(false);
    expect(linkCovers('/users', '/users/7')).toBe(true);
  });
  it('highlights one entry: the longest link covering the page', () => {
    // The menu as the super administrator sees it: every built screen.
    const menu = filterMenu(menuTree, allPermissions(), isAvailable).filter((i) => !i.isTitle);
    expect(activeLinkOf(menu, '/contributors/list')).toBe('/contributors/list');
    expect(activeLinkOf(menu, '/contributors/7')).toBe('/contributors');
    expect(activeLinkOf(menu, '/administrative/regions/3')).toBe('/administrative/regions');
    expect(activeLinkOf(menu, '/administrative')).toBe('/administrative');
    expect(activeLinkOf(menu, '/nada')).toBeUndefined();
    // A screen that does not exist (404 page) highlights nothing, not its neighbour /contributors.
    expect(activeLinkOf(menu, '/contributors/not-a-screen')).toBeUndefined();
    expect(activeLinkOf(menu, '/contributors/legal-module')).toBe('/contributors/legal-module');
    expect(activeLinkOf(menu, '/contributors/legal-module/4')).toBe('/contributors/legal-module');
    expect(activeLinkOf(menu, '/contributors/7/edit')).toBe('/contributors');
    // The class: for every link of the menu (and a record below it), exactly one entry is active.
    const links = menuLeaves(menu).map((l) => l.item.link!);
    for (const link of links) {
      for (const page of [link, `${link}/12`]) {
        const active = activeLinkOf(menu, page);
        expect(
          links.filter((l) => l === active),
          page,
        ).toHaveLength(1);
        expect(active, page).toBe(link);
      }
    }
  });
  it('lists leaves with their parents', () => {
    expect(menuLeaves(tree).map((l) => [l.item.id, l.parents])).toEqual([
      ['users', []],
      ['carga', ['Planillas']],
      ['cuotas', ['Planillas', 'Más planillas']],
    ]);
  });
  it('keeps a 100 px margin and moves what does not fit into Más', () => {
    expect(fitHorizontal([100, 100, 100], 400, 60)).toBe(3);
    expect(fitHorizontal([100, 100, 100], 399, 60)).toBe(2);
    expect(fitHorizontal([100, 100, 100], 300, 60)).toBe(1);
    expect(fitHorizontal([500], 400, 60)).toBe(0);
  });
});
