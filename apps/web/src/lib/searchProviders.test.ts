import { describe, expect, it } from 'vitest';
import { ApiError } from './api.ts';
import { getSearchProviders, matchRank, rankResults, registerSearchProvider, runSearchProviders } from './searchProviders.ts';

describe('command palette search providers', () => {
  it('registers, runs in parallel, skips short queries, leaves out forbidden ones, names failed ones, and unregisters', async () => {
    const offA = registerSearchProvider({
      id: 'a',
      group: 'A',
      minLength: 3,
      search: async (q) => [{ id: `a-${q}`, label: `Resultado ${q}`, link: '/x' }],
    });
    const offB = registerSearchProvider({
      id: 'b',
      group: 'B',
      search: async () => {
        throw new Error('caído');
      },
    });
    const offC = registerSearchProvider({
      id: 'c',
      group: 'C',
      search: async () => {
        throw new ApiError(403, 'FORBIDDEN', 'No autorizado');
      },
    });
    const signal = new AbortController().signal;
    const short = await runSearchProviders('ab', signal);
    expect(short.groups).toEqual([]);
    expect(short.failed.map((p) => p.id)).toEqual(['b']);
    const r = await runSearchProviders('abc', signal);
    expect(r.groups.map((x) => [x.provider.id, x.results.map((y) => y.id)])).toEqual([['a', ['a-abc']]]);
    expect(r.failed.map((p) => p.id)).toEqual(['b']);
    offA();
    offB();
    offC();
    expect(getSearchProviders()).toEqual([]);
  });

  it('a provider that takes too long is named as failed and its request aborted', async () => {
    let aborted = false;
    const off = registerSearchProvider({
      id: 'slow',
      group: 'Lento',
      search: (_q, { signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve([]);
          });
        }),
    });
    const r = await runSearchProviders('mixco', new AbortController().signal, 20);
    expect(r.failed.map((p) => p.id)).toEqual(['slow']);
    expect(aborted).toBe(true);
    off();
  });

  it('ranks the same text first, then a prefix, a word prefix, a part; references grouped or not alike', () => {
    expect(matchRank('Mixco', 'mixco')).toBe(0);
    expect(matchRank('Municipalidad de Mixco', 'muni')).toBe(1);
    expect(matchRank('Municipalidad de Mixco', 'mix')).toBe(2);
    expect(matchRank('Municipalidad de Mixco', 'ixc')).toBe(3);
    expect(matchRank('Villa Nueva', 'mixco')).toBe(4);
    expect(matchRank('Peñón', 'penon')).toBe(0);
    expect(matchRank('123456789012', '1234 5678')).toBe(1);
    expect(matchRank('1234 5678 9012', '123456789012')).toBe(0);
    const items = [{ n: 'Asociación de Mixco' }, { n: 'Villa Nueva' }, { n: 'Mixco' }, { n: 'Mixcoteca' }];
    expect(rankResults(items, 'mixco', (x) => [x.n]).map((x) => x.n)).toEqual([
      'Mixco',
      'Mixcoteca',
      'Asociación de Mixco',
      'Villa Nueva',
    ]);
    expect(rankResults(items, 'mixco', (x) => [x.n], 2)).toHaveLength(2);
  });
});
