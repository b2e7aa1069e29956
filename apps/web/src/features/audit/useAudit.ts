import type { AuditEntry, AuditFacets } from '@aporta/domain';
import type { ListResponse } from '@aporta/domain/list';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type RequestOptions } from '../../lib/api.ts';
import { auditKeys } from './keys.ts';

export function useFindAudit(base: string, params: RequestOptions['query']) {
  return useQuery({
    queryKey: auditKeys.list(base, params),
    queryFn: ({ signal }) => api<ListResponse<AuditEntry>>(base, { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useAuditFacets(base: string) {
  return useQuery({
    queryKey: auditKeys.facets(base),
    queryFn: () => api<AuditFacets>(`${base}/facets`),
    staleTime: 60_000,
  });
}
