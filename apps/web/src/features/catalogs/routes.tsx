import type { RouteObject } from 'react-router';
import { loadEntityTabs } from '../../lib/entityTabs.ts';

/** The catalogues under /administrative/*, each served by the one generic list and record page. */
export const administrativeCollections = [
  'municipal-entities',
  'entity-assignment',
  'municipalities',
  'regions',
  'departments',
  'classifications',
  'entity-regions',
  'region-delegates',
  'planilla-statuses',
  'budget-lines',
  'payment-agreement-statuses',
  'delegates',
] as const;

const listPage =
  (collection: string, basePath = `/administrative/${collection}`): RouteObject['lazy'] =>
  async () => {
    const { CollectionListPage } = await import('../../components/collections/CollectionListPage.tsx');
    return { element: <CollectionListPage collection={collection} basePath={basePath} /> };
  };
const recordPage =
  (collection: string, basePath = `/administrative/${collection}`): RouteObject['lazy'] =>
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
  ...administrativeCollections.flatMap((c): RouteObject[] => [
    { path: `administrative/${c}`, lazy: listPage(c) },
    { path: `administrative/${c}/:id`, lazy: c === 'municipal-entities' ? entityPage : recordPage(c) },
  ]),
  // The contributors module's catalogues, on the same generic pages.
  { path: 'contributors/catalogs', lazy: listPage('contributor-catalogs', '/contributors/catalogs') },
  { path: 'contributors/catalogs/:id', lazy: recordPage('contributor-catalogs', '/contributors/catalogs') },
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
