import { api } from '../../lib/api.ts';

/** Checks a printed verification code (public: no session). Machines call the same route. */
export const verifyDocument = (code: string) => api.get('/api/documents/verify/{code}', { path: { code: code.trim() } });
