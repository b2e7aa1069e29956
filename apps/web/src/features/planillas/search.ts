import { formatPeriod, planillaMachine } from '@aporta/domain';
import type { SearchProvider } from '../../lib/searchProviders.ts';
import { findPlanillasForPalette } from './api.ts';

// The command palette finds a planilla by entity and period ("mixco 09/2026", "MUNI-0108 2026-09");
// users without planillas READ get a 403, which the palette leaves out.
export const planillaSearch: SearchProvider = {
  id: 'planillas',
  group: 'planillas.paletteGroup',
  minLength: 3,
  async search(q, { signal }) {
    const hits = await findPlanillasForPalette(q, signal);
    return hits.items.map((p) => ({
      id: `planilla-${p.id}`,
      label: `${p.entityName} · ${formatPeriod(p.period)}`,
      description: planillaMachine.stateLabels[p.state],
      link: `/planilla/vista/${p.id}`,
    }));
  },
};
