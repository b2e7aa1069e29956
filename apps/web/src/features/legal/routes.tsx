import type { RouteObject } from 'react-router';

export const legalRoutes: RouteObject[] = [
  { path: 'contributors/legal-module', lazy: async () => ({ Component: (await import('./LegalPage.tsx')).LegalPage }) },
  { path: 'contributors/legal-module/:id', lazy: async () => ({ Component: (await import('./CasePage.tsx')).CasePage }) },
];
