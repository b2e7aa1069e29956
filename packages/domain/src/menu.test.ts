import { describe, expect, it } from 'vitest';
import { catalogScreens, collectionDefinitions, collectionNames, dcrudMenuGroup } from './catalogs.ts';
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

  // The two groups whose catalogue entries are derived from catalogs.ts (issue 26), as they were written by hand.
  const before = {
    contributorsGroup: [
      ['contributors', 'contributors', '/contributors'],
      ['contributorList', 'contributor-list', '/contributors/list'],
      ['contributorNew', 'contributor-new', '/contributors/new'],
      ['contributorBulkUpload', 'contributor-bulk-upload', '/contributors/bulk-upload'],
      ['cuiApproval', 'cui-approval', '/contributors/cui-approval'],
      ['contributorCatalogs', 'contributor-catalogs', '/contributors/catalogs'],
      ['contributorReportGeneral', 'contributor-report-general', '/contributors/reports/general'],
      ['contributorReportMunicipality', 'contributor-report-municipality', '/contributors/reports/by-municipality'],
      ['contributorReportType', 'contributor-report-type', '/contributors/reports/by-type'],
    ],
    administrativeGroup: [
      ['administrative', 'administrative', '/administrative'],
      ['statistics', 'statistics', '/administrative/statistics'],
      ['delegates', 'delegates', '/administrative/delegates'],
      ['municipalEntities', 'municipal-entities', '/administrative/municipal-entities'],
      ['entityAssignment', 'entity-assignment', '/administrative/entity-assignment'],
      ['municipalities', 'municipalities', '/administrative/municipalities'],
      ['regions', 'regions', '/administrative/regions'],
      ['departments', 'departments', '/administrative/departments'],
      ['classifications', 'classifications', '/administrative/classifications'],
      ['entityRegions', 'entity-regions', '/administrative/entity-regions'],
      ['regionDelegates', 'region-delegates', '/administrative/region-delegates'],
      ['planillaStatuses', 'planilla-statuses', '/administrative/planilla-statuses'],
      ['budgetLines', 'budget-lines', '/administrative/budget-lines'],
      ['paymentAgreementStatuses', 'payment-agreement-statuses', '/administrative/payment-agreement-statuses'],
      ['planillaAuditLogs', 'planilla-audit-logs', '/administrative/planilla-audit-logs'],
      ['audit', 'audit', '/audit'],
      ['settings', 'settings', '/administrative/settings'],
    ],
  };

  it('keeps every entry it had before the catalogue entries were derived: same order, ids, labels, names and links', () => {
    for (const [groupId, entries] of Object.entries(before)) {
      const group = menuTree.find((g) => g.id === groupId)!;
      const known = new Set(entries.map(([, name]) => name));
      const kept = (group.subItems ?? []).filter((s) => known.has(s.name!));
      expect(
        kept.map((s) => [s.id, s.name, s.link]),
        groupId,
      ).toEqual(entries);
      for (const s of kept)
        expect(s).toEqual({ id: s.id, label: `menu.${s.id}`, icon: undefined, name: s.name, link: s.link, parentId: groupId });
    }
  });

  it('derives one entry per catalogue with a menu place, in its group, by position, at its link', () => {
    const leaves = menuLeaves(menuTree);
    for (const s of catalogScreens) {
      const entry = leaves.find((l) => l.name === s.name);
      expect(entry, s.name).toMatchObject({ id: s.id, label: `menu.${s.id}`, link: s.link, parentId: s.group });
    }
    for (const groupId of ['contributorsGroup', 'administrativeGroup']) {
      const group = menuTree.find((g) => g.id === groupId)!;
      const catalogues = (group.subItems ?? []).filter((l) => (collectionNames as string[]).includes(l.name!));
      expect(catalogues.map((l) => l.name)).toEqual(catalogScreens.filter((s) => s.group === groupId).map((s) => s.name));
    }
    // Banks (issue 26): declared only in catalogs.ts, after the agreement statuses.
    expect(collectionDefinitions.banks.menu).toEqual({ group: 'administrativeGroup', position: 130 });
    expect(leaves.find((l) => l.name === 'banks')).toMatchObject({ id: 'banks', link: '/administrative/banks' });
  });
});
