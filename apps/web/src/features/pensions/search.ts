import { displayCui } from '../../lib/format.ts';
import { PALETTE_LIMIT, rankResults, type SearchProvider } from '../../lib/searchProviders.ts';
import { findPensionsForPalette } from './api.ts';

// The command palette finds a pension by the pensioner's name, CUI (grouped or not) or resolution
// number, within the user's scope (the server's list); without the permission a 403, left out.
export const pensionSearch: SearchProvider = {
  id: 'pensions',
  group: 'pensions.paletteGroup',
  minLength: 3,
  async search(q, { signal }) {
    const { items } = await findPensionsForPalette(q, signal);
    return rankResults(items, q, (p) => [p.fullName, p.cui, p.resolutionNumber], PALETTE_LIMIT).map((p) => ({
      id: `pension-${p.id}`,
      label: p.fullName,
      description: [displayCui(p.cui), p.resolutionNumber].filter(Boolean).join(' · '),
      link: `/contributors/passive-classes/${p.id}`,
    }));
  },
};
