/** The signed-in user's session on the client: who is signed in, signing out, registering, changing one's password. */
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ApiBody, api, setUnauthorizedHandler } from './api.ts';
import { queryClient } from './query.ts';
import { authKeys, profileKeys } from './queryKeys.ts';
import { clearSession, getStoredUser, getToken, storeUser } from './session.ts';
import { SESSION_ENDED_FLAG } from './session-ended.ts';

/** Ends the session on the server (best effort) and forgets it locally. */
export function useLogout() {
  return useMutation({
    mutationFn: () => api.post('/api/auth/logout').catch(() => undefined),
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
      const user = await api.get('/api/auth/me');
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
    mutationFn: (body: ApiBody<'/api/auth/register'>) => api.post('/api/auth/register', { body }),
  });
}

/** Changes the caller's own password; the answer is the refreshed current user (no more "must change"). */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ApiBody<'/api/auth/change-password'>) => api.post('/api/auth/change-password', { body }),
    onSuccess: (user) => {
      storeUser(user);
      queryClient.setQueryData(authKeys.me(), user);
      void queryClient.invalidateQueries({ queryKey: profileKeys.all });
    },
  });
}

/**
 * What a 401 outside sign-in does: the session ended (expired, revoked, account deactivated), so forget
 * it and go to the login page, which says why. Installed once by the providers of every screen past sign-in.
 */
export function endSessionOnUnauthorized() {
  setUnauthorizedHandler(() => {
    clearSession();
    queryClient.clear();
    sessionStorage.setItem(SESSION_ENDED_FLAG, '1');
    window.location.assign('/auth/login');
  });
}
