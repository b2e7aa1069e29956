import { createBrowserRouter, Navigate, Outlet } from 'react-router';
import { LoginPage } from './features/auth/LoginPage.tsx';
import { authRoutes, resetPasswordRoutes } from './features/auth/routes.tsx';
import { getToken } from './lib/session.ts';
import { AuthLayout } from './shell/AuthLayout.tsx';
import { RequireAuth } from './shell/RequireAuth.tsx';
import { RouteError } from './shell/RouteError.tsx';

/** The route every signed-in screen hangs from; its children are discovered on the first navigation. */
const APP_ROUTE_ID = 'app';
let appDiscovered = false;

/**
 * Only the sign-in page is in the entry bundle. The rest of the route table (every module's screens,
 * the main layout and what it needs) is added on the first navigation past sign-in
 * (`patchRoutesOnNavigation`), so the sign-in page's JavaScript does not grow with the modules
 * (bench/login-bundle.mjs: 150 KB gzip). Without a session nothing is discovered: the catch-all below
 * sends the visitor to the sign-in page without downloading the application.
 */
export const router = createBrowserRouter(
  [
    {
      path: '/auth',
      element: <AuthLayout />,
      errorElement: <RouteError />,
      children: [
        { path: 'login', element: <LoginPage /> },
        // Registration and the password change use the query cache: its providers load with them.
        {
          lazy: async () => ({ Component: (await import('./shell/AppProviders.tsx')).AppProviders }),
          children: authRoutes,
        },
      ],
    },
    // The link of a «Olvidé mi contraseña» e-mail (issue 29): open without a session, in the sign-in layout;
    // the page and the providers it needs load with it.
    {
      path: '/restablecer-contrasena',
      element: <AuthLayout />,
      errorElement: <RouteError />,
      children: [
        {
          lazy: async () => ({ Component: (await import('./shell/AppProviders.tsx')).AppProviders }),
          children: resetPasswordRoutes,
        },
      ],
    },
    // The form builder (issue 17): standalone and open without a session, as the specification says; its
    // code and the providers it needs load with it, never with the sign-in page.
    {
      path: '/form-builder',
      errorElement: <RouteError />,
      lazy: async () => ({ Component: (await import('./shell/AppProviders.tsx')).AppProviders }),
      children: [
        {
          index: true,
          lazy: async () => ({ Component: (await import('./features/workflow/FormBuilderPage.tsx')).FormBuilderPage }),
        },
      ],
    },
    // The public check of a solvency certificate (issue 14): open without a session, as a certificate's
    // holder (a bank, a supplier) is no user; only what the certificate prints is told.
    {
      path: '/verificar-constancia',
      errorElement: <RouteError />,
      lazy: async () => ({ Component: (await import('./shell/AppProviders.tsx')).AppProviders }),
      children: [
        {
          index: true,
          lazy: async () => ({ Component: (await import('./features/financial/VerifyPage.tsx')).VerifyPage }),
        },
      ],
    },
    // The public check of any PDF Aporta generated (issue 28): what the QR in each PDF's corner opens.
    // Open without a session; with ?codigo=… it verifies on arrival, branded with the institution.
    {
      path: '/verificar',
      errorElement: <RouteError />,
      lazy: async () => ({ Component: (await import('./shell/AppProviders.tsx')).AppProviders }),
      children: [
        {
          index: true,
          lazy: async () => ({
            Component: (await import('./features/documents/VerifyDocumentPage.tsx')).VerifyDocumentPage,
          }),
        },
      ],
    },
    {
      id: APP_ROUTE_ID,
      errorElement: <RouteError />,
      element: (
        <RequireAuth>
          <Outlet />
        </RequireAuth>
      ),
      children: [],
    },
    // Matches only while the application's routes are undiscovered (no session): to sign-in.
    { path: '*', element: <Navigate to="/auth/login" replace /> },
  ],
  {
    async patchRoutesOnNavigation({ patch }) {
      if (appDiscovered || !getToken()) return;
      const { appRoutes } = await import('./app-routes.tsx');
      if (appDiscovered) return;
      patch(APP_ROUTE_ID, appRoutes);
      appDiscovered = true;
    },
  },
);
