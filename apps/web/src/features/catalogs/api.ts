import { api } from '../../lib/api.ts';

/** The command palette: municipal entities by name, code or NIT (within the user's scope). */
export const findEntitiesForPalette = (q: string, signal: AbortSignal) =>
  api.get('/api/collections/municipal-entities', { query: { q, pageSize: 8 }, signal });
