import type {
  CollectionNames,
  CollectionRecord,
  CollectionSchema,
  CollectionSummary,
  MenuItem,
  ReferenceOption,
} from '@aporta/domain';
import { dcrudMenuGroup } from '@aporta/domain';
import type { ListResponse } from '@aporta/domain/list';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { recordHistoryKeys } from '../components/RecordHistory.tsx';
import { api } from './api.ts';
import { collectionKeys } from './collectionKeys.ts';
import { queryClient } from './query.ts';

export type ListParams = Record<string, string | number | boolean | undefined | null>;

const base = (name: string) => `/api/collections/${encodeURIComponent(name)}`;

/** GET /api/collections: the names the user may read. */
export function useCollectionNames() {
  return useQuery({
    queryKey: collectionKeys.names(),
    queryFn: () => api<CollectionNames>('/api/collections'),
    staleTime: 60_000,
  });
}

/**
 * The sidebar's dynamic "dcrud" group: one entry per readable collection, under /dcrud/{collection}.
 * The shell appends it to the filtered static menu (see the issue-5 report).
 */
export function useDynamicMenuEntries(): MenuItem[] {
  const { data } = useCollectionNames();
  return useMemo(() => {
    const group = data ? dcrudMenuGroup(data) : null;
    return group ? [group] : [];
  }, [data]);
}

export function useCollectionSummary() {
  return useQuery({
    queryKey: collectionKeys.summary(),
    queryFn: () => api<CollectionSummary>('/api/collections/summary'),
  });
}

export function useCollectionSchema(name: string) {
  return useQuery({
    queryKey: collectionKeys.schema(name),
    queryFn: () => api<CollectionSchema>(`${base(name)}/schema`),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export function useFindRecords(name: string, params: ListParams) {
  return useQuery({
    queryKey: collectionKeys.list(name, params),
    queryFn: ({ signal }) => api<ListResponse<CollectionRecord>>(base(name), { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}

const rowHooks = new Map<string, (params: ListParams) => ReturnType<typeof useFindRecords>>();

/**
 * The list hook of one collection for ListPage: one function per name (and fixed filters), so it is
 * stable across renders.
 */
export function findRecordsHookOf(name: string, fixed?: Record<string, string>) {
  const key = fixed ? `${name}?${JSON.stringify(fixed)}` : name;
  let hook = rowHooks.get(key);
  if (!hook) {
    hook = function useCollectionRows(params: ListParams) {
      return useFindRecords(name, fixed ? { ...params, ...fixed } : params);
    };
    rowHooks.set(key, hook);
  }
  return hook;
}

export function useRecord(name: string, id: number | null) {
  return useQuery({
    queryKey: collectionKeys.record(name, id),
    queryFn: () => api<CollectionRecord>(`${base(name)}/${id}`),
    enabled: id != null,
    retry: false,
  });
}

/** Options of a reference select: by search text, plus the current value's label by id. */
export function useReferenceOptions(name: string, field: string, search: string, selected: number | null) {
  return useQuery({
    queryKey: collectionKeys.options(name, field, search, selected),
    queryFn: async ({ signal }) => {
      const found = await api<ReferenceOption[]>(`${base(name)}/options/${field}`, { query: { q: search || undefined }, signal });
      if (selected == null || found.some((o) => o.value === selected)) return found;
      const current = await api<ReferenceOption[]>(`${base(name)}/options/${field}`, {
        query: { ids: String(selected) },
        signal,
      });
      return [...current, ...found];
    },
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

// Records and their histories (RecordHistory's keys) change together.
const invalidate = (name: string) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: collectionKeys.all, refetchType: 'active' }),
    queryClient.invalidateQueries({ queryKey: recordHistoryKeys.all, refetchType: 'active' }),
  ]).then(() => name);

export function useCreateRecord(name: string) {
  return useMutation({
    mutationFn: (body: Record<string, unknown>) => api<CollectionRecord>(base(name), { method: 'POST', body }),
    onSuccess: () => invalidate(name),
  });
}

export function useUpdateRecord(name: string) {
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: Record<string, unknown> }) =>
      api<CollectionRecord>(`${base(name)}/${id}`, { method: 'PATCH', body }),
    onSuccess: () => invalidate(name),
  });
}

/** Deletes several records at once through the template's data call (`DELETE /app/{collection}`, ids in the body). */
export function useBulkDelete(path: string, name: string) {
  return useMutation({
    mutationFn: (ids: number[]) => api<number[]>(path, { method: 'DELETE', body: ids }),
    onSuccess: () => invalidate(name),
  });
}

export function useDeleteRecord(name: string) {
  return useMutation({
    mutationFn: (id: number) => api<void>(`${base(name)}/${id}`, { method: 'DELETE' }),
    onSuccess: () => invalidate(name),
  });
}
