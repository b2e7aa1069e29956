import type { UserInput, UserRecord } from '@aporta/domain';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api, type RequestOptions } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';

export interface UserOptions {
  roles: { id: number; name: string }[];
  institutions: { id: number; code: string; name: string; isActive: boolean }[];
}

const invalidate = () => queryClient.invalidateQueries({ queryKey: ['users'] });

export function useFindUsers(query: RequestOptions['query']) {
  return useQuery({
    queryKey: ['users', 'list', query],
    queryFn: ({ signal }) => api<{ items: UserRecord[]; total: number }>('/api/users', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useUserOptions() {
  return useQuery({ queryKey: ['users', 'options'], queryFn: () => api<UserOptions>('/api/users/options') });
}

export function useCreateUser() {
  return useMutation({
    mutationFn: (body: UserInput) => api<{ user: UserRecord; password: string }>('/api/users', { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useUpdateUser() {
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UserInput }) => api<UserRecord>(`/api/users/${id}`, { method: 'PUT', body }),
    onSuccess: invalidate,
  });
}

export function useSetUserActive() {
  return useMutation({
    mutationFn: ({ id, isActive }: { id: number; isActive: boolean }) =>
      api<UserRecord>(`/api/users/${id}/${isActive ? 'activate' : 'deactivate'}`, { method: 'POST' }),
    onSuccess: invalidate,
  });
}

export function useResetUserPassword() {
  return useMutation({
    mutationFn: (id: number) => api<{ password: string }>(`/api/users/${id}/reset-password`, { method: 'POST' }),
    onSuccess: invalidate,
  });
}

export function useRevokeUserSessions() {
  return useMutation({
    mutationFn: (id: number) => api<{ revoked: number }>(`/api/users/${id}/revoke-sessions`, { method: 'POST' }),
    onSuccess: invalidate,
  });
}
