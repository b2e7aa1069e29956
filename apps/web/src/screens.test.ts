import { menuLeaves, menuTree } from '@aporta/domain';
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { RequirePermission } from './components/RequirePermission.tsx';
import { isRecordId, openToEverySignedInUser, screenFor, screenPaths, screens } from './screens.ts';

/** Every link of the specification's menu (section 2), plus the pages a record id opens. */
const specLinks = menuLeaves(menuTree).map((l) => l.link!);

describe('routes', () => {
  it('renders every built menu screen inside RequirePermission with its menu entry’s resource', () => {
    const built = menuLeaves(menuTree).filter((l) => screenFor(l.link!) === l.link);
    expect(built.length).toBeGreaterThan(20);
    // One's own profile opens for every signed-in user (its routes are `authenticated` on the server).
    expect(built.map((l) => l.link)).toContain('/profile');
    for (const leaf of built) {
      const guards = (matchRoutes(screens, leaf.link!) ?? [])
        .map((m) => m.route.element as { type?: unknown; props?: { resource?: string } } | undefined)
        .filter((e) => e?.type === RequirePermission);
      expect(
        guards.map((g) => g?.props?.resource),
        leaf.link,
      ).toEqual(openToEverySignedInUser.has(leaf.name!) ? [] : [leaf.name]);
    }
  });

  it('never opens a record page for a menu link of the specification', () => {
    // The seven of the issue first, then the whole menu (with and without a trailing slash).
    for (const link of [
      '/contributors/legal-module',
      '/contributors/supervivencia',
      '/contributors/passive-classes',
      '/contributors/financial-module',
      '/contributors/voluntary-payments',
      '/contributors/fallen-wages',
      '/contributors/buscar-planillas',
      ...specLinks,
      ...specLinks.map((l) => `${l}/`),
    ]) {
      const screen = screenFor(link);
      expect(screen ?? '', link).not.toMatch(/:id/);
      // Built: its own static route; not built: the 404 / "Pantalla no disponible" page.
      if (screen !== null) expect(screenPaths, link).toContain(screen);
    }
  });

  it('opens a record page only for a decimal id within range (or new where the page creates)', () => {
    expect(screenFor('/contributors/12')).toBe('/contributors/:id');
    expect(screenFor('/contributors/12/edit')).toBe('/contributors/:id/edit');
    expect(screenFor('/contributors/new')).toBe('/contributors/new');
    for (const bad of ['0x1', '1e0', '01', '0', '-1', '2147483648', 'abc']) {
      expect(screenFor(`/contributors/${bad}`), bad).toBeNull();
      expect(screenFor(`/contributors/${bad}/edit`), bad).toBeNull();
      expect(screenFor(`/roles/${bad}`), bad).toBeNull();
    }
    // /contributors/new is its own screen, so the edit page never takes `new` as an id.
    expect(screenFor('/contributors/new/edit')).toBeNull();
    expect(screenFor('/administrative/regions/new')).toBe('/administrative/regions/:id');
    expect(screenFor('/administrative/regions/7')).toBe('/administrative/regions/:id');
    expect(screenFor('/administrative/regions/legal')).toBeNull();
    expect(screenFor('/dcrud/regions/new')).toBe('/dcrud/:collection/:id');
    expect(screenFor('/roles/new')).toBe('/roles/:id');
    expect(screenFor('/nada')).toBeNull();
    expect(isRecordId('2147483647')).toBe(true);
  });
});
