import type { RouteObject } from 'react-router';

/** Screens of the sign-in layout besides the login page itself. */
export const authRoutes: RouteObject[] = [
  { path: 'register', lazy: async () => ({ Component: (await import('./RegisterPage.tsx')).RegisterPage }) },
  { path: 'change-password', lazy: async () => ({ Component: (await import('./ChangePasswordPage.tsx')).ChangePasswordPage }) },
];
