import { useDebouncedValue } from '@mantine/hooks';
import type { DataTableSortStatus } from 'mantine-datatable';
import { useState } from 'react';

export const PAGE_SIZES = [10, 25, 50, 100];

/**
 * Page, page size, sort and debounced search of a server-side list, and the query the API expects
 * (`sort` as `field` or `-field`). Changing a filter goes back to page 1.
 */
export function useListState<T>(defaultSort: string, defaultDirection: 'asc' | 'desc' = 'asc') {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSizeRaw] = useState(25);
  const [sortStatus, setSortRaw] = useState<DataTableSortStatus<T>>({ columnAccessor: defaultSort, direction: defaultDirection });
  const [search, setSearchRaw] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const reset =
    <V>(fn: (v: V) => void) =>
    (v: V) => {
      fn(v);
      setPage(1);
    };
  const sort = `${sortStatus.direction === 'desc' ? '-' : ''}${String(sortStatus.columnAccessor)}`;
  return {
    page,
    setPage,
    pageSize,
    setPageSize: reset(setPageSizeRaw),
    sortStatus,
    setSortStatus: reset(setSortRaw),
    search,
    setSearch: reset(setSearchRaw),
    resetPage: () => setPage(1),
    /** What both the list and its export send. */
    filterQuery: { sort, q: q || undefined },
    pageQuery: { page, pageSize },
  };
}
