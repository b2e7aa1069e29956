import type { RouteObject } from 'react-router';

export const auditRoutes: RouteObject[] = [
  {
    path: 'audit',
    lazy: async () => {
      const { AuditPage } = await import('./AuditPage.tsx');
      return { element: <AuditPage variant="general" /> };
    },
  },
  {
    path: 'administrative/planilla-audit-logs',
    lazy: async () => {
      const { AuditPage } = await import('./AuditPage.tsx');
      return { element: <AuditPage variant="planillas" /> };
    },
  },
];
