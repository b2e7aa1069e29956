import type { CollectionRecord } from '@aporta/domain';
import type { RouteObject } from 'react-router';
import type { ListOptions } from '../../components/collections/CollectionListPage.tsx';
import { RequirePermission } from '../../components/RequirePermission.tsx';

/**
 * The template's screens (issue 18) under /plantilla, each on the generic list and record pages of the
 * catalogue engine (one definition per collection), plus the dashboards, the cart and the chat. Every
 * screen needs the permission `plantilla` (RequirePermission), as its menu entry does.
 */
type Extra = 'product' | 'invoice' | 'seller';

const guard = (element: React.ReactNode) => <RequirePermission resource="plantilla">{element}</RequirePermission>;

const list =
  (collection: string, basePath: string, props: ListOptions = {}): RouteObject['lazy'] =>
  async () => {
    const { CollectionListPage } = await import('../../components/collections/CollectionListPage.tsx');
    return { element: guard(<CollectionListPage collection={collection} basePath={basePath} {...props} />) };
  };

const record =
  (collection: string, basePath: string, extra?: Extra): RouteObject['lazy'] =>
  async () => {
    const [{ RecordPage }, extras] = await Promise.all([
      import('../../components/collections/RecordPage.tsx'),
      import('./Extras.tsx'),
    ]);
    const render = extra ? (r: CollectionRecord) => extras.extraOf(extra, r) : undefined;
    return { element: guard(<RecordPage collection={collection} basePath={basePath} extra={render} />) };
  };

const page =
  (load: () => Promise<React.ComponentType>): RouteObject['lazy'] =>
  async () => {
    const C = await load();
    return { element: guard(<C />) };
  };

/** One list screen and its record screen (`…/:id`, `…/new`). */
const screens = (path: string, collection: string, props: ListOptions = {}, extra?: Extra, recordBase = path): RouteObject[] => [
  { path: path.slice(1), lazy: list(collection, recordBase, props) },
  { path: `${recordBase.slice(1)}/:id`, lazy: record(collection, recordBase, extra) },
];

const dash = () => import('./Dashboards.tsx');

export const templateRoutes: RouteObject[] = [
  { path: 'plantilla/crm', lazy: page(async () => (await dash()).CrmDashboard) },
  ...screens('/plantilla/crm/prospectos', 'leads'),
  ...screens('/plantilla/crm/negocios', 'deals'),
  ...screens('/plantilla/crm/tareas', 'crm-tasks'),
  { path: 'plantilla/comercio/ventas', lazy: page(async () => (await dash()).SalesPage) },
  { path: 'plantilla/comercio/ventas/:id', lazy: record('sales-orders', '/plantilla/comercio/ventas') },
  ...screens('/plantilla/comercio/productos', 'products', { bulkDeletePath: '/app/productList' }, 'product'),
  ...screens('/plantilla/comercio/pedidos', 'shop-orders', { bulkDeletePath: '/app/orderList' }),
  ...screens('/plantilla/comercio/vendedores', 'sellers', { grid: true }, 'seller'),
  ...screens('/plantilla/comercio/clientes', 'customers'),
  { path: 'plantilla/comercio/carrito', lazy: page(async () => (await import('./Cart.tsx')).CartPage) },
  { path: 'plantilla/aprendizaje', lazy: page(async () => (await dash()).LearningDashboard) },
  ...screens('/plantilla/aprendizaje/categorias', 'course-categories'),
  ...screens('/plantilla/aprendizaje/instructores', 'instructors', { bulkDeletePath: '/app/instructorlist' }),
  {
    path: 'plantilla/aprendizaje/instructores/cuadricula',
    lazy: list('instructors', '/plantilla/aprendizaje/instructores', { grid: true, title: 'Instructores' }),
  },
  ...screens('/plantilla/aprendizaje/cursos', 'courses', { bulkDeletePath: '/app/courseList' }),
  {
    path: 'plantilla/aprendizaje/cursos/cuadricula',
    lazy: list('courses', '/plantilla/aprendizaje/cursos', { grid: true, title: 'Cursos' }),
  },
  ...screens('/plantilla/aprendizaje/suscripciones', 'subscriptions'),
  { path: 'plantilla/inmuebles', lazy: list('properties', '/plantilla/inmuebles/lista', { grid: true, title: 'Propiedades' }) },
  ...screens('/plantilla/inmuebles/lista', 'properties', { bulkDeletePath: '/app/listingGrid' }),
  {
    path: 'plantilla/inmuebles/venta',
    lazy: list('properties', '/plantilla/inmuebles/lista', {
      grid: true,
      title: 'Propiedades en venta',
      fixedFilters: { requirement: 'Sale' },
    }),
  },
  {
    path: 'plantilla/inmuebles/alquiler',
    lazy: list('properties', '/plantilla/inmuebles/lista', {
      grid: true,
      title: 'Propiedades en alquiler',
      fixedFilters: { requirement: 'Rent' },
    }),
  },
  ...screens('/plantilla/inmuebles/agentes', 'agents', { bulkDeletePath: '/app/agent' }),
  ...screens('/plantilla/inmuebles/agencias', 'agencies', { grid: true }),
  ...screens('/plantilla/inmuebles/opiniones', 'property-feedback'),
  { path: 'plantilla/tickets', lazy: page(async () => (await dash()).TicketsPage) },
  { path: 'plantilla/tickets/:id', lazy: record('support-tickets', '/plantilla/tickets') },
  ...screens('/plantilla/tickets/lista', 'support-tickets', { bulkDeletePath: '/app/ticketList' }),
  { path: 'plantilla/chat', lazy: page(async () => (await import('./ChatPage.tsx')).ChatPage) },
  { path: 'plantilla/facturas', lazy: page(async () => (await dash()).InvoicesPage) },
  { path: 'plantilla/facturas/:id', lazy: record('invoices', '/plantilla/facturas', 'invoice') },
  { path: 'plantilla/ganancias', lazy: page(async () => (await dash()).EarningsPage) },
  { path: 'plantilla/ganancias/:id', lazy: record('transactions', '/plantilla/ganancias') },
  { path: 'plantilla/estadisticas', lazy: page(async () => (await dash()).TopPagesPage) },
  { path: 'plantilla/estadisticas/paginas/:id', lazy: record('top-pages', '/plantilla/estadisticas/paginas') },
  { path: 'plantilla/estadisticas/navegadores/:id', lazy: record('browser-stats', '/plantilla/estadisticas/navegadores') },
];
