import type { RouteObject } from 'react-router';

/** «Webhooks» (holders of `webhooks`: the menu's guard): endpoints and their delivery log. */
export const webhookRoutes: RouteObject[] = [
  {
    path: 'administrative/webhooks',
    lazy: async () => ({ Component: (await import('./WebhooksPage.tsx')).WebhooksPage }),
  },
];
