import type { RouteObject } from 'react-router';

export const statisticsRoutes: RouteObject[] = [
  { path: 'administrative/statistics', lazy: async () => ({ Component: (await import('./StatisticsPage.tsx')).StatisticsPage }) },
];
