import type { RouteObject } from 'react-router';

export const financialRoutes: RouteObject[] = [
  {
    path: 'contributors/financial-module',
    lazy: async () => ({ Component: (await import('./FinancialPage.tsx')).FinancialPage }),
  },
];
