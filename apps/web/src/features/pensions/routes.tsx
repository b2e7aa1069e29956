import type { RouteObject } from 'react-router';

export const pensionRoutes: RouteObject[] = [
  {
    path: 'contributors/passive-classes',
    lazy: async () => ({ Component: (await import('./PensionListPage.tsx')).PensionListPage }),
  },
  {
    path: 'contributors/passive-classes/new',
    lazy: async () => ({ Component: (await import('./PensionFormPage.tsx')).PensionFormPage }),
  },
  {
    path: 'contributors/passive-classes/planilla',
    lazy: async () => ({ Component: (await import('./PayrollPage.tsx')).PayrollPage }),
  },
  {
    path: 'contributors/passive-classes/:id/edit',
    lazy: async () => ({ Component: (await import('./PensionFormPage.tsx')).PensionFormPage }),
  },
  {
    path: 'contributors/passive-classes/:id',
    lazy: async () => ({ Component: (await import('./PensionPage.tsx')).PensionPage }),
  },
  {
    path: 'contributors/supervivencia',
    lazy: async () => ({ Component: (await import('./SurvivalPage.tsx')).SurvivalPage }),
  },
];
