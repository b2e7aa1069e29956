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
 * called in parallel after a short pause in typing; one the user may not use is left out, one that
 * fails or times out is named under the results. Rank with `rankResults`, at most `PALETTE_LIMIT`.
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

/** How long one provider may take before the palette shows the others without it. */
export const SEARCH_TIMEOUT_MS = 8000;

/** What a search of every provider found: the groups with results, and the providers that failed. */
export interface SearchOutcome {
  groups: { provider: SearchProvider; results: SearchResult[] }[];
  /** Providers that failed or timed out (not those the user may not use: a 401/403 is simply no group). */
  failed: SearchProvider[];
}

const isForbidden = (e: unknown) =>
  typeof e === 'object' &&
  e !== null &&
  'status' in e &&
  ((e as { status: unknown }).status === 403 || (e as { status: unknown }).status === 401);

function withTimeout<T>(run: (signal: AbortSignal) => Promise<T>, outer: AbortSignal, ms: number): Promise<T> {
  const ctrl = new AbortController();
  const abort = () => ctrl.abort();
  outer.addEventListener('abort', abort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error('timeout'));
      ctrl.abort();
    }, ms);
  });
  return Promise.race([run(ctrl.signal), timeout]).finally(() => {
    clearTimeout(timer);
    outer.removeEventListener('abort', abort);
  });
}

/**
 * Runs every provider for the query, in parallel; each answer is kept apart so one failure hides
 * nothing else. A provider the user has no permission for (401/403) is left out silently; one that
 * fails otherwise or takes longer than `timeoutMs` is named in `failed`.
 */
export async function runSearchProviders(
  query: string,
  signal: AbortSignal,
  timeoutMs = SEARCH_TIMEOUT_MS,
): Promise<SearchOutcome> {
  const q = query.trim();
  const eligible = getSearchProviders().filter((p) => q.length >= (p.minLength ?? 2));
  const settled = await Promise.allSettled(
    eligible.map((p) => withTimeout((s) => p.search(q, { signal: s }), signal, timeoutMs)),
  );
  const groups: SearchOutcome['groups'] = [];
  const failed: SearchProvider[] = [];
  eligible.forEach((provider, i) => {
    const r = settled[i];
    if (r.status === 'fulfilled') {
      if (r.value.length) groups.push({ provider, results: r.value });
    } else if (!isForbidden(r.reason)) failed.push(provider);
  });
  return { groups, failed };
}

/** Lower-cased, without accents, single spaces: how a query and a label are compared. */
export const foldText = (s: string): string =>
  s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * How well `text` answers `query` (lower is better): 0 the same, 1 it starts with it, 2 a word of it
 * starts with it, 3 it contains it, 4 otherwise. Digits are compared without spaces or dashes, so a
 * reference typed grouped or not ranks the same.
 */
export function matchRank(text: string, query: string): number {
  const q = foldText(query);
  const t = foldText(text);
  if (!q) return 4;
  const digits = (s: string) => s.replace(/[\s-]/g, '');
  if (/^[\d\s-]+$/.test(q)) {
    const qd = digits(q);
    const td = digits(t);
    return td === qd ? 0 : td.startsWith(qd) ? 1 : td.includes(qd) ? 3 : 4;
  }
  if (t === q) return 0;
  if (t.startsWith(q)) return 1;
  if (t.split(/[\s·,./()-]+/).some((w) => w.startsWith(q))) return 2;
  return t.includes(q) ? 3 : 4;
}

/**
 * The items ranked for the palette: by the best `matchRank` of their texts (name, code, number…),
 * the server's order kept among equals, at most `limit`.
 */
export function rankResults<T>(items: T[], query: string, texts: (item: T) => (string | null | undefined)[], limit = 8): T[] {
  return items
    .map((item, i) => ({ item, i, rank: Math.min(4, ...texts(item).map((x) => (x ? matchRank(x, query) : 4))) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .slice(0, limit)
    .map((x) => x.item);
}

/** The results each provider answers at most. */
export const PALETTE_LIMIT = 8;
