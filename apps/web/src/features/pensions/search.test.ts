import { describe, expect, it, vi } from 'vitest';

const api = vi.hoisted(() => ({ findPensionsForPalette: vi.fn() }));
vi.mock('./api.ts', () => api);
const { pensionSearch } = await import('./search.ts');

describe('pension palette search', () => {
  it('finds pensions by name or CUI, each linked to its page, the CUI grouped', async () => {
    api.findPensionsForPalette.mockResolvedValue({
      items: [{ id: 3, fullName: 'ANA LÓPEZ PÉREZ', cui: '1234567890101', resolutionNumber: 'RES-12-2026' }],
    });
    const signal = new AbortController().signal;
    const [hit] = await pensionSearch.search('1234 56789', { signal });
    expect(api.findPensionsForPalette).toHaveBeenCalledWith('1234 56789', signal);
    expect(hit).toMatchObject({ label: 'ANA LÓPEZ PÉREZ', link: '/contributors/passive-classes/3' });
    expect(hit.description).toBe('1234 56789 0101 · RES-12-2026');
  });
});
