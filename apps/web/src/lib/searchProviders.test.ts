import { describe, expect, it } from 'vitest';
import { getSearchProviders, registerSearchProvider, runSearchProviders } from './searchProviders.ts';

describe('command palette search providers', () => {
  it('registers, runs in parallel, skips short queries and failing providers, and unregisters', async () => {
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
    const signal = new AbortController().signal;
    expect(await runSearchProviders('ab', signal)).toEqual([]);
    const r = await runSearchProviders('abc', signal);
    expect(r.map((x) => [x.provider.id, x.results.map((y) => y.id)])).toEqual([['a', ['a-abc']]]);
    offA();
    offB();
    expect(getSearchProviders()).toEqual([]);
  });
});
