import { createBrowserRouter } from 'react-router';
import { LoginPage } from './features/auth/LoginPage.tsx';
import { authRoutes } from './features/auth/routes.tsx';
import { screens } from './screens.ts';
import { AuthLayout } from './shell/AuthLayout.tsx';
import { MainLayout } from './shell/MainLayout.tsx';
import { NotFoundPage } from './shell/NotFoundPage.tsx';
import { RequireAuth } from './shell/RequireAuth.tsx';

export const router = createBrowserRouter([
  { path: '/auth', element: <AuthLayout />, children: [{ path: 'login', element: <LoginPage /> }, ...authRoutes] },
  {
    path: '/',
    element: (
      <RequireAuth>
        <MainLayout />
      </RequireAuth>
    ),
    children: [...screens, { path: '*', element: <NotFoundPage /> }],
  },
]);
