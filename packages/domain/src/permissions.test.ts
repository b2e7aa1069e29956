import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roleInputSchema } from './accounts.ts';
import { catalogScreens, collectionNames, isCollectionName } from './catalogs.ts';
import { filterMenu, menuLeaves, menuTree } from './menu.ts';
import {
  actions,
  allPermissions,
  type Grant,
  isResource,
  mergeGrants,
  resourceKeys,
  resourceScopability,
  resources,
  scopableResources,
  scopeFor,
  scopes,
  validScopes,
} from './permissions.ts';

describe('permission catalogue', () => {
  it('has one resource per menu entry, and every menu entry names a known resource', () => {
    const leaves = menuLeaves(menuTree);
    // Besides the catalogues (derived from catalogs.ts): first group, the spec's 16 plus Procesos (issue 10);
    // contributors, the spec's 9 but its catalogue; administrative, the spec's 3 screens that are not catalogues,
    // the audit trail (issue 9), Parámetros (issue 10), Correo saliente (issue 29), Tokens de integración and
    // Webhooks (issue 30).
    const catalogues = leaves.filter((l) => isCollectionName(l.name!));
    expect(leaves.length - catalogues.length).toBe(17 + 3 + 4 + 13 + 8 + 8);
    expect(catalogues.map((l) => l.name)).toEqual(catalogScreens.map((s) => s.name));
    for (const leaf of leaves) expect(resourceKeys).toContain(leaf.name);
    expect(new Set(leaves.map((l) => l.name)).size).toBe(leaves.length);
    expect(new Set(leaves.map((l) => l.link)).size).toBe(leaves.length);
  });

  it("keeps the catalogues' permissions as they were declared by hand before being derived (issue 26)", () => {
    const crud = ['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT'];
    const before: Record<string, [string[], string]> = {
      delegates: [crud, 'none'],
      'municipal-entities': [crud, 'entity'],
      'entity-assignment': [crud, 'entity'],
      municipalities: [crud, 'none'],
      regions: [crud, 'none'],
      departments: [crud, 'none'],
      classifications: [crud, 'none'],
      'entity-regions': [crud, 'entity'],
      'region-delegates': [crud, 'none'],
      'planilla-statuses': [crud, 'none'],
      'budget-lines': [crud, 'none'],
      'payment-agreement-statuses': [crud, 'none'],
      'contributor-catalogs': [crud, 'none'],
    };
    const now = (r: string) => (isResource(r) ? [[...resources[r]], resourceScopability[r]] : null);
    for (const [r, was] of Object.entries(before)) expect(now(r), r).toEqual(was);
    // Every catalogue is a resource with CRUD, banks included (issue 26); no other resource changed (the rest is literal).
    for (const c of collectionNames) expect([...resources[c]], c).toEqual(crud);
    expect(now('banks')).toEqual([crud, 'none']);
  });

  it('offers only known actions and READ on every resource', () => {
    for (const key of resourceKeys) {
      expect(resources[key]).toContain('READ');
      for (const a of resources[key]) expect(actions).toContain(a);
    }
  });

  it('keeps the broadest scope when grants overlap, whatever their order', () => {
    const grant = fc.record({
      resource: fc.constantFrom(...resourceKeys),
      action: fc.constantFrom(...actions),
      scope: fc.constantFrom(...scopes),
    });
    fc.assert(
      fc.property(fc.array(grant, { maxLength: 30 }), (grants: Grant[]) => {
        const merged = mergeGrants(grants);
        const reversed = mergeGrants([...grants].reverse());
        expect(merged).toEqual(reversed);
        for (const g of grants) {
          const s = scopeFor(merged, g.resource, g.action)!;
          expect(['ALL', 'REGION', 'ENTITY'].indexOf(s)).toBeLessThanOrEqual(['ALL', 'REGION', 'ENTITY'].indexOf(g.scope));
        }
      }),
    );
  });

  it('gives SISTEMA every action of every resource', () => {
    const all = allPermissions();
    for (const key of resourceKeys) for (const a of resources[key]) expect(scopeFor(all, key, a)).toBe('ALL');
  });
});

describe('menu filter', () => {
  it('shows only entries with a permission, drops empty groups, keeps titles', () => {
    const menu = filterMenu(menuTree, mergeGrants([{ resource: 'contributors', action: 'READ', scope: 'ALL' }]));
    expect(menu.map((m) => m.id)).toEqual(['apps', 'contributorsGroup']);
    expect(menu[1].subItems?.map((s) => s.link)).toEqual(['/contributors']);
  });

  it('shows nothing but titles to a user without permissions', () => {
    expect(filterMenu(menuTree, {}).every((m) => m.isTitle)).toBe(true);
  });

  it('offers a create-only screen (Nuevo afiliado, Carga masiva, uploads) only with its action, not with READ', () => {
    const readOnly = mergeGrants(resourceKeys.map((resource) => ({ resource, action: 'READ' as const, scope: 'ALL' as const })));
    const links = menuLeaves(filterMenu(menuTree, readOnly)).map((m) => m.link);
    for (const link of ['/contributors/new', '/contributors/bulk-upload']) expect(links).not.toContain(link);
    expect(links).toContain('/contributors/list');
    const creator = mergeGrants([{ resource: 'contributor-new', action: 'CREATE', scope: 'ENTITY' }]);
    expect(menuLeaves(filterMenu(menuTree, creator)).map((m) => m.link)).toEqual(['/contributors/new']);
  });

  it('drops entries whose screen is not available', () => {
    const menu = filterMenu(menuTree, allPermissions(), (item) => item.link === '/users');
    expect(menuLeaves(menu).map((m) => m.link)).toEqual(['/users']);
  });
});

describe('scope as a property of the resource', () => {
  it('declares every resource scopable by entity, by region or not at all', () => {
    for (const r of resourceKeys) expect(['entity', 'region', 'none']).toContain(resourceScopability[r]);
    expect(resourceScopability.contributors).toBe('entity');
    expect(resourceScopability.audit).toBe('entity');
    expect(resourceScopability.roles).toBe('none');
    expect(resourceScopability.regions).toBe('none');
  });

  it('derives the valid scopes: ALL always, REGION/ENTITY only where rows belong to an entity', () => {
    for (const r of resourceKeys) {
      const valid = validScopes(r);
      expect(valid[0]).toBe('ALL');
      if (resourceScopability[r] === 'none') expect(valid).toEqual(['ALL']);
      if (resourceScopability[r] === 'entity') expect(valid).toEqual([...scopes]);
    }
    expect(scopableResources).toEqual(resourceKeys.filter((r) => resourceScopability[r] !== 'none'));
  });

  it('refuses a role grant whose scope its resource does not admit, naming the resource', () => {
    for (const r of resourceKeys) {
      for (const scope of scopes) {
        const grant = { resource: r, action: resources[r][0], scope };
        const res = roleInputSchema.safeParse({ name: 'Rol', grants: [grant] });
        expect(res.success, `${r} ${scope}`).toBe(validScopes(r).includes(scope));
        if (!res.success) {
          expect(res.error.issues[0].path).toEqual(['grants', 0, 'scope']);
          expect(res.error.issues[0].message).toContain(r);
        }
      }
    }
  });
});
