import type { RoleInput, RoleRecord } from '@aporta/domain';
import type { ListResponse } from '@aporta/domain/list';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api, type RequestOptions } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { roleKeys, userKeys } from '../../lib/queryKeys.ts';

const invalidate = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: roleKeys.all }),
    queryClient.invalidateQueries({ queryKey: userKeys.all }),
  ]);

export function useFindRoles(query: RequestOptions['query']) {
  return useQuery({
    queryKey: roleKeys.list(query),
    queryFn: ({ signal }) => api<ListResponse<RoleRecord>>('/api/roles', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useGetRole(id: number | null) {
  return useQuery({ queryKey: roleKeys.one(id), queryFn: () => api<RoleRecord>(`/api/roles/${id}`), enabled: id !== null });
}

export function useCreateRole() {
  return useMutation({
    mutationFn: (body: RoleInput) => api<RoleRecord>('/api/roles', { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useUpdateRole() {
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: RoleInput }) => api<RoleRecord>(`/api/roles/${id}`, { method: 'PUT', body }),
    onSuccess: invalidate,
  });
}

export function useDeleteRole() {
  return useMutation({ mutationFn: (id: number) => api<void>(`/api/roles/${id}`, { method: 'DELETE' }), onSuccess: invalidate });
}
