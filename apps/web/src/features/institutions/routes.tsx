import type { RouteObject } from 'react-router';

/** Menu label "Permisos". */
export const institutionRoutes: RouteObject[] = [
  { path: 'institutions', lazy: async () => ({ Component: (await import('./InstitutionsPage.tsx')).InstitutionsScreen }) },
];
