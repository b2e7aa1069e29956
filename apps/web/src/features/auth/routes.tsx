import type { RouteObject } from 'react-router';

/** Screens of the sign-in layout besides the login page itself. */
export const authRoutes: RouteObject[] = [
  { path: 'register', lazy: async () => ({ Component: (await import('./RegisterPage.tsx')).RegisterPage }) },
  {
    path: 'forgot-password',
    lazy: async () => ({ Component: (await import('./ForgotPasswordPage.tsx')).ForgotPasswordPage }),
  },
  { path: 'change-password', lazy: async () => ({ Component: (await import('./ChangePasswordPage.tsx')).ChangePasswordPage }) },
];

/** What the link of a «Olvidé mi contraseña» e-mail opens (/restablecer-contrasena?token=…), in the sign-in layout. */
export const resetPasswordRoutes: RouteObject[] = [
  { index: true, lazy: async () => ({ Component: (await import('./ResetPasswordPage.tsx')).ResetPasswordPage }) },
];
