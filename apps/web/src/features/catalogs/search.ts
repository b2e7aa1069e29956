import { PALETTE_LIMIT, rankResults, type SearchProvider } from '../../lib/searchProviders.ts';
import { findEntitiesForPalette } from './api.ts';

// The command palette finds a municipal entity by name, code or NIT ("mixco", "MUNI-0108"), within
// the user's scope (the server's list); users without the catalogue's READ get a 403, left out.
export const entitySearch: SearchProvider = {
  id: 'municipal-entities',
  group: 'catalogs.paletteEntities',
  minLength: 2,
  async search(q, { signal }) {
    const { items } = await findEntitiesForPalette(q, signal);
    return rankResults(items, q, (e) => [e.name, e.code, e.nit], PALETTE_LIMIT).map((e) => ({
      id: `entity-${e.id}`,
      label: e.name ?? e.label,
      description: [e.code, e.nit].filter(Boolean).join(' · ') || undefined,
      link: `/administrative/municipal-entities/${e.id}`,
    }));
  },
};
