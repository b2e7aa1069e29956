import type { ChangePasswordInput, CurrentUser, RegisterInput, RegisterResponse } from '@aporta/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, setUnauthorizedHandler } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { clearSession, getStoredUser, getToken, storeUser } from '../../lib/session.ts';
import { profileKeys } from '../profile/keys.ts';
import { authKeys } from './keys.ts';
import { SESSION_ENDED_FLAG } from './session-ended.ts';

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
    queryKey: authKeys.me(),
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
    mutationFn: (body: RegisterInput) => api<RegisterResponse>('/api/auth/register', { method: 'POST', body }),
  });
}

/** Changes the caller's own password; the answer is the refreshed current user (no more "must change"). */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordInput) => api<CurrentUser>('/api/auth/change-password', { method: 'POST', body }),
    onSuccess: (user) => {
      storeUser(user);
      queryClient.setQueryData(authKeys.me(), user);
      void queryClient.invalidateQueries({ queryKey: profileKeys.all });
    },
  });
}

// A 401 outside sign-in means the session ended (expired, revoked, account deactivated): forget it and
// go to the login page, which says why.
setUnauthorizedHandler(() => {
  clearSession();
  queryClient.clear();
  sessionStorage.setItem(SESSION_ENDED_FLAG, '1');
  window.location.assign('/auth/login');
});
