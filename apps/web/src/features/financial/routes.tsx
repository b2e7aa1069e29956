import type { RouteObject } from 'react-router';

export const financialRoutes: RouteObject[] = [
  {
    path: 'contributors/financial-module',
    lazy: async () => ({ Component: (await import('./FinancialPage.tsx')).FinancialPage }),
  },
  {
    path: 'contributors/financial-module/campaigns/:id',
    lazy: async () => ({ Component: (await import('./CampaignPage.tsx')).CampaignPage }),
  },
];
