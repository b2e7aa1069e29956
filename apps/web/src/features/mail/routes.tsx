import type { RouteObject } from 'react-router';

/**
 * «Correo saliente» (holders of `mail`: the menu's guard) with its message pages, and one's own mail
 * preferences (every signed-in user: the API routes are "authenticated").
 */
export const mailRoutes: RouteObject[] = [
  {
    path: 'administrative/correo-saliente',
    lazy: async () => ({ Component: (await import('./MailOutboxPage.tsx')).MailOutboxPage }),
  },
  {
    path: 'administrative/correo-saliente/:id',
    lazy: async () => ({ Component: (await import('./MailMessagePage.tsx')).MailMessagePage }),
  },
  { path: 'profile/correo', lazy: async () => ({ Component: (await import('./MailPreferencesPage.tsx')).MailPreferencesPage }) },
];
