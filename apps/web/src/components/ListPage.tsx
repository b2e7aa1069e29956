import 'mantine-datatable/styles.layer.css';
import type { ListResponse } from '@aporta/domain/list';
import { Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconChevronLeft, IconChevronRight, IconChevronsLeft, IconSearch } from '@tabler/icons-react';
import { DataTable, type DataTableColumn, type DataTableProps } from 'mantine-datatable';
import { Fragment, type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { QueryRecord } from '../lib/api.ts';
import { FieldCell, type FieldControlProps, FieldFilter, type FieldKind, type FieldOption } from '../lib/field-types.tsx';
import { formatNumber } from '../lib/format.ts';
import type { JobPath } from '../lib/jobs.ts';
import { PAGE_SIZES, useListState } from '../lib/useListState.ts';
import { ExportButtons } from './ExportButtons.tsx';
import { PageHeader } from './PageHeader.tsx';
import { type QueryLike, QueryState } from './QueryState.tsx';

/** The query a list sends (and its export, without the page): filters, `q`, `sort`, `page`, `pageSize`. */
export type ListParams = QueryRecord;

/** What a list hook answers: any TanStack query of a `{ items, total }` list (packages/domain/src/list.ts). */
export type ListQueryResult<T> = QueryLike & { data?: ListResponse<T>; isFetching: boolean };

/** One filter above the table: a query parameter, its label and the kind that picks its control. */
export interface ListFilter {
  name: string;
  label: string;
  kind: FieldKind;
  options?: readonly FieldOption[];
  /** A control of its own instead of the kind's (e.g. a reference searched on the server). */
  render?: (props: FieldControlProps) => ReactNode;
  w?: FieldControlProps['w'];
}

/** A DataTable column; with `kind` and no `render`, the cell comes from the field-type registry. */
export type ListColumn<T> = DataTableColumn<T> & {
  kind?: FieldKind;
  options?: readonly FieldOption[];
};

// Typed filters wait for a pause in typing; choices apply at once.
const typedKinds: ReadonlySet<FieldKind> = new Set(['text', 'number', 'cui', 'nit']);

/**
 * The total of a list as the server obtained it (docs/decisions.md, issue 11): exact ("1 234"), capped
 * ("más de 10 000") or the planner's estimate of an unfiltered table ("≈ 1 000 000").
 */
export function useTotalText() {
  const { t, i18n } = useTranslation();
  return (total: number, kind: ListResponse<unknown>['totalKind']) => {
    const n = formatNumber(total, { language: i18n.language });
    return kind === 'atLeast' ? t('ui.moreThan', { n }) : kind === 'estimate' ? t('ui.about', { n }) : n;
  };
}

/**
 * The one list page: title and actions, a search box and filters (controls from the field-type
 * registry), a server-side paged and sorted table, and the export of exactly what is filtered. Loading
 * shows in the table, a refusal (403) is "No autorizado", a failed load an error with "Reintentar",
 * and an empty result says so. The caller decides which actions the user may take (`useCan`) and
 * passes `exportPath` only to those who may export.
 *
 * Paging: when the API answers cursors (`next`/`prev`, platform/list.ts `listPage`) the list pages by
 * key — first page, previous, next — so a deep page costs what the first costs; the way to a far row
 * is a filter or the search, not page 500. A list whose API answers no cursors keeps the numbered pager.
 * The total says how it was counted (`useTotalText`).
 */
export function ListPage<T extends object>({
  title,
  description,
  actions,
  defaultSort,
  search = true,
  searchLabel,
  searchPlaceholder,
  filters = [],
  columns,
  useRows,
  exportPath,
  exportInBackground,
  notice,
  emptyText,
  onRowClick,
  idAccessor = 'id',
  sortParam,
  rowExpansion,
  selection,
  renderGrid,
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  /** Buttons beside the export (new record…), already limited to what the user may do. */
  actions?: ReactNode;
  /** `field` or `-field` (descending), as the API takes it. */
  defaultSort: string;
  search?: boolean;
  searchLabel?: string;
  searchPlaceholder?: string;
  filters?: ListFilter[];
  columns: ListColumn<T>[];
  /** The module's list hook, called with the whole query (a stable function: a hook). */
  useRows: (params: ListParams) => ListQueryResult<T>;
  exportPath?: string | null;
  /** For lists that grow without bound: the export runs as a job started at `path` (see ExportButtons). */
  exportInBackground?: { path: JobPath; onStarted: (jobId: number) => void };
  /** Shown between the header and the filters (a running export's progress…). */
  notice?: ReactNode;
  emptyText?: string;
  onRowClick?: (record: T) => void;
  idAccessor?: string;
  /** The `sort` to send for the current state, when the module has its own rule (relevance…). */
  sortParam?: (state: { q: string; sort: string; defaultSort: string }) => string | undefined;
  rowExpansion?: DataTableProps<T>['rowExpansion'];
  /** Rows the user ticks for an action on several at once (the caller shows the action). */
  selection?: { selected: T[]; onChange: (rows: T[]) => void };
  /** Cards instead of the table (a grid view of the same rows, filters and pages). */
  renderGrid?: (rows: T[]) => ReactNode;
  /** Dialogs and the like, rendered below the table. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const list = useListState<T>(defaultSort);
  const [values, setValues] = useState<Record<string, unknown>>({});
  const typedNames = filters.filter((f) => typedKinds.has(f.kind)).map((f) => f.name);
  // Debounced as text: a new object each render would restart the timer for ever.
  const [typedJson] = useDebouncedValue(JSON.stringify(typedNames.map((n) => values[n] ?? null)), 300);
  const typedKey = typedNames.join(',');
  const debouncedTyped = useMemo(() => {
    const parsed = JSON.parse(typedJson) as unknown[];
    return Object.fromEntries(typedKey.split(',').map((n, i) => [n, parsed[i]]));
  }, [typedJson, typedKey]);

  const filterQuery = useMemo(() => {
    const out: ListParams = {};
    for (const f of filters) {
      const v = typedKinds.has(f.kind) ? (debouncedTyped[f.name] as unknown) : values[f.name];
      const s = typeof v === 'string' ? v.trim() : v;
      if (s !== undefined && s !== null && s !== '') out[f.name] = s as string | number | boolean;
    }
    const sort = sortParam ? sortParam({ q: list.q, sort: list.filterQuery.sort, defaultSort }) : list.filterQuery.sort;
    return { ...out, q: list.filterQuery.q, sort };
  }, [filters, values, debouncedTyped, list.q, list.filterQuery.q, list.filterQuery.sort, sortParam, defaultSort]);

  // Paged by key until the API shows it answers no cursors (then by number). Page 1 is the same query either way.
  const [byKey, setByKey] = useState(true);
  const pageQuery = byKey || list.page === 1 ? list.keysetQuery : list.pageQuery;
  const rows = useRows({ ...filterQuery, ...pageQuery });
  const answeredByKey = rows.data ? rows.data.next !== undefined : undefined;
  useEffect(() => {
    if (answeredByKey !== undefined) setByKey(answeredByKey);
  }, [answeredByKey]);
  const totalText = useTotalText();
  const setFilter = (name: string) => (v: unknown) => {
    setValues((cur) => ({ ...cur, [name]: v }));
    list.resetPage();
  };

  const tableColumns = useMemo(
    () =>
      columns.map(({ kind, options, ...c }) =>
        kind && !c.render
          ? {
              ...c,
              render: (r: T) => (
                <FieldCell kind={kind} value={(r as Record<string, unknown>)[String(c.accessor)]} options={options} />
              ),
            }
          : c,
      ) as DataTableColumn<T>[],
    [columns],
  );

  return (
    <Stack aria-busy={rows.isFetching} data-testid="list-page">
      <PageHeader title={title} description={description}>
        {exportPath && <ExportButtons path={exportPath} query={filterQuery} background={exportInBackground} />}
        {actions}
      </PageHeader>
      {notice}
      {(search || filters.length > 0) && (
        <Group align="flex-end" wrap="wrap" gap="sm" data-testid="list-filters">
          {search && (
            <TextInput
              label={searchLabel ?? t('ui.search')}
              placeholder={searchPlaceholder ?? t('ui.searchPlaceholder')}
              leftSection={<IconSearch size={16} />}
              value={list.search}
              onChange={(e) => list.setSearch(e.currentTarget.value)}
              w={{ base: '100%', sm: 280 }}
            />
          )}
          {filters.map((f) => {
            const props: FieldControlProps = {
              label: f.label,
              value: values[f.name] ?? null,
              onChange: setFilter(f.name),
              options: f.options,
              placeholder: t('ui.all'),
              w: f.w ?? { base: '100%', sm: 200 },
            };
            return <Fragment key={f.name}>{f.render ? f.render(props) : <FieldFilter kind={f.kind} {...props} />}</Fragment>;
          })}
        </Group>
      )}
      <QueryState query={rows} list>
        {renderGrid ? (
          (rows.data?.items.length ?? 0) > 0 ? (
            renderGrid(rows.data?.items ?? [])
          ) : (
            <Text c="dimmed" ta="center" py="xl">
              {emptyText ?? t('ui.noRecords')}
            </Text>
          )
        ) : (
          <DataTable<T>
            withTableBorder
            borderRadius="sm"
            striped
            highlightOnHover={!!onRowClick}
            minHeight={180}
            records={rows.data?.items ?? []}
            {...(byKey
              ? { sortStatus: list.tableProps.sortStatus, onSortStatusChange: list.tableProps.onSortStatusChange }
              : {
                  ...list.tableProps,
                  totalRecords: rows.data?.total ?? 0,
                  paginationText: ({ from, to }: { from: number; to: number }) =>
                    t('ui.pagination', { from, to, total: totalText(rows.data?.total ?? 0, rows.data?.totalKind) }),
                })}
            fetching={rows.isFetching}
            noRecordsText={emptyText ?? t('ui.noRecords')}
            columns={tableColumns}
            onRowClick={onRowClick ? ({ record }) => onRowClick(record) : undefined}
            idAccessor={idAccessor as never}
            rowExpansion={rowExpansion}
            {...(selection
              ? {
                  selectedRecords: selection.selected,
                  onSelectedRecordsChange: selection.onChange,
                  selectionCheckboxProps: { 'aria-label': t('ui.selectRow') },
                }
              : {})}
          />
        )}
        {byKey && rows.data && (
          <KeysetPager
            data={rows.data}
            index={rows.data.prev === null ? 1 : list.keyset.index}
            pageSize={list.pageSize}
            onPageSize={list.setPageSize}
            go={list.goKeyset}
            totalText={totalText}
            fetching={rows.isFetching}
          />
        )}
      </QueryState>
      {children}
    </Stack>
  );
}

/** First / previous / next of a list paged by key, the rows shown and the total as counted. */
function KeysetPager({
  data,
  index,
  pageSize,
  onPageSize,
  go,
  totalText,
  fetching,
}: {
  data: ListResponse<unknown>;
  index: number;
  pageSize: number;
  onPageSize: (n: number) => void;
  go: (to: { after?: string; before?: string } | null) => void;
  totalText: (total: number, kind: ListResponse<unknown>['totalKind']) => string;
  fetching: boolean;
}) {
  const { t } = useTranslation();
  const from = data.items.length ? (index - 1) * pageSize + 1 : 0;
  const to = data.items.length ? from + data.items.length - 1 : 0;
  return (
    <Group justify="space-between" gap="xs" wrap="wrap" data-testid="list-pager">
      <Text size="sm" c="dimmed" aria-live="polite">
        {t('ui.pageOf', { page: index })} · {t('ui.pagination', { from, to, total: totalText(data.total, data.totalKind) })}
      </Text>
      <Group gap="xs" wrap="wrap">
        <Select
          aria-label={t('ui.perPage')}
          data={PAGE_SIZES.map(String)}
          value={String(pageSize)}
          onChange={(v) => v && onPageSize(Number(v))}
          allowDeselect={false}
          w={80}
          size="xs"
        />
        <Button
          variant="default"
          size="xs"
          leftSection={<IconChevronsLeft size={14} />}
          disabled={!data.prev || fetching}
          onClick={() => go(null)}
        >
          {t('ui.firstPage')}
        </Button>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconChevronLeft size={14} />}
          disabled={!data.prev || fetching}
          onClick={() => data.prev && go({ before: data.prev })}
        >
          {t('ui.previousPage')}
        </Button>
        <Button
          variant="default"
          size="xs"
          rightSection={<IconChevronRight size={14} />}
          disabled={!data.next || fetching}
          onClick={() => data.next && go({ after: data.next })}
        >
          {t('ui.nextPage')}
        </Button>
      </Group>
    </Group>
  );
}
