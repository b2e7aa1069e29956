import type { RouteObject } from 'react-router';

/** Own profile: any signed-in user (the API routes are "authenticated", not permission-bound). */
export const profileRoutes: RouteObject[] = [
  { path: 'profile', lazy: async () => ({ Component: (await import('./ProfilePage.tsx')).ProfilePage }) },
];
