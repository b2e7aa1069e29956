/**
 * The calls of the pages without a session: sign-in and «Olvidé mi contraseña». The login page is the
 * entry bundle's reason to exist, so this file keeps to the API client (no query library); registering
 * and changing one's password are in lib/auth.ts, with the session.
 */
import { type ApiBody, api } from '../../lib/api.ts';

/** Signs in: the session's token and the signed-in user. */
export const login = (body: ApiBody<'/api/auth/login'>) => api.post('/api/auth/login', { body });
/** «Olvidé mi contraseña»: the same answer whether the address has an account or not. */
export const requestPasswordReset = (body: ApiBody<'/api/auth/forgot-password'>) =>
  api.post('/api/auth/forgot-password', { body });
/** Sets a new password with the token of the link received by e-mail; every session of the user ends. */
export const resetPassword = (body: ApiBody<'/api/auth/reset-password'>) => api.post('/api/auth/reset-password', { body });
