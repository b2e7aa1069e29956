import {
  AppError,
  type CollectionName,
  type CollectionRecord,
  type CollectionSchema,
  type CollectionSummary,
  collectionNames,
  formatNit,
  msg,
  type ReferenceOption,
} from '@aporta/domain';
import { and, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { auditLog } from '../../db/schema/index.ts';
import { auditHistoryPage } from '../../platform/audit.ts';
import { type RequestContext, withPermission } from '../../platform/context.ts';
import type { ExportColumn } from '../../platform/export.ts';
import { likePattern, listPage } from '../../platform/list.ts';
import { collectionOf, type FindQuery, fetchRows, isSystemUser, loadOne, orderOf, scopeCondition, whereOf } from './query.ts';
import { referenceTarget, registry, resourceOf } from './registry.ts';

/**
 * The catalogue engine's reads: which collections a user may read and what they may do on each, lists,
 * records, exports, reference options, a record's history and the overview counts. Writes are in writes.ts.
 */

/** Names of the collections the user may read: GET /api/collections. Any signed-in user. */
export function readableCollections(ctx: RequestContext): string[] {
  return collectionNames.filter((n) => !!ctx.scopeFor(n, 'READ'));
}

/** Metadata of a collection plus the actions this user holds on it. Needs READ. */
export function schemaOf(ctx: RequestContext, input: { name: string }): CollectionSchema {
  const { user } = ctx;
  const c = collectionOf(input.name);
  const perms = user.permissions[resourceOf(c.def)] ?? {};
  let actions = (['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT'] as const).filter((a) => !!perms[a]);
  if (c.def.systemOnlyWrites && !isSystemUser(user)) actions = actions.filter((a) => a === 'READ' || a === 'EXPORT');
  if (c.def.canCreateRows === false) actions = actions.filter((a) => a !== 'CREATE');
  if (c.def.canDeleteRows === false) actions = actions.filter((a) => a !== 'DELETE');
  return {
    name: c.def.name,
    labelKey: `catalogs.collections.${c.def.name}`,
    label: c.def.label,
    fields: c.def.fields,
    defaultSort: c.def.defaultSort,
    systemOnlyWrites: !!c.def.systemOnlyWrites,
    canCreateRows: c.def.canCreateRows !== false,
    canDeleteRows: c.def.canDeleteRows !== false,
    hasActiveFlag: c.def.fields.some((f) => f.name === 'isActive'),
    actions,
  };
}

// ─── Reads ────────────────────────────────────────────────────────────────────────────────────────

/** Paginated, searched, sorted and filtered list of a collection, inside the user's data scope. Needs READ. */
export async function findRecords(ctx: RequestContext, { name, query }: { name: string; query: FindQuery }) {
  const { db } = ctx;
  const c = collectionOf(name);
  const where = whereOf(ctx, c, query);
  // A catalogue may sort by a reference's label (an expression, not a column): it pages by position
  // (`@offset` cursors). Catalogues are small.
  const order = orderOf(c, query.sort);
  return listPage(db, {
    query,
    sortable: { id: c.table.id },
    defaultSort: 'id',
    ranked: order,
    rows: (chunk) => fetchRows(db, c, where, chunk.order, chunk.limit, chunk.offset),
    idOf: (r) => r.id,
    count: () =>
      db
        .select({ id: c.table.id })
        .from(c.table as never)
        .where(where),
  });
}

/**
 * Every record of a collection matching exact-match `filter`s, in `sort` order (default the
 * collection's), at most `limit` (1000): the template's data calls answer whole small lists. Needs READ.
 */
export async function allRecords(
  ctx: RequestContext,
  { name, filter = {}, sort, limit = 1000 }: { name: string; filter?: Record<string, unknown>; sort?: string; limit?: number },
): Promise<CollectionRecord[]> {
  const c = collectionOf(name);
  return fetchRows(ctx.db, c, whereOf(ctx, c, filter), orderOf(c, sort), Math.min(limit, 1000), 0);
}

/** One record by id (404 when missing or outside the user's scope). Needs READ. */
export async function getRecord(ctx: RequestContext, { name, id }: { name: string; id: number }): Promise<CollectionRecord> {
  const c = collectionOf(name);
  return loadOne(ctx.db, c, id, scopeCondition(ctx, c));
}

/**
 * Rows and columns of an export with the list's filters, read in batches. Needs EXPORT, and READ too:
 * the rows are those both grants reach.
 */
export function exportPlan(ctx: RequestContext, { name, query }: { name: string; query: Partial<FindQuery> }) {
  const { db } = ctx;
  const c = collectionOf(name);
  const reader = withPermission(ctx, resourceOf(c.def), 'READ');
  const where = and(whereOf(ctx, c, query), scopeCondition(reader, c));
  const order = orderOf(c, query.sort);
  const columns: ExportColumn<CollectionRecord>[] = [
    { header: 'ID', value: (r) => r.id, width: 8 },
    ...c.def.fields.map(
      (f): ExportColumn<CollectionRecord> => ({
        header: f.label,
        width: f.type === 'reference' || f.name === 'name' ? 36 : undefined,
        value: (r) => {
          if (f.type === 'reference') return r.labels[f.name] ?? '';
          const v = r[f.name];
          if (f.type === 'boolean') return v ? 'Sí' : 'No';
          if (f.type === 'nit' && typeof v === 'string') return formatNit(v);
          return v as string | number | null;
        },
        ...(f.type === 'money' ? { money: true } : {}),
      }),
    ),
  ];
  return {
    filename: c.def.name,
    sheetName: c.def.label.slice(0, 31),
    columns,
    fetchPage: (limit: number, offset: number) => fetchRows(db, c, where, order, limit, offset),
  };
}

/** Options of a reference field for searchable selects: by text, or the given ids. Needs READ on the holder. */
export async function referenceOptions(
  ctx: RequestContext,
  { name, field, q, ids }: { name: string; field: string; q?: string; ids?: number[] },
): Promise<ReferenceOption[]> {
  const { db } = ctx;
  const c = collectionOf(name);
  const f = c.def.fields.find((x) => x.name === field && x.type === 'reference');
  if (!f) throw new AppError('NOT_FOUND', msg('catalogs.referenceFieldNotFound', { collection: c.def.label, field }));
  const target = referenceTarget(f.reference!.collection);
  const conds: (SQL | undefined)[] = [];
  // Entities offered follow the scope the user has on the collection being edited.
  if (f.reference!.collection === 'municipal-entities') conds.push(ctx.inScope(target.table.id));
  if (ids?.length) conds.push(inArray(target.table.id, ids));
  else if (q) conds.push(sql`${target.display} ilike ${likePattern(q)}`);
  const rows = await db
    .select({ value: target.table.id, label: sql<string>`${target.display}` })
    .from(target.table as never)
    .where(and(...conds))
    .orderBy(sql`${target.display}`)
    .limit(ids?.length ? ids.length : 30);
  return (rows as { value: number; label: string | null }[]).map((r) => ({
    value: Number(r.value),
    label: r.label ?? `#${r.value}`,
  }));
}

/**
 * Change history of one record, newest first, a page at a time, from the audit log (the platform's one
 * history reader: field before → after). Needs READ on the collection.
 */
export async function recordHistory(
  ctx: RequestContext,
  { name, id, page = 1, pageSize = 20 }: { name: string; id: number; page?: number; pageSize?: number },
) {
  const { db } = ctx;
  const c = collectionOf(name);
  const where = and(eq(auditLog.entityType, c.def.name), eq(auditLog.entityId, String(id)));
  await loadOne(db, c, id, scopeCondition(ctx, c)).catch(async (err) => {
    // A deleted record still has a history; only an out-of-scope or never-existing one is refused.
    const [any] = await db.select({ n: count() }).from(auditLog).where(where);
    if (!any.n || c.entityColumn) throw err;
  });
  return auditHistoryPage(ctx, where, { page, pageSize });
}

/** Row counts of every collection the user may read (the /administrative overview), in scope. */
export async function collectionSummary(ctx: RequestContext): Promise<CollectionSummary> {
  const out: CollectionSummary = [];
  for (const name of readableCollections(ctx)) {
    const c = registry[name as CollectionName];
    const [{ n }] = await ctx.db
      .select({ n: count() })
      .from(c.table as never)
      .where(scopeCondition(withPermission(ctx, name as CollectionName, 'READ'), c));
    out.push({ name, labelKey: `catalogs.collections.${name}`, label: c.def.label, count: Number(n) });
  }
  return out;
}
