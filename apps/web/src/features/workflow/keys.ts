/** Query keys of the workflow module (forms, flows, requests, Consulta SIG). */
export const workflowKeys = {
  all: ['workflow'] as const,
  forms: (query: unknown) => [...workflowKeys.all, 'forms', query] as const,
  form: (id: number) => [...workflowKeys.all, 'form', id] as const,
  flows: (query: unknown) => [...workflowKeys.all, 'flows', query] as const,
  flow: (id: number) => [...workflowKeys.all, 'flow', id] as const,
  flowOptions: () => [...workflowKeys.all, 'flow-options'] as const,
  requests: (path: string, query: unknown) => [...workflowKeys.all, 'requests', path, query] as const,
  request: (id: number) => [...workflowKeys.all, 'request', id] as const,
  options: () => [...workflowKeys.all, 'options'] as const,
  queryFlows: () => [...workflowKeys.all, 'query-flows'] as const,
  counts: (query: unknown) => [...workflowKeys.all, 'counts', query] as const,
  catalog: (name: string) => [...workflowKeys.all, 'catalog', name] as const,
};
