import type { RouteObject } from 'react-router';

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
    const { CollectionListPage } = await import('./CollectionListPage.tsx');
    return { element: <CollectionListPage collection={collection} basePath={basePath} /> };
  };
const recordPage =
  (collection: string, basePath = `/administrative/${collection}`): RouteObject['lazy'] =>
  async () => {
    const { RecordPage } = await import('./RecordPage.tsx');
    return { element: <RecordPage collection={collection} basePath={basePath} /> };
  };

/** A municipal entity's page: the generic record page plus its payment orders and payments. */
const entityPage: RouteObject['lazy'] = async () => {
  const [{ RecordPage }, { EntityPaymentTabs }] = await Promise.all([
    import('./RecordPage.tsx'),
    import('../payments/ownerTabs.tsx'),
    // Modules that add tabs to the entity's page (they register themselves on import).
    import('../agreements/entityTabs.tsx'),
    import('../financial/entityTabs.tsx'),
    import('../legal/entityTabs.tsx'),
  ]);
  return {
    element: (
      <RecordPage
        collection="municipal-entities"
        basePath="/administrative/municipal-entities"
        extra={(r) => <EntityPaymentTabs entityId={r.id} />}
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
    lazy: async () => ({ Component: (await import('./CollectionListPage.tsx')).DcrudListPage }),
  },
  {
    path: 'dcrud/:collection/:id',
    lazy: async () => {
      const { DcrudRecordPage } = await import('./DcrudRecordPage.tsx');
      return { Component: DcrudRecordPage };
    },
  },
];
