import type { RouteObject } from 'react-router';

export const jobRoutes: RouteObject[] = [
  {
    path: 'procesos',
    lazy: async () => {
      const { JobsPage } = await import('./JobsPage.tsx');
      return { element: <JobsPage /> };
    },
  },
];
