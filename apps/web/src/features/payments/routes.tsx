import type { RouteObject } from 'react-router';

export const paymentRoutes: RouteObject[] = [
  { path: 'ordenes-pago', lazy: async () => ({ Component: (await import('./OrdersPage.tsx')).OrdersPage }) },
  { path: 'ordenes-pago/:id', lazy: async () => ({ Component: (await import('./OrderPage.tsx')).OrderPage }) },
  { path: 'planilla/pagos-planillas', lazy: async () => ({ Component: (await import('./PaymentsPage.tsx')).PaymentsPage }) },
  { path: 'planilla/recibos-7b', lazy: async () => ({ Component: (await import('./ReceiptsPage.tsx')).ReceiptsPage }) },
  { path: 'planilla/rangos-7b', lazy: async () => ({ Component: (await import('./ReceiptsPage.tsx')).RangesPage }) },
  {
    path: 'contributors/voluntary-payments',
    lazy: async () => ({ Component: (await import('./VoluntaryPage.tsx')).VoluntaryPage }),
  },
];
