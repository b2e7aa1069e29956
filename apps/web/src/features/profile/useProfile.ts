import type { Profile, ProfileUpdate, RevokedSessions, SessionInfo } from '@aporta/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { authKeys, profileKeys } from '../../lib/queryKeys.ts';
import { storeUser } from '../../lib/session.ts';

export function useGetProfile() {
  return useQuery({ queryKey: profileKeys.all, queryFn: () => api<Profile>('/api/profile') });
}

export function useUpdateProfile() {
  return useMutation({
    mutationFn: (body: ProfileUpdate) => api<Profile>('/api/profile', { method: 'PUT', body }),
    onSuccess: ({ roles: _r, lastLoginAt: _l, createdAt: _c, ...user }) => {
      storeUser(user);
      queryClient.setQueryData(authKeys.me(), user);
      void queryClient.invalidateQueries({ queryKey: profileKeys.all });
    },
  });
}

export function useFindOwnSessions() {
  return useQuery({ queryKey: profileKeys.sessions(), queryFn: () => api<SessionInfo[]>('/api/profile/sessions') });
}

const refreshSessions = () => queryClient.invalidateQueries({ queryKey: profileKeys.sessions() });

export function useRevokeOwnSession() {
  return useMutation({
    mutationFn: (id: number) => api<void>(`/api/profile/sessions/${id}`, { method: 'DELETE' }),
    onSuccess: refreshSessions,
  });
}

export function useRevokeOtherSessions() {
  return useMutation({
    mutationFn: () => api<RevokedSessions>('/api/profile/sessions/revoke-others', { method: 'POST' }),
    onSuccess: refreshSessions,
  });
}
