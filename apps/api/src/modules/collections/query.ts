import {
  AppError,
  type CollectionRecord,
  type CurrentUser,
  detail,
  type FieldMeta,
  msg,
  normalizeNit,
  SYSTEM_INSTITUTION,
} from '@aporta/domain';
import { and, asc, desc, eq, ilike, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { RequestContext } from '../../platform/context.ts';
import { likePattern } from '../../platform/list.ts';
import { type Collection, isEngineCollection, referenceTarget, registry } from './registry.ts';
import { columnValue, recordValue } from './values.ts';

/**
 * How the catalogue engine reads a collection's rows: the collection by name, its scope, search, filters
 * and order as SQL, and its rows as records. The reads (service.ts) and the writes (writes.ts) share it.
 */

/** A list query after validation: paging, sort, search and the collection's exact-match filters. */
export interface FindQuery {
  page: number;
  pageSize: number;
  sort?: string;
  q?: string;
  [filter: string]: unknown;
}

/** The collection called `name`; 404 with a Spanish message when there is none. */
export function collectionOf(name: string): Collection {
  if (!isEngineCollection(name)) throw new AppError('NOT_FOUND', msg('catalogs.collectionNotFound', { name }));
  return registry[name];
}

/** Whether the user belongs to the system institution (the super administrator). */
export const isSystemUser = (user: CurrentUser) => user.institucion.includes(SYSTEM_INSTITUTION);

const refLabelKey = (field: string) => `__ref_${field}`;

/** SQL of the display label of the row a reference field points to. */
function referenceLabel(c: Collection, f: FieldMeta): SQL {
  const target = referenceTarget(f.reference!.collection);
  return sql`(select ${target.display} from ${target.table} where ${target.table.id} = ${c.columns[f.name]})`;
}

function selection(c: Collection): Record<string, SQL | Collection['columns'][string]> {
  const out: Record<string, SQL | Collection['columns'][string]> = { id: c.table.id, __label: sql<string>`${c.display}` };
  for (const f of c.def.fields) {
    out[f.name] = c.columns[f.name];
    if (f.type === 'reference') out[refLabelKey(f.name)] = sql<string | null>`${referenceLabel(c, f)}`;
  }
  return out;
}

function toRecord(c: Collection, row: Record<string, unknown>): CollectionRecord {
  const rec: CollectionRecord = { id: Number(row.id), label: String(row.__label ?? `#${row.id}`), labels: {} };
  for (const f of c.def.fields) {
    rec[f.name] = recordValue(f, row[f.name]);
    if (f.type === 'reference') rec.labels[f.name] = (row[refLabelKey(f.name)] as string | null) ?? null;
  }
  return rec;
}

/** The rows of an entity-keyed collection within the context's scope; undefined for other collections or ALL. */
export function scopeCondition(ctx: RequestContext, c: Collection): SQL | undefined {
  return c.entityColumn ? ctx.inScope(c.entityColumn) : undefined;
}

export function whereOf(ctx: RequestContext, c: Collection, query: Partial<FindQuery>): SQL | undefined {
  const conds: (SQL | undefined)[] = [scopeCondition(ctx, c)];
  if (query.q) {
    const pattern = likePattern(query.q);
    const searchable = c.def.fields.filter((f) => f.searchable);
    const parts = searchable.map((f) =>
      f.type === 'reference'
        ? sql`${referenceLabel(c, f)} ilike ${pattern}`
        : f.type === 'nit'
          ? // Stored without dash (576937K): `576937-K` typed finds it too.
            ilike(c.columns[f.name], likePattern(normalizeNit(query.q!)))
          : f.type === 'text' || f.type === 'enum'
            ? ilike(c.columns[f.name], pattern)
            : sql`${c.columns[f.name]}::text ilike ${pattern}`,
    );
    conds.push(parts.length ? or(...parts) : sql`false`);
  }
  for (const f of c.def.fields) {
    const v = query[f.name];
    if (f.filterable && v !== undefined && v !== null && v !== '') conds.push(eq(c.columns[f.name], columnValue(f, v)));
  }
  return and(...conds);
}

export function orderOf(c: Collection, sort: string | undefined): SQL[] {
  const spec = sort ?? c.def.defaultSort;
  const descending = spec.startsWith('-');
  const name = descending ? spec.slice(1) : spec;
  const f = c.def.fields.find((x) => x.name === name);
  if (!f && name !== 'id') {
    const choices = ['id', ...c.def.fields.map((x) => x.name)].join(', ');
    throw new AppError('VALIDATION', undefined, [
      { path: 'consulta.sort', ...detail(msg('catalogs.sortInvalid', { name, choices })) },
    ]);
  }
  const expr = !f ? sql`${c.table.id}` : f.type === 'reference' ? referenceLabel(c, f) : sql`${c.columns[f.name]}`;
  const primary = descending ? desc(expr) : asc(expr);
  return name === 'id' ? [primary] : [primary, asc(c.table.id)];
}

export async function fetchRows(
  db: Db,
  c: Collection,
  where: SQL | undefined,
  order: SQL[],
  limit: number | Placeholder,
  offset: number | Placeholder,
) {
  const rows = await db
    .select(selection(c) as never)
    .from(c.table as never)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return (rows as Record<string, unknown>[]).map((r) => toRecord(c, r));
}

/** One record of `c` by id within `scope`; 404 naming the record when there is none. */
export async function loadOne(db: Db, c: Collection, id: number, scope?: SQL): Promise<CollectionRecord> {
  const [rec] = await fetchRows(db, c, and(eq(c.table.id, id), scope), [asc(c.table.id)], 1, 0);
  if (!rec) throw new AppError('NOT_FOUND', msg('catalogs.recordNotFound', { id, collection: c.def.label }));
  return rec;
}
