import type { CreatedUser, OneTimePassword, RevokedSessions, UserInput, UserOptions, UserRecord } from '@aporta/domain';
import type { ListResponse } from '@aporta/domain/list';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { recordHistoryKeys } from '../../components/RecordHistory.tsx';
import { api, type RequestOptions } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { userKeys } from '../../lib/queryKeys.ts';

const invalidate = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: userKeys.all }),
    queryClient.invalidateQueries({ queryKey: recordHistoryKeys.all }),
  ]);

export function useFindUsers(query: RequestOptions['query']) {
  return useQuery({
    queryKey: userKeys.list(query),
    queryFn: ({ signal }) => api<ListResponse<UserRecord>>('/api/users', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/**
 * True when the current user may act on `u` at all: every role and institution it holds is one they may
 * assign (a super-administrator account or a stronger one is not), the same rule the server applies.
 */
export function isManageable(u: UserRecord, options: UserOptions | undefined): boolean {
  if (!options) return false;
  const roles = new Set(options.roles.filter((r) => r.assignable).map((r) => r.id));
  const insts = new Set(options.institutions.filter((i) => i.assignable).map((i) => i.id));
  return u.roles.every((r) => roles.has(r.id)) && u.institutions.every((i) => insts.has(i.id));
}

export function useUserOptions() {
  return useQuery({ queryKey: userKeys.options(), queryFn: () => api<UserOptions>('/api/users/options') });
}

export function useCreateUser() {
  return useMutation({
    mutationFn: (body: UserInput) => api<CreatedUser>('/api/users', { method: 'POST', body }),
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
    mutationFn: (id: number) => api<OneTimePassword>(`/api/users/${id}/reset-password`, { method: 'POST' }),
    onSuccess: invalidate,
  });
}

export function useRevokeUserSessions() {
  return useMutation({
    mutationFn: (id: number) => api<RevokedSessions>(`/api/users/${id}/revoke-sessions`, { method: 'POST' }),
    onSuccess: invalidate,
  });
}
