import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { recordHistoryKeys } from '../../components/RecordHistory.tsx';
import { type ApiAnswer, type ApiBody, type ApiQuery, api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { userKeys } from './keys.ts';

/** One row of the users list, as GET /api/users answers it. */
export type UserRow = ApiAnswer<'/api/users'>['items'][number];
/** The roles and institutions the current user may see and assign. */
export type UserOptions = ApiAnswer<'/api/users/options'>;
/** What creating or changing a user sends. */
export type UserBody = ApiBody<'/api/users', 'post'>;

const invalidate = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: userKeys.all }),
    queryClient.invalidateQueries({ queryKey: recordHistoryKeys.all }),
  ]);

export function useFindUsers(query: ApiQuery<'/api/users'>) {
  return useQuery({
    queryKey: userKeys.list(query),
    queryFn: ({ signal }) => api.get('/api/users', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useUserOptions() {
  return useQuery({ queryKey: userKeys.options(), queryFn: () => api.get('/api/users/options') });
}

export function useCreateUser() {
  return useMutation({
    mutationFn: (body: UserBody) => api.post('/api/users', { body }),
    onSuccess: invalidate,
  });
}

export function useUpdateUser() {
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ApiBody<'/api/users/{id}', 'put'> }) =>
      api.put('/api/users/{id}', { path: { id }, body }),
    onSuccess: invalidate,
  });
}

export function useSetUserActive() {
  return useMutation({
    mutationFn: ({ id, isActive }: { id: number; isActive: boolean }) =>
      isActive
        ? api.post('/api/users/{id}/activate', { path: { id } })
        : api.post('/api/users/{id}/deactivate', { path: { id } }),
    onSuccess: invalidate,
  });
}

export function useResetUserPassword() {
  return useMutation({
    mutationFn: (id: number) => api.post('/api/users/{id}/reset-password', { path: { id } }),
    onSuccess: invalidate,
  });
}

export function useRevokeUserSessions() {
  return useMutation({
    mutationFn: (id: number) => api.post('/api/users/{id}/revoke-sessions', { path: { id } }),
    onSuccess: invalidate,
  });
}
