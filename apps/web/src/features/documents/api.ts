import { api } from '../../lib/api.ts';

/** Checks a printed verification code (public: no session). Machines call the same route. */
export const verifyDocument = (code: string) => api.get('/api/documents/verify/{code}', { path: { code: code.trim() } });

/** The installation's public name and acronym (what the shell shows as its brand), for the public page. */
export const publicAppInfo = () => api.get('/api/app-info');
