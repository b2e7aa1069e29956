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
 * shows an entry only when its link matches one of these paths.
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

const pathsOf = (routes: RouteObject[], base = ''): string[] =>
  routes.flatMap((r) => {
    const here = r.index ? base || '/' : r.path ? `${base}/${r.path}`.replace(/\/+/g, '/') : base;
    return [...(r.path || r.index ? [here] : []), ...pathsOf(r.children ?? [], here)];
  });

export const screenPaths: string[] = pathsOf(screens);
