import { DEFAULT_PAGE_SIZE } from '@aporta/domain/list';
import { useDebouncedValue } from '@mantine/hooks';
import type { DataTableSortStatus } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The page sizes every server-side list offers. */
export const PAGE_SIZES = [10, 25, 50, 100];

/** Where a list paged by key is: the cursor sent (`after` or `before` the previous answer's `next`/`prev`) and the page's number. */
export interface KeysetPosition {
  after?: string;
  before?: string;
  /** 1-based, counted by the screen (the server pages by key, not by number). */
  index: number;
}

/**
 * Page, page size, sort and debounced search of a server-side list, and the query the API expects
 * (`sort` as `field` or `-field`). `defaultSort` is written the same way (`'-at'` = newest first).
 * Changing the page size, the sort or the search goes back to page 1; so does `resetPage`, which a
 * screen calls when one of its own filters changes.
 *
 * Two ways of paging, both kept here: by number (`page`, the DataTable's pager) and by key
 * (`keyset`: first / previous / next with the cursors the API answers; page 500 costs what page 1
 * costs). ListPage uses the key whenever the API answers cursors.
 */
export function useListState<T>(defaultSort: string) {
  const { t } = useTranslation();
  const desc = defaultSort.startsWith('-');
  const [page, setPageRaw] = useState(1);
  const [keyset, setKeyset] = useState<KeysetPosition>({ index: 1 });
  const setPage = (p: number) => {
    setPageRaw(p);
    setKeyset({ index: 1 });
  };
  const [pageSize, setPageSizeRaw] = useState(DEFAULT_PAGE_SIZE);
  const [sortStatus, setSortRaw] = useState<DataTableSortStatus<T>>({
    columnAccessor: desc ? defaultSort.slice(1) : defaultSort,
    direction: desc ? 'desc' : 'asc',
  });
  const [search, setSearchRaw] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const resetting =
    <V>(fn: (v: V) => void) =>
    (v: V) => {
      fn(v);
      setPage(1);
    };
  const setPageSize = resetting(setPageSizeRaw);
  const setSortStatus = resetting(setSortRaw);
  const sort = `${sortStatus.direction === 'desc' ? '-' : ''}${String(sortStatus.columnAccessor)}`;
  return {
    page,
    setPage,
    pageSize,
    setPageSize,
    sortStatus,
    setSortStatus,
    search,
    setSearch: resetting(setSearchRaw),
    /** The debounced, trimmed search ('' when none). */
    q,
    resetPage: () => setPage(1),
    keyset,
    /** Goes to the page after (`next`) or before (`prev`) the one shown, or back to the first (no cursor). */
    goKeyset: (to: { after?: string; before?: string } | null) =>
      setKeyset((cur) =>
        !to
          ? { index: 1 }
          : to.after
            ? { after: to.after, index: cur.index + 1 }
            : { before: to.before, index: Math.max(1, cur.index - 1) },
      ),
    /** What both the list and its export send. */
    filterQuery: { sort, q: q || undefined },
    pageQuery: { page, pageSize },
    /** The page part of the query when paging by key. */
    keysetQuery: {
      pageSize,
      ...(keyset.after ? { after: keyset.after } : {}),
      ...(keyset.before ? { before: keyset.before } : {}),
    },
    /** Paging and sorting props of the list's DataTable, with the shared paging texts. */
    tableProps: {
      page,
      onPageChange: setPage,
      recordsPerPage: pageSize,
      onRecordsPerPageChange: setPageSize,
      recordsPerPageOptions: PAGE_SIZES,
      recordsPerPageLabel: t('common.perPage'),
      paginationText: ({ from, to, totalRecords }: { from: number; to: number; totalRecords: number }) =>
        t('common.pagination', { from, to, total: totalRecords }),
      sortStatus,
      onSortStatusChange: setSortStatus,
    },
  };
}
