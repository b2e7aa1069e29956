/**
 * The sign-in call. The login page is the entry bundle's reason to exist, so this file keeps to the API
 * client (no query library); registering and changing one's password are in lib/auth.ts, with the session.
 */
import { type ApiBody, api } from '../../lib/api.ts';

/** Signs in: the session's token and the signed-in user. */
export const login = (body: ApiBody<'/api/auth/login'>) => api.post('/api/auth/login', { body });
