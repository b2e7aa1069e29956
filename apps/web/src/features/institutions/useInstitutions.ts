import type { InstitutionInput, InstitutionOptions, InstitutionRecord } from '@aporta/domain';
import type { ListResponse } from '@aporta/domain/list';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api, type RequestOptions } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { roleKeys, userKeys } from '../../lib/queryKeys.ts';
import { institutionKeys } from './keys.ts';

const invalidate = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: institutionKeys.all }),
    queryClient.invalidateQueries({ queryKey: userKeys.all }),
    queryClient.invalidateQueries({ queryKey: roleKeys.all }),
  ]);

export function useFindInstitutions(query: RequestOptions['query']) {
  return useQuery({
    queryKey: institutionKeys.list(query),
    queryFn: ({ signal }) => api<ListResponse<InstitutionRecord>>('/api/institutions', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useInstitutionOptions() {
  return useQuery({
    queryKey: institutionKeys.options(),
    queryFn: () => api<InstitutionOptions>('/api/institutions/options'),
  });
}

export function useCreateInstitution() {
  return useMutation({
    mutationFn: (body: InstitutionInput) => api<InstitutionRecord>('/api/institutions', { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useUpdateInstitution() {
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: InstitutionInput }) =>
      api<InstitutionRecord>(`/api/institutions/${id}`, { method: 'PUT', body }),
    onSuccess: invalidate,
  });
}

export function useDeleteInstitution() {
  return useMutation({
    mutationFn: (id: number) => api<void>(`/api/institutions/${id}`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}
