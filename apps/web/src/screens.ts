import type { RouteObject } from 'react-router';
import { contributorRoutes } from './features/contributors/routes.tsx';
import { homeRoutes } from './features/home/routes.tsx';
import { renapRoutes } from './features/renap/routes.tsx';

/**
 * Every screen of the main layout, one array per feature. A feature adds its routes here; the menu
 * shows an entry only when its link matches one of these paths.
 */
export const screens: RouteObject[] = [...homeRoutes, ...contributorRoutes, ...renapRoutes];

const pathsOf = (routes: RouteObject[], base = ''): string[] =>
  routes.flatMap((r) => {
    const here = r.index ? base || '/' : r.path ? `${base}/${r.path}`.replace(/\/+/g, '/') : base;
    return [...(r.path || r.index ? [here] : []), ...pathsOf(r.children ?? [], here)];
  });

export const screenPaths: string[] = pathsOf(screens);
