import { useMutation, useQuery } from '@tanstack/react-query';
import { type ApiBody, api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { authKeys } from '../../lib/queryKeys.ts';
import { storeUser } from '../../lib/session.ts';
import { profileKeys } from './keys.ts';

export function useGetProfile() {
  return useQuery({ queryKey: profileKeys.all, queryFn: () => api.get('/api/profile') });
}

export function useUpdateProfile() {
  return useMutation({
    mutationFn: (body: ApiBody<'/api/profile', 'put'>) => api.put('/api/profile', { body }),
    onSuccess: ({ roles: _r, lastLoginAt: _l, createdAt: _c, ...user }) => {
      storeUser(user);
      queryClient.setQueryData(authKeys.me(), user);
      void queryClient.invalidateQueries({ queryKey: profileKeys.all });
    },
  });
}

export function useFindOwnSessions() {
  return useQuery({ queryKey: profileKeys.sessions(), queryFn: () => api.get('/api/profile/sessions') });
}

const refreshSessions = () => queryClient.invalidateQueries({ queryKey: profileKeys.sessions() });

export function useRevokeOwnSession() {
  return useMutation({
    mutationFn: (id: number) => api.delete('/api/profile/sessions/{id}', { path: { id } }),
    onSuccess: refreshSessions,
  });
}

export function useRevokeOtherSessions() {
  return useMutation({
    mutationFn: () => api.post('/api/profile/sessions/revoke-others'),
    onSuccess: refreshSessions,
  });
}
