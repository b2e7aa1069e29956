import type { RouteObject } from 'react-router';

/** «Tokens de integración» (holders of `api-tokens`: the menu's guard). */
export const apiTokenRoutes: RouteObject[] = [
  {
    path: 'administrative/tokens-integracion',
    lazy: async () => ({ Component: (await import('./ApiTokensPage.tsx')).ApiTokensPage }),
  },
];
