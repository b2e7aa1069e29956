import type { RouteObject } from 'react-router';

/** Workflow (issue 17). The form builder is outside the main layout (router.tsx): standalone and unguarded. */
export const workflowRoutes: RouteObject[] = [
  { path: 'forms', lazy: async () => ({ Component: (await import('./FormsPage.tsx')).FormsPage }) },
  { path: 'flow', lazy: async () => ({ Component: (await import('./FlowsPage.tsx')).FlowsPage }) },
  { path: 'flow/:id', lazy: async () => ({ Component: (await import('./FlowDesignerPage.tsx')).FlowDesignerPage }) },
  { path: 'sig/item', lazy: async () => ({ Component: (await import('./RequestsPage.tsx')).RequestsPage }) },
  { path: 'sig/item/new', lazy: async () => ({ Component: (await import('./NewRequestPage.tsx')).NewRequestPage }) },
  { path: 'sig/item/:id', lazy: async () => ({ Component: (await import('./RequestPage.tsx')).RequestPage }) },
  { path: 'dummy', lazy: async () => ({ Component: (await import('./SigQueryPage.tsx')).SigQueryPage }) },
];
