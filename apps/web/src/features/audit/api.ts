import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api, type QueryRecord } from '../../lib/api.ts';
import { auditKeys } from './keys.ts';

/** The routes of the two audit views: the general trail and the planillas'. */
export const auditViews = {
  general: { list: '/api/audit', facets: '/api/audit/facets', export: '/api/audit/export' },
  planillas: { list: '/api/audit/planillas', facets: '/api/audit/planillas/facets', export: '/api/audit/planillas/export' },
} as const;
export type AuditView = keyof typeof auditViews;

/** One view's entries with the list's filters (user, entity type, record, action, dates). */
export function useFindAudit(view: AuditView, params: QueryRecord) {
  const base = auditViews[view].list;
  return useQuery({
    queryKey: auditKeys.list(base, params),
    queryFn: ({ signal }) => api.get(base, { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The entity types and actions one view's filters offer. */
export function useAuditFacets(view: AuditView) {
  const { list, facets } = auditViews[view];
  return useQuery({
    queryKey: auditKeys.facets(list),
    queryFn: () => api.get(facets),
    staleTime: 60_000,
  });
}

/** Verifies the audit log's hash chain on demand (the server seals what waits first; it reads the whole log). */
export function useVerifyAuditChain() {
  return useMutation({ mutationFn: () => api.get('/api/audit/verify') });
}
