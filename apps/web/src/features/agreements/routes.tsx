import type { RouteObject } from 'react-router';

export const agreementRoutes: RouteObject[] = [
  { path: 'planilla/convenios-pago', lazy: async () => ({ Component: (await import('./AgreementsPage.tsx')).AgreementsPage }) },
  {
    path: 'planilla/convenios-pago/nuevo',
    lazy: async () => ({ Component: (await import('./NewAgreementPage.tsx')).NewAgreementPage }),
  },
  { path: 'planilla/convenios-pago/:id', lazy: async () => ({ Component: (await import('./AgreementPage.tsx')).AgreementPage }) },
];
