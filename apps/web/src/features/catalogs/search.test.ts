import { describe, expect, it, vi } from 'vitest';

const api = vi.hoisted(() => ({ findEntitiesForPalette: vi.fn() }));
vi.mock('./api.ts', () => api);
const { entitySearch } = await import('./search.ts');

describe('entity palette search', () => {
  it('finds entities by name or code, the closest first, each linked to its page', async () => {
    api.findEntitiesForPalette.mockResolvedValue({
      items: [
        { id: 2, label: 'Asociación Mixqueña', name: 'Asociación Mixqueña', code: 'ASO-1', nit: null },
        { id: 1, label: 'Mixco', name: 'Municipalidad de Mixco', code: 'MUNI-0108', nit: '576937K' },
      ],
    });
    const signal = new AbortController().signal;
    const r = await entitySearch.search('muni', { signal });
    expect(api.findEntitiesForPalette).toHaveBeenCalledWith('muni', signal);
    expect(r.map((x) => [x.label, x.link])).toEqual([
      ['Municipalidad de Mixco', '/administrative/municipal-entities/1'],
      ['Asociación Mixqueña', '/administrative/municipal-entities/2'],
    ]);
    expect(r[0].description).toBe('MUNI-0108 · 576937K');
  });
});
