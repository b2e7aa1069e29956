import { createBrowserRouter, Outlet } from 'react-router';
import { LoginPage } from './features/auth/LoginPage.tsx';
import { authRoutes } from './features/auth/routes.tsx';
import { screens } from './screens.ts';
import { AuthLayout } from './shell/AuthLayout.tsx';
import { NotFoundPage } from './shell/NotFoundPage.tsx';
import { RequireAuth } from './shell/RequireAuth.tsx';

/**
 * The sign-in page is in the entry bundle; the main layout (menu, topbar, palette, settings) and every
 * screen load on demand, so the login page stays small (bench/login-bundle.mjs).
 */
export const router = createBrowserRouter([
  { path: '/auth', element: <AuthLayout />, children: [{ path: 'login', element: <LoginPage /> }, ...authRoutes] },
  {
    path: '/',
    element: (
      <RequireAuth>
        <Outlet />
      </RequireAuth>
    ),
    children: [
      {
        lazy: async () => ({ Component: (await import('./shell/MainLayout.tsx')).MainLayout }),
        children: [...screens, { path: '*', element: <NotFoundPage /> }],
      },
    ],
  },
]);
