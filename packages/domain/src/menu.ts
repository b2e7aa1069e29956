import { catalogScreens } from './catalogs.ts';
import { canOpenScreen, type EffectivePermissions, isResource, type Resource } from './permissions.ts';

/**
 * The sidebar of the specification (section 2, "Sidebar menu", titled APLICACIONES), with the spec's
 * item shape. `label` is an i18n key; `icon` names a Tabler icon; `name` is the permission resource.
 */
export interface MenuItem {
  id: string;
  label: string;
  icon?: string;
  name?: Resource;
  link?: string;
  parentId?: string;
  isTitle?: boolean;
  badge?: { variant: string; text: string };
  subItems?: MenuItem[];
}

type Leaf = [id: string, name: Resource, link: string, icon?: string];

const leaf = ([id, name, link, icon]: Leaf, parentId?: string): MenuItem => ({
  id,
  label: `menu.${id}`,
  icon,
  name,
  link,
  ...(parentId ? { parentId } : {}),
});

/** Where a group lists its catalogues: each catalogue of catalogs.ts that names the group, by position. */
const CATALOGUES = 'catalogues';

const group = (id: string, icon: string, children: (Leaf | typeof CATALOGUES)[]): MenuItem => ({
  id,
  label: `menu.${id}`,
  icon,
  link: '',
  subItems: children.flatMap((c) =>
    c === CATALOGUES ? catalogScreens.filter((s) => s.group === id).map((s) => leaf([s.id, s.name, s.link], id)) : [leaf(c, id)],
  ),
});

/**
 * The template's sample-data areas (issue 18), one group "Plantilla" with a sub-group per area, every
 * entry under the one permission `plantilla` (only the super administrator by default). Kept outside
 * `menuTree` (whose entries each have a permission key of their own): the shell appends it after the tree.
 * The template's other demo menus (dashboards, UI components, icons…) are not reproduced: docs/decisions.md.
 */
const tpl = (id: string, link: string, parentId: string): MenuItem => ({
  id,
  label: `menu.${id}`,
  name: 'plantilla',
  link,
  parentId,
});
const tplGroup = (id: string, icon: string, children: [id: string, link: string][]): MenuItem => ({
  id,
  label: `menu.${id}`,
  icon,
  link: '',
  parentId: 'plantilla',
  subItems: children.map(([c, link]) => tpl(c, link, id)),
});
export const templateMenu: MenuItem = {
  id: 'plantilla',
  label: 'menu.plantilla',
  icon: 'layout-dashboard',
  link: '',
  subItems: [
    tplGroup('tplCrm', 'address-book', [
      ['tplCrmDashboard', '/plantilla/crm'],
      ['tplLeads', '/plantilla/crm/prospectos'],
      ['tplDeals', '/plantilla/crm/negocios'],
      ['tplTasks', '/plantilla/crm/tareas'],
    ]),
    tplGroup('tplEcommerce', 'shopping-cart', [
      ['tplSales', '/plantilla/comercio/ventas'],
      ['tplProducts', '/plantilla/comercio/productos'],
      ['tplOrders', '/plantilla/comercio/pedidos'],
      ['tplSellers', '/plantilla/comercio/vendedores'],
      ['tplCustomers', '/plantilla/comercio/clientes'],
      ['tplCart', '/plantilla/comercio/carrito'],
    ]),
    tplGroup('tplLearning', 'school', [
      ['tplLearningDashboard', '/plantilla/aprendizaje'],
      ['tplCategories', '/plantilla/aprendizaje/categorias'],
      ['tplInstructors', '/plantilla/aprendizaje/instructores'],
      ['tplInstructorGrid', '/plantilla/aprendizaje/instructores/cuadricula'],
      ['tplCourses', '/plantilla/aprendizaje/cursos'],
      ['tplCourseGrid', '/plantilla/aprendizaje/cursos/cuadricula'],
      ['tplSubscriptions', '/plantilla/aprendizaje/suscripciones'],
    ]),
    tplGroup('tplRealEstate', 'building-estate', [
      ['tplListingGrid', '/plantilla/inmuebles'],
      ['tplListingList', '/plantilla/inmuebles/lista'],
      ['tplSale', '/plantilla/inmuebles/venta'],
      ['tplRent', '/plantilla/inmuebles/alquiler'],
      ['tplAgents', '/plantilla/inmuebles/agentes'],
      ['tplAgencies', '/plantilla/inmuebles/agencias'],
      ['tplFeedback', '/plantilla/inmuebles/opiniones'],
    ]),
    tplGroup('tplSupport', 'lifebuoy', [
      ['tplTickets', '/plantilla/tickets'],
      ['tplTicketList', '/plantilla/tickets/lista'],
      ['tplChat', '/plantilla/chat'],
    ]),
    tplGroup('tplFinance', 'receipt-2', [
      ['tplInvoices', '/plantilla/facturas'],
      ['tplEarnings', '/plantilla/ganancias'],
      ['tplTopPages', '/plantilla/estadisticas'],
    ]),
  ],
};

export const menuTree: MenuItem[] = [
  { id: 'apps', label: 'menu.apps', isTitle: true },
  ...(
    [
      ['profile', 'profile', '/profile', 'user-circle'],
      ['legalModule', 'legal-module', '/contributors/legal-module', 'gavel'],
      ['buscarPlanillas', 'buscar-planillas', '/contributors/buscar-planillas', 'file-search'],
      ['supervivencia', 'supervivencia', '/contributors/supervivencia', 'heart-rate-monitor'],
      ['passiveClasses', 'passive-classes', '/contributors/passive-classes', 'old'],
      ['financialModule', 'financial-module', '/contributors/financial-module', 'report-money'],
      ['voluntaryPayments', 'voluntary-payments', '/contributors/voluntary-payments', 'cash'],
      ['documents', 'documents', '/folders', 'folders'],
      ['institutions', 'institutions', '/institutions', 'lock-access'],
      ['users', 'users', '/users', 'users'],
      ['roles', 'roles', '/roles', 'shield-lock'],
      ['sigQuery', 'sig-query', '/dummy', 'database-search'],
      ['paymentOrders', 'payment-orders', '/ordenes-pago', 'receipt'],
      ['renap', 'renap', '/renap', 'id'],
      ['signatureAdmin', 'signature-admin', '/administradorFirma', 'signature'],
      ['autoSignature', 'auto-signature', '/firmaAutomatica', 'writing-sign'],
      // Not in the specification's menu: long work (exports, imports) runs as jobs the user follows here (issue 10).
      ['jobs', 'jobs', '/procesos', 'progress'],
    ] satisfies Leaf[]
  ).map((l) => leaf(l)),
  group('workflow', 'git-merge', [
    ['flow', 'flow', '/flow'],
    ['forms', 'forms', '/forms'],
    ['sigItems', 'sig-items', '/sig/item'],
  ]),
  group('signing', 'certificate', [
    ['signingUpload', 'signing-upload', '/firmaDoc/upload'],
    ['signingSigned', 'signing-signed', '/firmaDoc/signed'],
    ['signingPending', 'signing-pending', '/firmaDoc/pendientes'],
    ['signingRejected', 'signing-rejected', '/firmaDoc/rechazados'],
  ]),
  group('planillas', 'file-spreadsheet', [
    ['planillas', 'planillas', '/planilla'],
    ['planillaView', 'planilla-view', '/planilla/vista'],
    ['planillaUpload', 'planilla-upload', '/planilla/carga'],
    ['receipts7b', 'receipts-7b', '/planilla/recibos-7b'],
    ['receiptRanges7b', 'receipt-ranges-7b', '/planilla/rangos-7b'],
    ['delegateReview', 'delegate-review', '/planilla/revision-delegado'],
    ['planillaPayments', 'planilla-payments', '/planilla/pagos-planillas'],
    ['contributions', 'contributions', '/planilla/cuotas'],
    ['employeeContributionHistory', 'employee-contribution-history', '/planilla/historial-cuotas-laborales'],
    ['employerContributionHistory', 'employer-contribution-history', '/planilla/historial-cuotas-patronales'],
    ['paymentAgreements', 'payment-agreements', '/planilla/convenios-pago'],
    ['planillaEmployees', 'planilla-employees', '/planilla/empleados'],
    ['fallenWages', 'fallen-wages', '/contributors/fallen-wages'],
  ]),
  group('contributorsGroup', 'users-group', [
    ['contributors', 'contributors', '/contributors'],
    ['contributorList', 'contributor-list', '/contributors/list'],
    ['contributorNew', 'contributor-new', '/contributors/new'],
    ['contributorBulkUpload', 'contributor-bulk-upload', '/contributors/bulk-upload'],
    ['cuiApproval', 'cui-approval', '/contributors/cui-approval'],
    // Contributor types (catalogs.ts).
    CATALOGUES,
    ['contributorReportGeneral', 'contributor-report-general', '/contributors/reports/general'],
    ['contributorReportMunicipality', 'contributor-report-municipality', '/contributors/reports/by-municipality'],
    ['contributorReportType', 'contributor-report-type', '/contributors/reports/by-type'],
  ]),
  group('administrativeGroup', 'building-bank', [
    ['administrative', 'administrative', '/administrative'],
    ['statistics', 'statistics', '/administrative/statistics'],
    // Delegates, municipal entities, … payment agreement statuses, banks (catalogs.ts).
    CATALOGUES,
    ['planillaAuditLogs', 'planilla-audit-logs', '/administrative/planilla-audit-logs'],
    // Not in the specification's menu, but the audit trail needs a way in (issue 9).
    ['audit', 'audit', '/audit'],
    // Not in the specification's menu either: the effective-dated settings DOMAIN.md asks for (issue 10).
    ['settings', 'settings', '/administrative/settings'],
    // Outgoing mail (issue 29): what the application sends or keeps, for administrators.
    ['mailOutbox', 'mail', '/administrative/correo-saliente'],
    // Integration tokens (issue 30): what a municipality's payroll software calls the API with.
    ['apiTokens', 'api-tokens', '/administrative/tokens-integracion'],
    // Signed webhooks (issue 30): the URLs an entity's systems are told of its events at, and their deliveries.
    ['webhooks', 'webhooks', '/administrative/webhooks'],
  ]),
];

/**
 * The menu a user sees (spec section 6): an entry only if the user holds any permission on its name,
 * a group only if at least one child remains, titles always. `isAvailable` lets the web app drop
 * entries whose screen is not built yet, so the menu never leads to a placeholder.
 */
export function filterMenu(
  items: readonly MenuItem[],
  perms: EffectivePermissions,
  isAvailable: (item: MenuItem) => boolean = () => true,
): MenuItem[] {
  const out: MenuItem[] = [];
  for (const item of items) {
    if (item.isTitle) {
      out.push(item);
      continue;
    }
    if (item.subItems) {
      const children = filterMenu(item.subItems, perms, isAvailable);
      if (children.length > 0) out.push({ ...item, subItems: children });
      continue;
    }
    if (item.name && isResource(item.name) && canOpenScreen(perms, item.name) && isAvailable(item)) out.push(item);
  }
  return out;
}

/** Every leaf of a menu tree, depth first. */
export function menuLeaves(items: readonly MenuItem[]): MenuItem[] {
  return items.flatMap((i) => (i.subItems ? menuLeaves(i.subItems) : i.isTitle ? [] : [i]));
}

/**
 * Extra entries (the dynamic /dcrud group) without those whose permission key already has an entry in
 * `tree`: each screen appears once. A collection with its own screen (/administrative/regions) is
 * reached there; /dcrud/{collection} still works by URL. Groups left empty disappear.
 */
export function withoutDuplicates(tree: readonly MenuItem[], extra: readonly MenuItem[]): MenuItem[] {
  const taken = new Set(menuLeaves(tree).map((l) => l.name));
  const walk = (items: readonly MenuItem[]): MenuItem[] =>
    items.flatMap((i) => {
      if (i.subItems) {
        const kids = walk(i.subItems);
        return kids.length ? [{ ...i, subItems: kids }] : [];
      }
      return i.name && taken.has(i.name) ? [] : [i];
    });
  return walk(extra);
}
