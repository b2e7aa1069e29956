import {
  type CollectionDefinition,
  type CollectionName,
  type CollectionRecord,
  collectionDefinitions,
  dcrudMenuGroup,
  errorCatalogue,
  isCollectionName,
  type MenuItem,
  type TemplateCollectionName,
  templateCollectionDefinitions,
} from '@aporta/domain';
import type { ListResponse } from '@aporta/domain/list';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { recordHistoryKeys } from '../components/RecordHistory.tsx';
import { type ApiAnswer, type ApiBody, ApiError, type ApiPath, api, type QueryRecord } from './api.ts';
import { collectionKeys } from './collectionKeys.ts';
import { queryClient } from './query.ts';

/*
 * How the generic engine's calls are typed. The contract declares every collection's routes under its own
 * literal path (`/api/collections/regions`, `/api/collections/regions/{id}`, …) with that collection's
 * record and bodies, but these screens are generic: the collection is a name known only at run time (the
 * URL of /dcrud/:collection, a template screen's prop). So:
 * - `EngineCollection` is the domain's list of the collections the engine serves (the catalogues and the
 *   template's), and `CollectionPath` = `/api/collections/<one of them>`. TypeScript checks that each is a
 *   route of the contract (every call below names one), and `ContractAgrees` that the contract has no other.
 * - `collectionRoute(name, suffix)` is the one place a name becomes a path: a name not on the list gets the
 *   404 the server answers for it (same message) without asking it.
 * - A call through these paths answers the union of the collections' answers. The screens read a record
 *   field by field from the collection's schema, so the row type is the domain's `CollectionRecord` (id,
 *   label, labels and the fields), which every collection's answer is, assigned without a cast.
 * - A body is the union of the collections' create (or update) bodies, and the form's values are built from
 *   the schema at run time: `isCreateBody` and `isUpdateBody` check them with the collection's own input schema, the one its route
 *   declares (every field optional for an update), before they are sent; a refusal is the server's VALIDATION.
 */

/** A collection the engine serves, as the domain lists them. */
export type EngineCollection = CollectionName | TemplateCollectionName;

export const isEngineCollection = (name: string): name is EngineCollection =>
  isCollectionName(name) || Object.hasOwn(templateCollectionDefinitions, name);

/** The domain's definition of a collection: its fields and input schema. */
export const definitionOf = (name: EngineCollection): CollectionDefinition =>
  isCollectionName(name) ? collectionDefinitions[name] : templateCollectionDefinitions[name];

/** The list route of each collection, one literal path per collection in the contract. */
export type CollectionPath = `/api/collections/${EngineCollection}`;

/** The contract's `/api/collections/<name>` routes other than the summary (deeper paths and `{param}`s aside). */
type ContractCollectionPath = {
  [P in ApiPath]: P extends `/api/collections/${infer N}` ? (N extends `${string}/${string}` | 'summary' ? never : P) : never;
}[ApiPath];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/** Compiles only while the domain's list of collections and the contract's routes agree. */
export type ContractAgrees = Assert<Same<CollectionPath, ContractCollectionPath>>;

/** The engine's routes of one collection, below its list route. */
type RouteSuffix = '' | '/schema' | '/export' | '/{id}' | '/{id}/history' | '/options/{field}';

/** The named collection, or the 404 the server answers for a name it does not serve (same message). */
function engineCollection(name: string): EngineCollection {
  if (!isEngineCollection(name)) throw new ApiError(404, 'NOT_FOUND', `La colección «${name}» no existe.`);
  return name;
}

/** A route of the named collection. */
export const collectionRoute = <S extends RouteSuffix>(name: string, suffix: S): `${CollectionPath}${S}` =>
  `/api/collections/${engineCollection(name)}${suffix}`;

/** The schema a collection's create (`post`) or update (`patch`) route declares for its body. */
const bodySchemaOf = (name: EngineCollection, method: 'post' | 'patch') =>
  method === 'post' ? definitionOf(name).input : definitionOf(name).input.partial();

/** A create's body as the collection's route declares it, checked with the same schema (see above). */
function isCreateBody(name: EngineCollection, body: Record<string, unknown>): body is ApiBody<CollectionPath> {
  return bodySchemaOf(name, 'post').safeParse(body).success;
}

/** An update's body as the collection's route declares it, checked with the same schema (see above). */
function isUpdateBody(name: EngineCollection, body: Record<string, unknown>): body is ApiBody<`${CollectionPath}/{id}`, 'patch'> {
  return bodySchemaOf(name, 'patch').safeParse(body).success;
}

/** What the server answers to a body its schema refuses: VALIDATION, naming each field. */
function refusedBody(name: EngineCollection, method: 'post' | 'patch', body: Record<string, unknown>): ApiError {
  const issues = bodySchemaOf(name, method).safeParse(body).error?.issues ?? [];
  const details = issues.map((i) => ({ path: i.path.join('.') || '(raíz)', message: i.message }));
  return new ApiError(400, 'VALIDATION', errorCatalogue.VALIDATION.message, details, { key: 'errors.VALIDATION' });
}

/** GET /api/collections: the names the user may read. */
export function useCollectionNames() {
  return useQuery({
    queryKey: collectionKeys.names(),
    queryFn: () => api.get('/api/collections'),
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
    queryFn: () => api.get('/api/collections/summary'),
  });
}

export function useCollectionSchema(name: string) {
  return useQuery({
    queryKey: collectionKeys.schema(name),
    queryFn: async () => api.get(collectionRoute(name, '/schema')),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** A list's query: paging, sort, search and the collection's filters, from the list's state. */
export function useFindRecords(name: string, params: QueryRecord) {
  return useQuery({
    queryKey: collectionKeys.list(name, params),
    queryFn: async ({ signal }): Promise<ListResponse<CollectionRecord>> =>
      api.get(collectionRoute(name, ''), { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}

const rowHooks = new Map<string, (params: QueryRecord) => ReturnType<typeof useFindRecords>>();

/**
 * The list hook of one collection for ListPage: one function per name (and fixed filters), so it is
 * stable across renders.
 */
export function findRecordsHookOf(name: string, fixed?: Record<string, string>) {
  const key = fixed ? `${name}?${JSON.stringify(fixed)}` : name;
  let hook = rowHooks.get(key);
  if (!hook) {
    hook = function useCollectionRows(params: QueryRecord) {
      return useFindRecords(name, fixed ? { ...params, ...fixed } : params);
    };
    rowHooks.set(key, hook);
  }
  return hook;
}

export function useRecord(name: string, id: number | null) {
  return useQuery({
    queryKey: collectionKeys.record(name, id),
    queryFn: async (): Promise<CollectionRecord> => api.get(collectionRoute(name, '/{id}'), { path: { id: id ?? 0 } }),
    enabled: id != null,
    retry: false,
  });
}

type ReferenceOptions = ApiAnswer<`${CollectionPath}/options/{field}`>;

/** Options of a reference select: by search text, plus the current value's label by id. */
export function useReferenceOptions(name: string, field: string, search: string, selected: number | null) {
  return useQuery({
    queryKey: collectionKeys.options(name, field, search, selected),
    queryFn: async ({ signal }): Promise<ReferenceOptions> => {
      const path = collectionRoute(name, '/options/{field}');
      const found = await api.get(path, { path: { field }, query: { q: search || undefined }, signal });
      if (selected == null || found.some((o) => o.value === selected)) return found;
      const current = await api.get(path, { path: { field }, query: { ids: String(selected) }, signal });
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
    mutationFn: async (body: Record<string, unknown>): Promise<CollectionRecord> => {
      const collection = engineCollection(name);
      // The form checks the same schema first: a refusal here is what the server would answer.
      if (!isCreateBody(collection, body)) throw refusedBody(collection, 'post', body);
      return api.post(collectionRoute(collection, ''), { body });
    },
    onSuccess: () => invalidate(name),
  });
}

export function useUpdateRecord(name: string) {
  return useMutation({
    mutationFn: async ({ id, body }: { id: number; body: Record<string, unknown> }): Promise<CollectionRecord> => {
      const collection = engineCollection(name);
      if (!isUpdateBody(collection, body)) throw refusedBody(collection, 'patch', body);
      return api.patch(collectionRoute(collection, '/{id}'), { path: { id }, body });
    },
    onSuccess: () => invalidate(name),
  });
}

/** The template's data calls that delete several records at once (`DELETE /app/{slice}`, the ids in the body). */
export type BulkDeletePath = {
  [P in ApiPath<'delete'>]: P extends `/app/${string}` ? (ApiAnswer<P, 'delete'> extends number[] ? P : never) : never;
}[ApiPath<'delete'>];

/** Deletes several records at once through the template's data call (`DELETE /app/{collection}`, ids in the body). */
export function useBulkDelete(path: BulkDeletePath, name: string) {
  return useMutation({
    mutationFn: (ids: number[]) => api.delete(path, { body: ids }),
    onSuccess: () => invalidate(name),
  });
}

export function useDeleteRecord(name: string) {
  return useMutation({
    mutationFn: async (id: number) => api.delete(collectionRoute(name, '/{id}'), { path: { id } }),
    onSuccess: () => invalidate(name),
  });
}
