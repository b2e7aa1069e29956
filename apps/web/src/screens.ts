import { menuLeaves, menuTree } from '@aporta/domain/menu';
import type { Resource } from '@aporta/domain/permissions';
import { createElement } from 'react';
import { matchRoutes, Outlet, type Params, type RouteObject, useParams } from 'react-router';
import { RequirePermission } from './components/RequirePermission.tsx';
import { agreementRoutes } from './features/agreements/routes.tsx';
import { apiTokenRoutes } from './features/api-tokens/routes.tsx';
import { auditRoutes } from './features/audit/routes.tsx';
import { catalogRoutes } from './features/catalogs/routes.tsx';
import { contributorRoutes } from './features/contributors/routes.tsx';
import { financialRoutes } from './features/financial/routes.tsx';
import { homeRoutes } from './features/home/routes.tsx';
import { institutionRoutes } from './features/institutions/routes.tsx';
import { jobRoutes } from './features/jobs/routes.tsx';
import { legalRoutes } from './features/legal/routes.tsx';
import { mailRoutes } from './features/mail/routes.tsx';
import { paymentRoutes } from './features/payments/routes.tsx';
import { pensionRoutes } from './features/pensions/routes.tsx';
import { planillaRoutes } from './features/planillas/routes.tsx';
import { profileRoutes } from './features/profile/routes.tsx';
import { renapRoutes } from './features/renap/routes.tsx';
import { roleRoutes } from './features/roles/routes.tsx';
import { settingsRoutes } from './features/settings/routes.tsx';
import { signingRoutes } from './features/signing/routes.tsx';
import { statisticsRoutes } from './features/statistics/routes.tsx';
import { templateRoutes } from './features/template/routes.tsx';
import { userRoutes } from './features/users/routes.tsx';
import { webhookRoutes } from './features/webhooks/routes.tsx';
import { workflowRoutes } from './features/workflow/routes.tsx';
import { NotFoundPage } from './shell/NotFoundPage.tsx';
import { RouteError } from './shell/RouteError.tsx';

/** Every screen of the main layout, one array per feature. A feature adds its routes here. */
const featureScreens: RouteObject[] = [
  ...homeRoutes,
  ...userRoutes,
  ...roleRoutes,
  ...institutionRoutes,
  ...profileRoutes,
  ...catalogRoutes,
  ...auditRoutes,
  ...statisticsRoutes,
  ...contributorRoutes,
  ...planillaRoutes,
  ...paymentRoutes,
  ...agreementRoutes,
  ...financialRoutes,
  ...legalRoutes,
  ...mailRoutes,
  ...webhookRoutes,
  ...apiTokenRoutes,
  ...pensionRoutes,
  ...renapRoutes,
  ...jobRoutes,
  ...settingsRoutes,
  ...signingRoutes,
  ...templateRoutes,
  ...workflowRoutes,
];

const join = (base: string, path: string) => `${base}/${path}`.replace(/\/+/g, '/');

const pathsOf = (routes: RouteObject[], base = ''): { path: string; menu: boolean }[] =>
  routes.flatMap((r) => {
    const here = r.index ? base || '/' : r.path ? join(base, r.path) : base;
    // A path with a parameter (contributors/:id) would match any link below it, including screens
    // that do not exist; it serves menu links only when the route says so (dcrud/:collection).
    const menu = !here.includes(':') || (r.handle as { menu?: boolean } | undefined)?.menu === true;
    return [...(r.path || r.index ? [{ path: here, menu }] : []), ...pathsOf(r.children ?? [], here)];
  });

const allPaths = pathsOf(featureScreens);
const staticPaths = new Set(allPaths.map((p) => p.path).filter((p) => !p.includes(':')));

/** Largest record id the API accepts (a PostgreSQL integer). */
const MAX_ID = 2_147_483_647;
/** A record id in a URL: decimal digits only, no sign, no leading zero, within range (never `0x1`, `1e0`). */
export const isRecordId = (v: string | undefined): v is string => !!v && /^[1-9]\d{0,9}$/.test(v) && Number(v) <= MAX_ID;

/**
 * Whether a parameter route takes these values: every `:id` is a record id, or `new` when the route is
 * the record page itself (`…/:id` last) and no static `…/new` screen exists beside it. So
 * /contributors/legal-module is not "contributor legal-module" but a page that does not exist.
 */
export function acceptsParams(fullPath: string, params: Params): boolean {
  const idParams = [...fullPath.matchAll(/:(\w+)/g)].map((m) => m[1]).filter((n) => n === 'id' || n.endsWith('Id'));
  return idParams.every((name) => {
    const v = params[name];
    if (isRecordId(v)) return true;
    return v === 'new' && fullPath.endsWith(`:${name}`) && !staticPaths.has(fullPath.replace(`:${name}`, 'new'));
  });
}

/** Layout route of a parameter screen: renders it only when its parameters are valid, else the 404 page. */
function ParamGuard({ fullPath }: { fullPath: string }) {
  const params = useParams();
  return acceptsParams(fullPath, params) ? createElement(Outlet) : createElement(NotFoundPage);
}

/** Every route whose path has an id parameter becomes a guard with the screen as its index child. */
const guard = (routes: RouteObject[], base = ''): RouteObject[] =>
  routes.map((r): RouteObject => {
    const full = r.index ? base : r.path ? join(base, r.path) : base;
    if (r.children) return { ...r, children: guard(r.children, full) };
    if (r.index || !r.path || !/:(id|\w+Id)\b/.test(r.path)) return r;
    const { path, handle, ...screen } = r;
    return {
      path,
      handle: { ...(handle as object), paramGuard: full },
      element: createElement(ParamGuard, { fullPath: full }),
      children: [{ ...screen, index: true } as RouteObject],
    };
  });

/**
 * Screens every signed-in user may open whatever their grants: one's own profile and sessions, and
 * one's own background jobs (Procesos), are `authenticated` routes on the server (docs/decisions.md);
 * the `profile` and `jobs` grants only show the menu entry (and `jobs` READ everyone's jobs).
 */
export const openToEverySignedInUser: ReadonlySet<Resource> = new Set<Resource>(['profile', 'jobs']);

/** The permission of each menu link: a screen the menu names opens only for holders of it. */
const linkResource = new Map<string, Resource>(
  menuLeaves(menuTree).flatMap((l) =>
    l.link && l.name && !openToEverySignedInUser.has(l.name) ? [[l.link, l.name] as [string, Resource]] : [],
  ),
);

/**
 * Every screen a menu entry leads to renders inside RequirePermission with that entry's resource, so a
 * user who opens it by URL without the permission sees "No autorizado" instead of the page's filters and
 * buttons — for every screen, also those added later, without each page remembering to check.
 */
const permissionGuard = (routes: RouteObject[]): RouteObject[] =>
  routes.map((r): RouteObject => {
    const resource = r.path ? linkResource.get(join('/', r.path)) : undefined;
    if (!resource || r.index) return r;
    const { path, handle, ...screen } = r;
    return {
      path,
      handle,
      element: createElement(RequirePermission, { resource }),
      children: [{ ...screen, index: true } as RouteObject],
    };
  });

/** Every screen shows a failure to load or render in place, inside the layout (RouteError). */
export const screens: RouteObject[] = permissionGuard(guard(featureScreens)).map((r) => ({
  ...r,
  errorElement: createElement(RouteError),
}));

export const screenPaths: string[] = allPaths.map((p) => p.path);
/** The paths a menu link may lead to. */
export const menuPaths: string[] = allPaths.filter((p) => p.menu).map((p) => p.path);

/**
 * The screen a URL opens, as its route pattern ('/contributors/:id'), or null when the app shows its
 * 404 page (no route, or a parameter route whose values it refuses).
 */
export function screenFor(pathname: string): string | null {
  const matches = matchRoutes(screens, pathname);
  if (!matches) return null;
  let full = '';
  for (const m of matches) {
    if (m.route.path) full = join(full, m.route.path);
    const guardPath = (m.route.handle as { paramGuard?: string } | undefined)?.paramGuard;
    if (guardPath && !acceptsParams(guardPath, m.params)) return null;
  }
  return full || '/';
}
