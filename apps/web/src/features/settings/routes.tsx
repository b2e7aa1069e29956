import type { RouteObject } from 'react-router';

export const settingsRoutes: RouteObject[] = [
  {
    path: 'administrative/settings',
    lazy: async () => ({ Component: (await import('./SettingsPage.tsx')).SettingsPage }),
  },
  // Planillas → Cuotas: this screen for the contributions topic only.
  { path: 'planilla/cuotas', lazy: async () => ({ Component: (await import('./RatesPage.tsx')).RatesPage }) },
];
