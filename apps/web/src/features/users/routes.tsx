import type { RouteObject } from 'react-router';

export const userRoutes: RouteObject[] = [
  { path: 'users', lazy: async () => ({ Component: (await import('./UsersPage.tsx')).UsersScreen }) },
];
