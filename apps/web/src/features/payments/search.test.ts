import { beforeEach, describe, expect, it, vi } from 'vitest';

const api = vi.hoisted(() => ({
  findOrdersForPalette: vi.fn(),
  findReceiptsForPalette: vi.fn(),
  getPaymentForPalette: vi.fn(),
  downloadReceiptPdf: vi.fn(),
}));
vi.mock('./api.ts', () => api);

const { orderSearch, parseReceiptQuery, receiptSearch } = await import('./search.ts');
const signal = new AbortController().signal;

const order = (id: number, reference: string, entityName: string) => ({
  id,
  reference,
  entityName,
  contributorName: null,
  period: '2026-10',
  balance: '17336.58',
});
const receipt = (id: number, series: string, number: number, paymentId: number) => ({
  id,
  series,
  number,
  paymentId,
  entityName: 'Municipalidad de Mixco',
  contributorName: null,
  amount: '10000.00',
});

describe('payment palette searches', () => {
  beforeEach(() => vi.clearAllMocks());

  it('finds orders by reference (the query as typed goes to the list), grouped, best match first, linked', async () => {
    api.findOrdersForPalette.mockResolvedValue({
      items: [order(7, '990012345678', 'Villa Nueva'), order(9, '123456789012', 'Mixco')],
    });
    const r = await orderSearch.search('1234 5678', { signal });
    expect(api.findOrdersForPalette).toHaveBeenCalledWith('1234 5678', signal);
    expect(r.map((x) => x.link)).toEqual(['/ordenes-pago/9', '/ordenes-pago/7']);
    expect(r[0].label).toBe('1234 5678 9012');
    expect(r[0].description).toContain('10/2026');
    expect(r[0].description).toContain('Q 17,336.58');
  });

  it('reads a receipt number with or without its series and leading zeros', () => {
    expect(parseReceiptQuery('123')).toEqual({ series: undefined, number: 123, text: '123' });
    expect(parseReceiptQuery('A-000123')).toEqual({ series: 'A', number: 123, text: '123' });
    expect(parseReceiptQuery('7B 45')).toEqual({ series: '7B', number: 45, text: '45' });
    expect(parseReceiptQuery('mixco').number).toBeUndefined();
  });

  it('finds a receipt by number, keeps its series, and opens the order it paid', async () => {
    api.findReceiptsForPalette.mockResolvedValue({ items: [receipt(1, 'A', 123, 50), receipt(2, 'B', 123, 51)] });
    api.getPaymentForPalette.mockImplementation(async (id: number) => ({ allocations: id === 50 ? [{ orderId: 9 }] : [] }));
    const r = await receiptSearch.search('a-0123', { signal });
    expect(api.findReceiptsForPalette).toHaveBeenCalledWith('123', signal);
    expect(r).toHaveLength(1);
    expect(r[0].label).toBe('7-B A-123');
    expect(r[0].link).toBe('/ordenes-pago/9');
  });

  it('a receipt whose payment cannot be read opens its PDF instead', async () => {
    api.findReceiptsForPalette.mockResolvedValue({ items: [receipt(3, 'A', 9, 52)] });
    api.getPaymentForPalette.mockRejectedValue(new Error('403'));
    api.downloadReceiptPdf.mockResolvedValue(undefined);
    const [hit] = await receiptSearch.search('9', { signal });
    expect(hit.link).toBeUndefined();
    hit.onSelect?.();
    expect(api.downloadReceiptPdf).toHaveBeenCalledWith(3);
  });

  it('sends nothing for a text that cannot be a receipt', async () => {
    expect(await receiptSearch.search('municipalidad de mixco', { signal })).toEqual([]);
    expect(api.findReceiptsForPalette).not.toHaveBeenCalled();
  });
});
