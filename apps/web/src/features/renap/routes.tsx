import type { RouteObject } from 'react-router';

export const renapRoutes: RouteObject[] = [
  { path: 'renap', lazy: async () => ({ Component: (await import('./RenapPage.tsx')).RenapPage }) },
];
