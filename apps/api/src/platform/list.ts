import type { ListQuery, TotalKind } from '@aporta/domain';
import { AppError, COUNT_CAP, detail, msg } from '@aporta/domain';
import { type AnyColumn, asc, desc, getTableName, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';

/**
 * ORDER BY for a list's `sort` (`field` or `-field`), limited to the columns the module exposes so a
 * client can never sort by an arbitrary expression. An unknown field is a 400 naming the choices.
 */
export function orderBy(sort: string | undefined, columns: Record<string, AnyColumn>, fallback: string): SQL[] {
  const { column, descending } = sortColumn(sort, columns, fallback);
  // A stable tiebreak keeps pagination from repeating or skipping rows with equal sort values.
  const tiebreak = columns.id ?? Object.values(columns)[0];
  const primary = descending ? desc(column) : asc(column);
  return column === tiebreak ? [primary] : [primary, asc(tiebreak)];
}

/** LIMIT/OFFSET of a page. */
export const pageOf = (q: Pick<ListQuery, 'page' | 'pageSize'>) => ({ limit: q.pageSize, offset: (q.page - 1) * q.pageSize });

/** Escapes LIKE wildcards in user text so `%` and `_` match themselves. */
export const likePattern = (text: string, mode: 'contains' | 'prefix' = 'contains') => {
  const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return mode === 'prefix' ? `${escaped}%` : `%${escaped}%`;
};

/** The column and direction of a `sort` among the exposed ones; an unknown field is a 400 naming the choices. */
function sortColumn(sort: string | undefined, columns: Record<string, AnyColumn>, fallback: string) {
  const spec = sort ?? fallback;
  const descending = spec.startsWith('-');
  const field = descending ? spec.slice(1) : spec;
  const column = Object.hasOwn(columns, field) ? columns[field] : undefined;
  if (!column) {
    throw new AppError('VALIDATION', undefined, [
      { path: 'consulta.sort', ...detail(msg('platform.sortUnknown', { field, options: Object.keys(columns).join(', ') })) },
    ]);
  }
  return { column, descending, field };
}

/**
 * Keyset (seek) pagination over one table: the sort column, its direction and the table's integer
 * primary key as tiebreak, in the same direction. Each chunk starts after the last row seen instead of
 * counting an OFFSET, so chunk N costs what chunk 1 costs and no row is read twice or skipped when
 * sort values repeat. Built and validated (400 for an unknown sort) before any work starts.
 * Used by every export; lists can use it too (issue 11).
 */
export interface Keyset {
  column: AnyColumn;
  id: AnyColumn;
  descending: boolean;
  /** The sort value of the row `lastId` when the column is not of the id's table (a joined column). */
  lastValue?: ReadBack;
}

/**
 * How a sort column of a joined table is read back by the listed row's id, e.g. a planilla's entity name:
 * `(id) => sql\`(select e.name from planillas p join municipal_entities e on … where p.id = ${id})\``.
 */
export type ReadBack = (lastId: number | Placeholder) => SQL;

export function keysetOf(
  sort: string | undefined,
  columns: Record<string, AnyColumn>,
  fallback: string,
  id?: AnyColumn,
  readBack?: Record<string, ReadBack>,
): Keyset {
  const { column, descending, field } = sortColumn(sort, columns, fallback);
  const key = id ?? columns.id;
  if (!key) throw new Error('keysetOf needs the id column of the table');
  return { column, id: key, descending, lastValue: readBack?.[field] };
}

/** ORDER BY of a keyset: Postgres puts NULLs after every value (last ascending, first descending). */
export function keysetOrder(k: Keyset): SQL[] {
  if (k.column === k.id) return [k.descending ? desc(k.id) : asc(k.id)];
  return k.descending ? [desc(k.column), desc(k.id)] : [asc(k.column), asc(k.id)];
}

/**
 * WHERE of the rows after the row `lastId` in keyset order. The last sort value is read back by id
 * inside the statement (an uncorrelated sub-select, one index lookup), so timestamps keep their
 * microseconds and every column type compares as the database compares it.
 */
export function keysetAfter(k: Keyset, lastId: number | Placeholder): SQL {
  const { column: col, id, descending } = k;
  if (col === id) return descending ? sql`${id} < ${lastId}` : sql`${id} > ${lastId}`;
  const table = (col as unknown as { table: unknown }).table;
  const last = k.lastValue ? k.lastValue(lastId) : sql`(select ${col} from ${table} where ${id} = ${lastId})`;
  if (col.notNull) return descending ? sql`(${col}, ${id}) < (${last}, ${lastId})` : sql`(${col}, ${id}) > (${last}, ${lastId})`;
  // Nullable: NULL ranks above every value.
  return descending
    ? sql`(case when ${last} is null then (${col} is null and ${id} < ${lastId}) or ${col} is not null
        else ${col} < ${last} or (${col} = ${last} and ${id} < ${lastId}) end)`
    : sql`(case when ${last} is null then ${col} is null and ${id} > ${lastId}
        else ${col} > ${last} or (${col} = ${last} and ${id} > ${lastId}) or ${col} is null end)`;
}

/**
 * Rows per export chunk. PGlite runs each statement synchronously on the event loop, so a chunk's
 * query plus its formatting is how long another request can wait: small chunks keep that short
 * (measured in bench/export-health.mjs).
 */
export const EXPORT_CHUNK_ROWS = Number(process.env.EXPORT_CHUNK_ROWS ?? 100);

/**
 * The most rows one export writes (`EXPORT_MAX_ROWS`, default 2 000 000: twice the contributors of the largest
 * bench, beyond any national payroll). Past it the export fails with a message asking for a filter, so no read
 * can run on without end whatever its source does (docs/decisions.md, "Every read ends").
 */
export const EXPORT_MAX_ROWS = Number(process.env.EXPORT_MAX_ROWS ?? 2_000_000);

/** One chunk of a keyset read: the extra WHERE (undefined for the first), the ORDER BY and the size. */
export interface KeysetChunk {
  after: SQL | undefined;
  order: SQL[];
  limit: number;
}

/**
 * Reads a query in keyset chunks of `size` rows until it runs dry: the batches `sendExport` consumes.
 * Each chunk is one short statement, so the single connection of the embedded database is free for
 * other requests between chunks.
 */
export async function* keysetBatches<R>(
  k: Keyset,
  fetch: (chunk: KeysetChunk) => Promise<R[]>,
  idOf: (row: R) => number,
  size = EXPORT_CHUNK_ROWS,
): AsyncIterable<R[]> {
  const order = keysetOrder(k);
  let lastId: number | undefined;
  for (;;) {
    const rows = await fetch({ after: lastId === undefined ? undefined : keysetAfter(k, lastId), order, limit: size });
    yield rows;
    if (rows.length < size) return;
    const next = idOf(rows[rows.length - 1]);
    // A chunk that ends on the row the previous one ended on did not move: reading on would repeat it forever.
    if (next === lastId) return;
    lastId = next;
  }
}

/**
 * Reads a list page after page by key (`after` the last row of the previous page) until its end: the batches of
 * an export built on a list's own service (its filters, scope and serialisation). It ends when a page has no
 * `next`, and also when `next` does not move (the cursor it was given back), so a list that answers the same
 * page again can never hold an export open.
 */
export async function* pageBatches<R>(fetchPage: (after: string | undefined) => Promise<Page<R>>): AsyncIterable<R[]> {
  let after: string | undefined;
  for (;;) {
    const page = await fetchPage(after);
    yield page.items;
    if (!page.next || page.next === after || !page.items.length) return;
    after = page.next;
  }
}

/** One page of a list: its rows, the total (and how it was obtained) and the cursors around it. */
export interface Page<R> {
  items: R[];
  total: number;
  totalKind: TotalKind;
  next: string | null;
  prev: string | null;
}

/**
 * What `listPage` hands the caller's SELECT: the extra WHERE of the cursor, the ORDER BY, LIMIT, OFFSET.
 * For a prepared list (`prepared`) the cursor, limit and offset are placeholders.
 */
export interface PageChunk {
  where: SQL | undefined;
  order: SQL[];
  limit: number | Placeholder;
  offset: number | Placeholder;
}

/** Any SELECT drizzle builds (the rows to count, without ORDER BY or LIMIT). */
interface Countable {
  limit(n: number): { as(alias: string): unknown };
}

/** The rows of a page: what the caller's SELECT returns (a drizzle query, preparable when the list is prepared). */
type RowsQuery<R> = PromiseLike<R[]> & {
  prepare?: (name: string) => { execute(values?: Record<string, unknown>): Promise<R[]> };
};

/**
 * Prepared lists (issue 11, less work per request): a list whose filters are placeholders names its shape
 * (`key`: which filters, which kind of search, the scope) and gives their `values`. Each shape of page
 * (sort, direction, by key or by position) is built and prepared once per database handle, then only executed:
 * no query building, and PostgreSQL plans a named statement once per connection.
 */
export interface PreparedList {
  key: string;
  values: Record<string, unknown>;
}

const statementNames = new Map<string, string>();
/** One statement name per SQL shape in this process (the same on every connection and handle). */
const statementName = (key: string) => {
  let name = statementNames.get(key);
  if (!name) {
    name = `list_${statementNames.size + 1}`;
    statementNames.set(key, name);
  }
  return name;
};
const preparedStatements = new WeakMap<Db, Map<string, { execute(values?: Record<string, unknown>): Promise<unknown[]> }>>();

function preparedOf<T>(db: Db, key: string, build: () => { prepare?: (name: string) => unknown }) {
  let map = preparedStatements.get(db);
  if (!map) {
    map = new Map();
    preparedStatements.set(db, map);
  }
  let statement = map.get(key);
  if (!statement) {
    // Shapes are few in practice (which filters, which sort); a bound all the same.
    if (map.size >= 1000) map.clear();
    const query = build();
    if (!query.prepare) throw new Error('listPage: a prepared list needs rows() and count() to return drizzle queries');
    statement = query.prepare(statementName(key)) as { execute(values?: Record<string, unknown>): Promise<unknown[]> };
    map.set(key, statement);
  }
  return statement as { execute(values?: Record<string, unknown>): Promise<T[]> };
}

/**
 * A page of a list, the one way every list pages (issue 11):
 *
 * - **By key** (`after`/`before` a row id, the default sort or any sortable column, with the id as
 *   tiebreak): the page starts right after (or ends right before) that row, read through the index of
 *   the sort column and id, so page 500 costs what page 1 costs and rows sharing a sort value are never
 *   repeated or skipped. `next`/`prev` are the ids of the last and first rows shown (null at either end).
 * - **By position** (`page` without a cursor, for old clients; `ranked` lists such as a name search by
 *   relevance, whose cursors are `@offset`).
 * - **Totals that don't scan**: `estimate` (the planner's row estimate) when nothing filters a large
 *   table (`estimateTable`), else a count that stops at COUNT_CAP + 1 (`atLeast` beyond the cap).
 *
 * `rows` runs the caller's SELECT with `and(filters, chunk.where)`, `.orderBy(...chunk.order)`,
 * `.limit(chunk.limit).offset(chunk.offset)`; `count` builds the caller's filtered SELECT (any column)
 * without order or limit, `db` runs the count.
 */
export async function listPage<R>(
  db: Db,
  opts: {
    query: Pick<ListQuery, 'page' | 'pageSize' | 'sort' | 'after' | 'before'>;
    sortable: Record<string, AnyColumn>;
    defaultSort: string;
    /** The table's id column when `sortable` has no `id`. */
    id?: AnyColumn;
    rows: (chunk: PageChunk) => RowsQuery<R>;
    idOf: (row: R) => number;
    count: () => Countable;
    /** The table to estimate when nothing at all filters it (scope ALL, no filter, no search). */
    estimateTable?: PgTable;
    /** A relevance order instead of `sort` (pages by position). */
    ranked?: SQL[];
    /** The filters are placeholders: run prepared statements (see `PreparedList`). */
    prepared?: PreparedList;
    /** Sort columns of joined tables, read back by the row's id (they page by key too). */
    readBack?: Record<string, ReadBack>;
    /**
     * Where counting stops (COUNT_CAP). A list bounded by its parent (one planilla's lines) may count them all,
     * so a screen that pages by number reaches its last page.
     */
    countCap?: number;
    /**
     * A cheap test that the count would reach the cap (a name search the planner expects to match many more
     * rows, modules/contributors/name-search.ts): then the total is `atLeast` the cap without counting.
     */
    surelyAboveCap?: () => Promise<boolean>;
  },
): Promise<Page<R>> {
  const { query, prepared } = opts;
  // Runs one page's SELECT: built each time, or prepared once per shape and executed with the values.
  const fetch = (chunk: PageChunk, shape: string, values: { cursor?: number; limit: number; offset: number }) => {
    if (!prepared) {
      return opts.rows({ ...chunk, limit: values.limit, offset: values.offset });
    }
    const statement = preparedOf<R>(db, `${prepared.key}|${shape}`, () =>
      opts.rows({ ...chunk, limit: sql.placeholder('limit'), offset: sql.placeholder('offset') }),
    );
    return statement.execute({ ...prepared.values, ...values });
  };
  const cap = opts.countCap ?? COUNT_CAP;
  const count = async () =>
    opts.surelyAboveCap && (await opts.surelyAboveCap())
      ? { total: cap, totalKind: 'atLeast' as const }
      : countRows(db, opts.count, opts.estimateTable, prepared, cap);
  const size = query.pageSize;
  const cursor = query.after ?? query.before;
  const k = opts.ranked ? undefined : keysetOf(query.sort, opts.sortable, opts.defaultSort, opts.id, opts.readBack);
  // A sort column of another (joined) table without a way to read it back by the row's id pages by position.
  const ranked = opts.ranked ?? (k && !k.lastValue && tableOf(k.column) !== tableOf(k.id) ? keysetOrder(k) : undefined);
  // A first page that holds every row is its own exact total: no count (an exact CUI, a short search).
  const total = (firstPageRows: number | null) =>
    firstPageRows !== null && firstPageRows <= size
      ? Promise.resolve({ total: firstPageRows, totalKind: 'exact' as const })
      : count();
  if (ranked || !k || cursor?.startsWith('@') || (!cursor && query.page > 1)) {
    // The same order as by key (the id breaks ties in the sort's direction): a page by number and the
    // cursor it hands on agree.
    const order = ranked ?? keysetOrder(k!);
    const at = cursor?.startsWith('@') ? Number(cursor.slice(1)) : (query.page - 1) * size;
    const offset = query.before?.startsWith('@') ? Math.max(0, at - size) : at;
    const shape = ranked ? 'ranked' : `position:${query.sort ?? opts.defaultSort}`;
    const rows = await fetch({ where: undefined, order, limit: size + 1, offset }, shape, { limit: size + 1, offset });
    const items = rows.slice(0, size);
    const byKey = !ranked && !cursor;
    const more = rows.length > size;
    return {
      items,
      ...(await total(offset === 0 ? rows.length : null)),
      // A position-paged list of an old client goes on by key from where it is.
      next: more ? (byKey ? String(opts.idOf(items[items.length - 1])) : `@${offset + size}`) : null,
      prev: offset > 0 ? (byKey && items.length ? String(opts.idOf(items[0])) : `@${offset}`) : null,
    };
  }
  const backwards = !!query.before;
  const seek = backwards ? { ...k, descending: !k.descending } : k;
  const shape = `key:${query.sort ?? opts.defaultSort}:${backwards ? 'before' : cursor ? 'after' : 'first'}`;
  const rows = await fetch(
    {
      where: cursor ? keysetAfter(seek, prepared ? sql.placeholder('cursor') : Number(cursor)) : undefined,
      order: keysetOrder(seek),
      limit: size + 1,
      offset: 0,
    },
    shape,
    { ...(cursor ? { cursor: Number(cursor) } : {}), limit: size + 1, offset: 0 },
  );
  const more = rows.length > size;
  const items = rows.slice(0, size);
  if (backwards) items.reverse();
  const first = items.length ? String(opts.idOf(items[0])) : null;
  const last = items.length ? String(opts.idOf(items[items.length - 1])) : null;
  return {
    items,
    ...(await total(cursor ? null : rows.length)),
    next: backwards ? (cursor ? (last ?? cursor) : null) : more ? last : null,
    prev: backwards ? (more ? first : null) : cursor ? (first ?? cursor) : null,
  };
}

/**
 * Large totals seen lately, per database handle: an estimate, or "at least COUNT_CAP" for the same filtered
 * count, is reused for `LARGE_TOTAL_TTL_MS` (paging on through a large list does not count again). Exact
 * totals are never reused: they change with every write.
 */
const LARGE_TOTAL_TTL_MS = 10_000;
const largeTotals = new WeakMap<Db, Map<string, { at: number; value: { total: number; totalKind: TotalKind } }>>();

function rememberedTotal(db: Db, key: string) {
  const hit = largeTotals.get(db)?.get(key);
  return hit && Date.now() - hit.at < LARGE_TOTAL_TTL_MS ? hit.value : undefined;
}

function rememberTotal(db: Db, key: string, value: { total: number; totalKind: TotalKind }) {
  let map = largeTotals.get(db);
  if (!map) {
    map = new Map();
    largeTotals.set(db, map);
  }
  if (map.size > 1000) map.clear();
  map.set(key, { at: Date.now(), value });
}

const tableOf = (column: AnyColumn) => (column as unknown as { table: unknown }).table;

/** The estimate of an unfiltered large table, or a count capped at COUNT_CAP + 1 rows. */
async function countRows(
  db: Db,
  count: () => Countable,
  table?: PgTable,
  prepared?: PreparedList,
  cap = COUNT_CAP,
): Promise<{ total: number; totalKind: TotalKind }> {
  const build = () => {
    const capped = count()
      .limit(cap + 1)
      .as('capped');
    return db.select({ n: sql<number>`count(*)::int` }).from(capped as never);
  };
  // The statement is built only when it has to run (not for a remembered total or an estimate).
  let statement: ReturnType<typeof build> | undefined;
  const key = table
    ? `estimate:${getTableName(table)}`
    : prepared
      ? `${prepared.key}|${JSON.stringify(prepared.values)}`
      : (() => {
          statement = build();
          const query = statement.toSQL();
          return `${query.sql}|${JSON.stringify(query.params)}`;
        })();
  const run = async () =>
    prepared
      ? preparedOf<{ n: number }>(db, `${prepared.key}|count`, build).execute(prepared.values)
      : (statement ?? build()).execute();
  const remembered = rememberedTotal(db, key);
  if (remembered) return remembered;
  if (table) {
    const result = (await db.execute(
      sql`select reltuples::bigint as n from pg_class where oid = ${getTableName(table)}::regclass`,
    )) as unknown as { rows: { n: number | string | null }[] };
    const estimate = Number(result.rows[0]?.n ?? -1);
    if (estimate > COUNT_CAP) {
      const value = { total: estimate, totalKind: 'estimate' as const };
      rememberTotal(db, key, value);
      return value;
    }
  }
  const [{ n }] = await run();
  if (n <= cap) return { total: n, totalKind: 'exact' };
  const value = { total: cap, totalKind: 'atLeast' as const };
  if (!table) rememberTotal(db, key, value);
  return value;
}
