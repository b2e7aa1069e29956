import type { CurrentUser, LoginRequest } from '@aporta/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { clearSession, getStoredUser, getToken, storeSession, storeUser } from '../../lib/session.ts';

interface LoginResponse {
  status: 'success';
  data: CurrentUser;
  token: string;
}

export const meKey = ['auth', 'me'] as const;

export function useLogin() {
  return useMutation({
    mutationFn: (body: LoginRequest) => api<LoginResponse>('/api/auth/login', { method: 'POST', body }),
    onSuccess: (res) => {
      storeSession(res.token, res.data);
      queryClient.setQueryData(meKey, res.data);
    },
  });
}

/** Ends the session on the server (best effort) and forgets it locally. */
export function useLogout() {
  return useMutation({
    mutationFn: () => api<void>('/api/auth/logout', { method: 'POST' }).catch(() => undefined),
    onSettled: () => {
      clearSession();
      queryClient.clear();
    },
  });
}

/** The signed-in user: the stored copy for the first paint, refreshed from the server. */
export function useCurrentUser() {
  return useQuery({
    queryKey: meKey,
    queryFn: async () => {
      const user = await api<CurrentUser>('/api/auth/me');
      storeUser(user);
      return user;
    },
    initialData: getStoredUser() ?? undefined,
    initialDataUpdatedAt: 0,
    enabled: !!getToken(),
  });
}
