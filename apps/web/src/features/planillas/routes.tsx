import type { RouteObject } from 'react-router';

export const planillaRoutes: RouteObject[] = [
  { path: 'planilla', lazy: async () => ({ Component: (await import('./OverviewPage.tsx')).OverviewPage }) },
  { path: 'planilla/vista', lazy: async () => ({ Component: (await import('./PlanillaListPage.tsx')).PlanillaListPage }) },
  { path: 'planilla/vista/:id', lazy: async () => ({ Component: (await import('./PlanillaPage.tsx')).PlanillaPage }) },
  { path: 'planilla/carga', lazy: async () => ({ Component: (await import('./UploadPage.tsx')).UploadPage }) },
  {
    path: 'planilla/revision-delegado',
    lazy: async () => ({ Component: (await import('./PlanillaListPage.tsx')).ReviewQueuePage }),
  },
  {
    path: 'contributors/buscar-planillas',
    lazy: async () => ({ Component: (await import('./PlanillaListPage.tsx')).PlanillaSearchPage }),
  },
  { path: 'contributors/fallen-wages', lazy: async () => ({ Component: (await import('./BackPayPage.tsx')).BackPayPage }) },
  { path: 'planilla/empleados', lazy: async () => ({ Component: (await import('./EmployeesPage.tsx')).EmployeesPage }) },
  {
    path: 'planilla/historial-cuotas-laborales',
    lazy: async () => ({ Component: (await import('./HistoryPage.tsx')).EmployeeHistoryPage }),
  },
  {
    path: 'planilla/historial-cuotas-patronales',
    lazy: async () => ({ Component: (await import('./HistoryPage.tsx')).EmployerHistoryPage }),
  },
];
