import { catalogScreens } from '@aporta/domain/catalogs';
import type { RouteObject } from 'react-router';
import { loadEntityTabs } from '../../lib/entityTabs.ts';

/** The catalogues under Administración (catalogs.ts gives each its menu place and link). */
export const administrativeCatalogues = catalogScreens.filter((s) => s.group === 'administrativeGroup');

const listPage =
  (collection: string, basePath: string): RouteObject['lazy'] =>
  async () => {
    const { CollectionListPage } = await import('../../components/collections/CollectionListPage.tsx');
    return { element: <CollectionListPage collection={collection} basePath={basePath} /> };
  };
const recordPage =
  (collection: string, basePath: string): RouteObject['lazy'] =>
  async () => {
    const { RecordPage } = await import('../../components/collections/RecordPage.tsx');
    return { element: <RecordPage collection={collection} basePath={basePath} /> };
  };

/**
 * A municipal entity's page: the generic record page plus the tabs other modules give it (payment orders
 * and payments, agreements, statement, certificates, legal cases), loaded with the page.
 */
const entityPage: RouteObject['lazy'] = async () => {
  const [{ RecordPage }, { EntityTabs }, tabs] = await Promise.all([
    import('../../components/collections/RecordPage.tsx'),
    import('./EntityTabs.tsx'),
    loadEntityTabs(),
  ]);
  return {
    element: (
      <RecordPage
        collection="municipal-entities"
        basePath="/administrative/municipal-entities"
        extra={(r) => <EntityTabs entityId={r.id} tabs={tabs} />}
      />
    ),
  };
};

export const catalogRoutes: RouteObject[] = [
  { path: 'administrative', lazy: async () => ({ Component: (await import('./AdministrativePage.tsx')).AdministrativePage }) },
  // Every catalogue with a menu place, at its menu link, on the one generic list and record page.
  ...catalogScreens.flatMap(({ name, link }): RouteObject[] => [
    { path: link.slice(1), lazy: listPage(name, link) },
    { path: `${link.slice(1)}/:id`, lazy: name === 'municipal-entities' ? entityPage : recordPage(name, link) },
  ]),
  {
    path: 'dcrud/:collection',
    handle: { menu: true },
    lazy: async () => ({ Component: (await import('../../components/collections/CollectionListPage.tsx')).DcrudListPage }),
  },
  {
    path: 'dcrud/:collection/:id',
    lazy: async () => {
      const { DcrudRecordPage } = await import('./DcrudRecordPage.tsx');
      return { Component: DcrudRecordPage };
    },
  },
];
