import type { RouteObject } from 'react-router';

export const roleRoutes: RouteObject[] = [
  { path: 'roles', lazy: async () => ({ Component: (await import('./RolesPage.tsx')).RolesScreen }) },
  { path: 'roles/:id', lazy: async () => ({ Component: (await import('./RoleEditPage.tsx')).RoleEditScreen }) },
];
