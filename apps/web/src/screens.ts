import type { RouteObject } from 'react-router';
import { auditRoutes } from './features/audit/routes.tsx';
import { catalogRoutes } from './features/catalogs/routes.tsx';
import { contributorRoutes } from './features/contributors/routes.tsx';
import { homeRoutes } from './features/home/routes.tsx';
import { institutionRoutes } from './features/institutions/routes.tsx';
import { profileRoutes } from './features/profile/routes.tsx';
import { renapRoutes } from './features/renap/routes.tsx';
import { roleRoutes } from './features/roles/routes.tsx';
import { statisticsRoutes } from './features/statistics/routes.tsx';
import { userRoutes } from './features/users/routes.tsx';

/**
 * Every screen of the main layout, one array per feature. A feature adds its routes here; the menu
 * shows an entry only when its link matches one of the menu paths below.
 */
export const screens: RouteObject[] = [
  ...homeRoutes,
  ...userRoutes,
  ...roleRoutes,
  ...institutionRoutes,
  ...profileRoutes,
  ...catalogRoutes,
  ...auditRoutes,
  ...statisticsRoutes,
  ...contributorRoutes,
  ...renapRoutes,
];

const pathsOf = (routes: RouteObject[], base = ''): { path: string; menu: boolean }[] =>
  routes.flatMap((r) => {
    const here = r.index ? base || '/' : r.path ? `${base}/${r.path}`.replace(/\/+/g, '/') : base;
    // A path with a parameter (contributors/:id) would match any link below it, including screens
    // that do not exist; it serves menu links only when the route says so (dcrud/:collection).
    const menu = !here.includes(':') || (r.handle as { menu?: boolean } | undefined)?.menu === true;
    return [...(r.path || r.index ? [{ path: here, menu }] : []), ...pathsOf(r.children ?? [], here)];
  });

const allPaths = pathsOf(screens);
export const screenPaths: string[] = allPaths.map((p) => p.path);
/** The paths a menu link may lead to. */
export const menuPaths: string[] = allPaths.filter((p) => p.menu).map((p) => p.path);
