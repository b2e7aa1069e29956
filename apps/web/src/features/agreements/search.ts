import { formatDate, formatMoneyDecimal, ltr } from '../../lib/format.ts';
import { PALETTE_LIMIT, rankResults, type SearchProvider } from '../../lib/searchProviders.ts';
import { findAgreementsForPalette } from './api.ts';

// The command palette finds a payment agreement by number or entity, within the user's scope (the
// server's list); users without the permission get a 403, which the palette leaves out.
export const agreementSearch: SearchProvider = {
  id: 'payment-agreements',
  group: 'agreements.paletteGroup',
  minLength: 2,
  async search(q, { signal }) {
    const { items } = await findAgreementsForPalette(q, signal);
    return rankResults(items, q, (a) => [a.number, a.entityName, a.entityCode], PALETTE_LIMIT).map((a) => ({
      id: `agreement-${a.id}`,
      label: `${ltr(a.number)} · ${a.entityName}`,
      description: [formatDate(a.agreementDate), formatMoneyDecimal(a.debt)].join(' · '),
      link: `/planilla/convenios-pago/${a.id}`,
    }));
  },
};
