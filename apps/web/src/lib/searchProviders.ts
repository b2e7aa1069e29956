/**
 * Record searches of the command palette (Ctrl+K). The palette always offers the menu entries the
 * user may open; a module adds its own records with a provider it exports, registered once by the
 * composition root (src/registrations.ts):
 *
 *   export const contributorSearch: SearchProvider = {
 *     id: 'contributors',
 *     minLength: 4,
 *     async search(q, { signal }) {
 *       const { items } = await api.get('/api/contributors', { query: { q, pageSize: 5 }, signal });
 *       return items.map((c) => ({ id: `contributor-${c.id}`, label: c.fullName, description: formatCui(c.cui), link: `/contributors/${c.id}` }));
 *     },
 *   };
 *
 * `group` is the heading the results show under (already translated, or an i18n key). Providers are
 * called in parallel after a short pause in typing; one that fails or times out is left out.
 */
export interface SearchResult {
  id: string;
  label: string;
  description?: string;
  /** Route to open; or `onSelect` for anything else. */
  link?: string;
  onSelect?: () => void;
}

export interface SearchProvider {
  id: string;
  /** Heading of this provider's results: an i18n key or plain text. */
  group: string;
  /** Queries shorter than this are not sent (default 2). */
  minLength?: number;
  search(query: string, ctx: { signal: AbortSignal }): Promise<SearchResult[]>;
}

const providers = new Map<string, SearchProvider>();
const listeners = new Set<() => void>();
/** A stable snapshot, replaced on every change (useSyncExternalStore compares by identity). */
let snapshot: SearchProvider[] = [];
const changed = () => {
  snapshot = [...providers.values()];
  for (const l of listeners) l();
};

/** Adds (or replaces, by id) a record search; returns a function that removes it. */
export function registerSearchProvider(provider: SearchProvider): () => void {
  providers.set(provider.id, provider);
  changed();
  return () => {
    if (providers.get(provider.id) === provider) providers.delete(provider.id);
    changed();
  };
}

export const getSearchProviders = (): SearchProvider[] => snapshot;

export function subscribeSearchProviders(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Runs every provider for the query; each answer is kept apart so one failure hides nothing else. */
export async function runSearchProviders(
  query: string,
  signal: AbortSignal,
): Promise<{ provider: SearchProvider; results: SearchResult[] }[]> {
  const q = query.trim();
  const eligible = getSearchProviders().filter((p) => q.length >= (p.minLength ?? 2));
  const settled = await Promise.allSettled(eligible.map((p) => p.search(q, { signal })));
  return eligible.flatMap((provider, i) => {
    const r = settled[i];
    return r.status === 'fulfilled' && r.value.length ? [{ provider, results: r.value }] : [];
  });
}
