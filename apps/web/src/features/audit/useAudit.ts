import type { AuditEntry } from '@aporta/domain';
import type { ListResponse } from '@aporta/domain/list';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { auditKeys } from './keys.ts';

export type AuditParams = Record<string, string | number | undefined>;

export function useFindAudit(base: string, params: AuditParams) {
  return useQuery({
    queryKey: auditKeys.list(base, params),
    queryFn: ({ signal }) => api<ListResponse<AuditEntry>>(base, { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useAuditFacets(base: string) {
  return useQuery({
    queryKey: auditKeys.facets(base),
    queryFn: () => api<{ entityTypes: string[]; actions: string[] }>(`${base}/facets`),
    staleTime: 60_000,
  });
}
