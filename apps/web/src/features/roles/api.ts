import { keepPreviousData, skipToken, useMutation, useQuery } from '@tanstack/react-query';
import { type ApiAnswer, type ApiBody, type ApiQuery, api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { userKeys } from '../../lib/queryKeys.ts';
import { roleKeys } from './keys.ts';

/** One row of the roles list, as GET /api/roles answers it. */
export type RoleRow = ApiAnswer<'/api/roles'>['items'][number];

const invalidate = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: roleKeys.all }),
    queryClient.invalidateQueries({ queryKey: userKeys.all }),
  ]);

export function useFindRoles(query: ApiQuery<'/api/roles'>) {
  return useQuery({
    queryKey: roleKeys.list(query),
    queryFn: ({ signal }) => api.get('/api/roles', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useGetRole(id: number | null) {
  return useQuery({
    queryKey: roleKeys.one(id),
    queryFn: id === null ? skipToken : () => api.get('/api/roles/{id}', { path: { id } }),
  });
}

export function useCreateRole() {
  return useMutation({
    mutationFn: (body: ApiBody<'/api/roles', 'post'>) => api.post('/api/roles', { body }),
    onSuccess: invalidate,
  });
}

export function useUpdateRole() {
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ApiBody<'/api/roles/{id}', 'put'> }) =>
      api.put('/api/roles/{id}', { path: { id }, body }),
    onSuccess: invalidate,
  });
}

export function useDeleteRole() {
  return useMutation({ mutationFn: (id: number) => api.delete('/api/roles/{id}', { path: { id } }), onSuccess: invalidate });
}
