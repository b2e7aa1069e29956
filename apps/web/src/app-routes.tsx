import type { RouteObject } from 'react-router';
import { registerModuleExtensions } from './registrations.ts';
import { screens } from './screens.ts';
import { AppProviders } from './shell/AppProviders.tsx';
import { NotFoundPage } from './shell/NotFoundPage.tsx';

registerModuleExtensions();

/**
 * The signed-in part of the route table, loaded on the first navigation past the sign-in page
 * (router.tsx). However many modules `screens.ts` lists, none of them is in the sign-in page's bundle.
 */
export const appRoutes: RouteObject[] = [
  {
    element: <AppProviders />,
    children: [
      {
        lazy: async () => ({ Component: (await import('./shell/MainLayout.tsx')).MainLayout }),
        children: [...screens, { path: '*', element: <NotFoundPage /> }],
      },
    ],
  },
];
