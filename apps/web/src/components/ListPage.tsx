import 'mantine-datatable/styles.layer.css';
import type { ListResponse } from '@aporta/domain/list';
import { Group, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { DataTable, type DataTableColumn, type DataTableProps } from 'mantine-datatable';
import { Fragment, type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RequestOptions } from '../lib/api.ts';
import { FieldCell, type FieldControlProps, FieldFilter, type FieldKind, type FieldOption } from '../lib/field-types.tsx';
import { useListState } from '../lib/useListState.ts';
import { ExportButtons } from './ExportButtons.tsx';
import { PageHeader } from './PageHeader.tsx';
import { type QueryLike, QueryState } from './QueryState.tsx';

/** The query a list sends (and its export, without the page): filters, `q`, `sort`, `page`, `pageSize`. */
export type ListParams = NonNullable<RequestOptions['query']>;

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
 * The one list page: title and actions, a search box and filters (controls from the field-type
 * registry), a server-side paged and sorted table, and the export of exactly what is filtered. Loading
 * shows in the table, a refusal (403) is "No autorizado", a failed load an error with "Reintentar",
 * and an empty result says so. The caller decides which actions the user may take (`useCan`) and
 * passes `exportPath` only to those who may export.
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
  exportInBackground?: { path: string; onStarted: (jobId: number) => void };
  /** Shown between the header and the filters (a running export's progress…). */
  notice?: ReactNode;
  emptyText?: string;
  onRowClick?: (record: T) => void;
  idAccessor?: string;
  /** The `sort` to send for the current state, when the module has its own rule (relevance…). */
  sortParam?: (state: { q: string; sort: string; defaultSort: string }) => string | undefined;
  rowExpansion?: DataTableProps<T>['rowExpansion'];
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

  const rows = useRows({ ...filterQuery, ...list.pageQuery });
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
    <Stack>
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
        <DataTable<T>
          withTableBorder
          borderRadius="sm"
          striped
          highlightOnHover={!!onRowClick}
          minHeight={180}
          records={rows.data?.items ?? []}
          totalRecords={rows.data?.total ?? 0}
          {...list.tableProps}
          fetching={rows.isFetching}
          noRecordsText={emptyText ?? t('ui.noRecords')}
          columns={tableColumns}
          onRowClick={onRowClick ? ({ record }) => onRowClick(record) : undefined}
          idAccessor={idAccessor as never}
          rowExpansion={rowExpansion}
        />
      </QueryState>
      {children}
    </Stack>
  );
}
