import type { ChangePasswordInput, CurrentUser, LoginRequest, RegisterInput } from '@aporta/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, setUnauthorizedHandler } from '../../lib/api.ts';
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

/** Self-registration: the account stays inactive until an administrator activates it. */
export function useRegister() {
  return useMutation({
    mutationFn: (body: RegisterInput) =>
      api<{ status: 'success'; message: string }>('/api/auth/register', { method: 'POST', body }),
  });
}

/** Changes the caller's own password; the answer is the refreshed current user (no more "must change"). */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordInput) => api<CurrentUser>('/api/auth/change-password', { method: 'POST', body }),
    onSuccess: (user) => {
      storeUser(user);
      queryClient.setQueryData(meKey, user);
      void queryClient.invalidateQueries({ queryKey: ['profile'] });
    },
  });
}

const EXPIRED_FLAG = 'aporta-session-ended';

// A 401 outside sign-in means the session ended (expired, revoked, account deactivated): forget it and
// go to the login page, which says why.
setUnauthorizedHandler(() => {
  clearSession();
  queryClient.clear();
  sessionStorage.setItem(EXPIRED_FLAG, '1');
  window.location.assign('/auth/login');
});

/** True once after a session ended on its own; the login page shows the message. */
export function takeSessionEndedFlag(): boolean {
  const had = sessionStorage.getItem(EXPIRED_FLAG) === '1';
  sessionStorage.removeItem(EXPIRED_FLAG);
  return had;
}
