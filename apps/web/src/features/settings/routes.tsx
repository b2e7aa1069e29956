import type { RouteObject } from 'react-router';

export const settingsRoutes: RouteObject[] = [
  {
    path: 'administrative/settings',
    lazy: async () => ({ Component: (await import('./SettingsPage.tsx')).SettingsPage }),
  },
];
