import type { ListQuery } from '@aporta/domain';
import { AppError } from '@aporta/domain';
import { type AnyColumn, asc, desc, type SQL, sql } from 'drizzle-orm';

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
      { path: 'consulta.sort', message: `No se puede ordenar por "${field}". Opciones: ${Object.keys(columns).join(', ')}.` },
    ]);
  }
  return { column, descending };
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
}

export function keysetOf(sort: string | undefined, columns: Record<string, AnyColumn>, fallback: string, id?: AnyColumn): Keyset {
  const { column, descending } = sortColumn(sort, columns, fallback);
  const key = id ?? columns.id;
  if (!key) throw new Error('keysetOf needs the id column of the table');
  return { column, id: key, descending };
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
export function keysetAfter(k: Keyset, lastId: number): SQL {
  const { column: col, id, descending } = k;
  if (col === id) return descending ? sql`${id} < ${lastId}` : sql`${id} > ${lastId}`;
  const table = (col as unknown as { table: unknown }).table;
  const last = sql`(select ${col} from ${table} where ${id} = ${lastId})`;
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
    lastId = idOf(rows[rows.length - 1]);
  }
}
