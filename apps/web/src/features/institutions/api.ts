import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type ApiAnswer, type ApiBody, type ApiQuery, api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { roleKeys, userKeys } from '../../lib/queryKeys.ts';
import { institutionKeys } from './keys.ts';

/** One row of the institutions list, as GET /api/institutions answers it. */
export type InstitutionRow = ApiAnswer<'/api/institutions'>['items'][number];
/** What creating or changing an institution sends. */
export type InstitutionBody = ApiBody<'/api/institutions', 'post'>;

const invalidate = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: institutionKeys.all }),
    queryClient.invalidateQueries({ queryKey: userKeys.all }),
    queryClient.invalidateQueries({ queryKey: roleKeys.all }),
  ]);

export function useFindInstitutions(query: ApiQuery<'/api/institutions'>) {
  return useQuery({
    queryKey: institutionKeys.list(query),
    queryFn: ({ signal }) => api.get('/api/institutions', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useInstitutionOptions() {
  return useQuery({
    queryKey: institutionKeys.options(),
    queryFn: () => api.get('/api/institutions/options'),
  });
}

export function useCreateInstitution() {
  return useMutation({
    mutationFn: (body: InstitutionBody) => api.post('/api/institutions', { body }),
    onSuccess: invalidate,
  });
}

export function useUpdateInstitution() {
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ApiBody<'/api/institutions/{id}', 'put'> }) =>
      api.put('/api/institutions/{id}', { path: { id }, body }),
    onSuccess: invalidate,
  });
}

export function useDeleteInstitution() {
  return useMutation({
    mutationFn: (id: number) => api.delete('/api/institutions/{id}', { path: { id } }),
    onSuccess: invalidate,
  });
}
