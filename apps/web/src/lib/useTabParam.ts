import { useSearchParams } from 'react-router';

/**
 * The open tab of a page kept in the address (`?tab=`), so a link or a reload opens it again. The
 * first of `tabs` is the default and leaves the address bare; anything else in `?tab=` reads as it.
 * Choosing a tab replaces the history entry (tabs are not pages to go back through).
 */
export function useTabParam<T extends string>(tabs: readonly T[]): [T, (tab: string | null) => void] {
  const [search, setSearch] = useSearchParams();
  const asked = search.get('tab') ?? '';
  const tab = (tabs as readonly string[]).includes(asked) ? (asked as T) : tabs[0];
  const choose = (v: string | null) => setSearch(v && v !== tabs[0] ? { tab: v } : {}, { replace: true });
  return [tab, choose];
}
