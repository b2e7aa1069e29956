import { displayCui } from '../../lib/format.ts';
import type { SearchProvider } from '../../lib/searchProviders.ts';
import { searchContributors } from './api.ts';

// The command palette finds a contributor by CUI (exact or prefix) or by name; users without the
// permission get a 403, which the palette leaves out.
export const contributorSearch: SearchProvider = {
  id: 'contributors',
  group: 'contributors.paletteGroup',
  minLength: 3,
  async search(q, { signal }) {
    const hits = await searchContributors(q, signal);
    return hits.map((c) => ({
      id: `contributor-${c.id}`,
      label: c.fullName,
      description: [displayCui(c.cui), c.entityName].filter(Boolean).join(' · '),
      link: `/contributors/${c.id}`,
    }));
  },
};
