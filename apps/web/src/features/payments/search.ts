import { formatPaymentReference, formatPeriod } from '@aporta/domain';
import { formatMoneyDecimal, ltr } from '../../lib/format.ts';
import { PALETTE_LIMIT, rankResults, type SearchProvider } from '../../lib/searchProviders.ts';
import { downloadReceiptPdf, findOrdersForPalette, findReceiptsForPalette, getPaymentForPalette } from './api.ts';

// The command palette finds payment orders by reference (typed grouped or not: "1234 5678", "12345678")
// or by entity or person, and 7-B receipts by number ("123", "A-123", "A 000123") or series. The
// server's lists apply the user's scope; users without the permission get a 403, which is left out.

export const orderSearch: SearchProvider = {
  id: 'payment-orders',
  group: 'payments.paletteOrders',
  minLength: 3,
  async search(q, { signal }) {
    const { items } = await findOrdersForPalette(q, signal);
    return rankResults(items, q, (o) => [o.reference, o.entityName, o.contributorName], PALETTE_LIMIT).map((o) => ({
      id: `order-${o.id}`,
      label: ltr(formatPaymentReference(o.reference)),
      description: [o.entityName ?? o.contributorName, formatPeriod(o.period), formatMoneyDecimal(o.balance)]
        .filter(Boolean)
        .join(' · '),
      link: `/ordenes-pago/${o.id}`,
    }));
  },
};

/** A receipt query: the number (digits, leading zeros allowed) and, when typed before it, the series. */
export function parseReceiptQuery(q: string): { series?: string; number?: number; text: string } {
  const m = /^([A-Za-z0-9]*?[A-Za-z][A-Za-z0-9]*)?[\s#-]*0*(\d{1,9})$/.exec(q.trim());
  if (m) return { series: m[1]?.toUpperCase(), number: Number(m[2]), text: m[2].replace(/^0+(?=\d)/, '') };
  return { text: q.trim() };
}

export const receiptSearch: SearchProvider = {
  id: 'receipts-7b',
  group: 'payments.paletteReceipts',
  minLength: 1,
  async search(q, { signal }) {
    const parsed = parseReceiptQuery(q);
    // A series alone must be one word (the server compares it whole); anything else finds nothing.
    if (parsed.number === undefined && !/^[A-Za-z0-9-]{1,20}$/.test(parsed.text)) return [];
    const { items } = await findReceiptsForPalette(parsed.number === undefined ? parsed.text : String(parsed.number), signal);
    const found = items.filter((r) => !parsed.series || r.series.toUpperCase() === parsed.series).slice(0, PALETTE_LIMIT);
    // A receipt opens the order it paid (its payment's first allocation); without one, its PDF.
    const orders = await Promise.all(
      found.map((r) =>
        getPaymentForPalette(r.paymentId, signal)
          .then((p) => p.allocations[0]?.orderId ?? null)
          .catch(() => null),
      ),
    );
    return found.map((r, i) => {
      const orderId = orders[i];
      return {
        id: `receipt-${r.id}`,
        label: ltr(`7-B ${r.series}-${r.number}`),
        description: [r.entityName ?? r.contributorName, formatMoneyDecimal(r.amount)].filter(Boolean).join(' · '),
        ...(orderId
          ? { link: `/ordenes-pago/${orderId}` }
          : { onSelect: () => void downloadReceiptPdf(r.id).catch(() => undefined) }),
      };
    });
  },
};
