import { describe, expect, it, vi } from 'vitest';

const api = vi.hoisted(() => ({ findAgreementsForPalette: vi.fn() }));
vi.mock('./api.ts', () => api);
const { agreementSearch } = await import('./search.ts');

describe('agreement palette search', () => {
  it('finds agreements by number or entity, each linked to its page', async () => {
    api.findAgreementsForPalette.mockResolvedValue({
      items: [
        {
          id: 4,
          number: 'CONV-2026-0004',
          entityName: 'Mixco',
          entityCode: 'MUNI-0108',
          agreementDate: '2026-11-26',
          debt: '1234.50',
        },
      ],
    });
    const [hit] = await agreementSearch.search('CONV-2026', { signal: new AbortController().signal });
    expect(hit.link).toBe('/planilla/convenios-pago/4');
    expect(hit.label).toContain('CONV-2026-0004');
    expect(hit.description).toBe('26/11/2026 · Q 1,234.50');
  });
});
