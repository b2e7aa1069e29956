import {
  AppError,
  type CollectionName,
  type CollectionRecord,
  type CollectionSchema,
  type CollectionSummary,
  type CurrentUser,
  collectionNames,
  type ErrorDetail,
  type FieldMeta,
  formatNit,
  normalizeNit,
  type ReferenceOption,
  SYSTEM_INSTITUTION,
} from '@aporta/domain';
import { and, asc, count, desc, eq, ilike, inArray, ne, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLog } from '../../db/schema/index.ts';
import { auditHistoryPage } from '../../platform/audit.ts';
import { type RequestContext, routeScope, withPermission } from '../../platform/context.ts';
import { toAppError } from '../../platform/db-errors.ts';
import type { ExportColumn } from '../../platform/export.ts';
import { likePattern, listPage } from '../../platform/list.ts';
import { isEntityInScope } from '../../platform/scope.ts';
import { type Collection, isEngineCollection, referenceTarget, referrersOf, registry, resourceOf } from './registry.ts';
import { columnValue, columnValues, recordValue } from './values.ts';

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
  if (!isEngineCollection(name)) throw new AppError('NOT_FOUND', `La colección «${name}» no existe.`);
  return registry[name];
}

const isSystemUser = (user: CurrentUser) => user.institucion.includes(SYSTEM_INSTITUTION);

/**
 * The route's own permission (resource = collection name) was checked by the access guard; writes on
 * reference data need more than the permission.
 */
function requireWrite(user: CurrentUser, c: Collection) {
  // Reference data from the official division of the country: only the super administrator edits it.
  if (c.def.systemOnlyWrites && !isSystemUser(user)) {
    throw new AppError('FORBIDDEN', `«${c.def.label}» son datos de referencia: solo el super administrador puede modificarlos.`);
  }
}

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

// ─── Query building ───────────────────────────────────────────────────────────────────────────────

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

/** The plain field values of a record: what the audit log keeps as before/after. */
const auditValues = (c: Collection, rec: CollectionRecord) => Object.fromEntries(c.def.fields.map((f) => [f.name, rec[f.name]]));

/** The municipal entity a record of an entity-keyed collection belongs to, for its audit rows' scope. */
function scopeEntityOf(c: Collection, rec: CollectionRecord | undefined): number | null {
  if (!c.entityColumn || !rec) return null;
  if (c.entityColumn === c.table.id) return rec.id;
  const field = Object.entries(c.table).find(([, col]) => col === c.entityColumn)?.[0];
  const v = field ? rec[field] : null;
  return typeof v === 'number' ? v : null;
}

/** The rows of an entity-keyed collection within the context's scope; undefined for other collections or ALL. */
function scopeCondition(ctx: RequestContext, c: Collection): SQL | undefined {
  return c.entityColumn ? ctx.inScope(c.entityColumn) : undefined;
}

function whereOf(ctx: RequestContext, c: Collection, query: Partial<FindQuery>): SQL | undefined {
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

function orderOf(c: Collection, sort: string | undefined): SQL[] {
  const spec = sort ?? c.def.defaultSort;
  const descending = spec.startsWith('-');
  const name = descending ? spec.slice(1) : spec;
  const f = c.def.fields.find((x) => x.name === name);
  if (!f && name !== 'id') {
    const choices = ['id', ...c.def.fields.map((x) => x.name)].join(', ');
    throw new AppError('VALIDATION', undefined, [
      { path: 'consulta.sort', message: `No se puede ordenar por "${name}". Opciones: ${choices}.` },
    ]);
  }
  const expr = !f ? sql`${c.table.id}` : f.type === 'reference' ? referenceLabel(c, f) : sql`${c.columns[f.name]}`;
  const primary = descending ? desc(expr) : asc(expr);
  return name === 'id' ? [primary] : [primary, asc(c.table.id)];
}

async function fetchRows(
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

async function loadOne(db: Db, c: Collection, id: number, scope?: SQL): Promise<CollectionRecord> {
  const [rec] = await fetchRows(db, c, and(eq(c.table.id, id), scope), [asc(c.table.id)], 1, 0);
  if (!rec) throw new AppError('NOT_FOUND', `No existe el registro ${id} en «${c.def.label}».`);
  return rec;
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
  if (!f) throw new AppError('NOT_FOUND', `«${c.def.label}» no tiene el campo de referencia «${field}».`);
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

// ─── Writes ───────────────────────────────────────────────────────────────────────────────────────

type Data = Record<string, unknown>;

/** Refuses references to rows that do not exist, and entities outside the user's scope. */
async function checkReferences(ctx: RequestContext, c: Collection, data: Data) {
  const { db } = ctx;
  const details: ErrorDetail[] = [];
  for (const f of c.def.fields) {
    const v = data[f.name];
    if (f.type !== 'reference' || v == null) continue;
    const target = referenceTarget(f.reference!.collection);
    const [row] = await db
      .select({ id: target.table.id })
      .from(target.table as never)
      .where(eq(target.table.id, v as number))
      .limit(1);
    if (!row) details.push({ path: f.name, message: `${f.label}: el registro ${v} no existe.` });
    else if (c.entityColumn === c.columns[f.name] && !(await isEntityInScope(ctx, v as number))) {
      details.push({ path: f.name, message: `${f.label}: la entidad está fuera de su alcance.` });
    }
  }
  if (details.length) throw new AppError('VALIDATION', 'Hay referencias que no son válidas.', details);
}

/** 409 naming the field(s) when another row already holds the same unique value(s). */
async function checkUnique(db: Db, c: Collection, data: Data, current: Data | null, excludeId?: number) {
  const groups = [...c.def.fields.filter((f) => f.unique).map((f) => [f.name]), ...(c.uniqueTogether ?? [])];
  for (const group of groups) {
    if (!group.some((g) => g in data)) continue;
    const values = group.map((g) => (g in data ? data[g] : current?.[g]));
    if (values.some((v) => v == null)) continue;
    const fieldOf = (g: string) => c.def.fields.find((f) => f.name === g)!;
    const [dup] = await db
      .select({ id: c.table.id })
      .from(c.table as never)
      .where(
        and(
          ...group.map((g, i) => eq(c.columns[g], columnValue(fieldOf(g), values[i]))),
          excludeId ? ne(c.table.id, excludeId) : undefined,
        ),
      )
      .limit(1);
    if (dup) throw duplicate(c, group, values);
  }
}

function duplicate(c: Collection, group: string[], values: unknown[]) {
  const labels = group.map((g) => c.def.fields.find((f) => f.name === g)?.label ?? g);
  const message =
    group.length === 1
      ? `Ya existe un registro en «${c.def.label}» con ${labels[0]} «${values[0]}».`
      : `Ya existe un registro en «${c.def.label}» con la misma combinación de ${labels.join(' y ')}.`;
  return new AppError(
    'DUPLICATE',
    message,
    group.map((g, i) => ({ path: g, message: `${labels[i]}: valor repetido.` })),
  );
}

/** Maps database constraint errors that slipped past the checks (races) onto the error catalogue. */
function mapDbError(c: Collection, err: unknown): never {
  throw toAppError(err, { subject: `en «${c.def.label}»` }) ?? err;
}

const hasUpdatedAt = (c: Collection) => 'updatedAt' in (c.table as object);

/** Creates a record and audits it in the same transaction. Needs CREATE (and SISTEMA for reference data). */
export async function createRecord(ctx: RequestContext, { name, data }: { name: string; data: Data }) {
  const { db } = ctx;
  const c = collectionOf(name);
  requireWrite(ctx.user, c);
  if (c.def.canCreateRows === false) {
    throw new AppError('CONFLICT', `Los registros de «${c.def.label}» son fijos: solo se editan su etiqueta, color y orden.`);
  }
  // A new entity has no region yet: only a user whose scope is ALL may create one.
  if (c.entityColumn === c.table.id && routeScope(ctx) !== 'ALL') {
    throw new AppError('FORBIDDEN', 'Solo un usuario con alcance total puede crear entidades.');
  }
  await checkReferences(ctx, c, data);
  await checkUnique(db, c, data, null);
  try {
    return await db.transaction(async (tx) => {
      const inserted = await tx
        .insert(c.table)
        .values(columnValues(c.def.fields, data) as never)
        .returning({ id: c.table.id });
      const row = inserted[0] as { id: number };
      const after = await loadOne(tx as unknown as Db, c, row.id);
      await ctx.audit(
        {
          action: 'CREATE',
          entityType: c.def.name,
          entityId: row.id,
          after: auditValues(c, after),
          scopeEntityId: scopeEntityOf(c, after),
        },
        tx,
      );
      return after;
    });
  } catch (err) {
    mapDbError(c, err);
  }
}

/** Updates some fields of a record in scope and audits before/after. Needs UPDATE. */
export async function updateRecord(ctx: RequestContext, { name, id, data }: { name: string; id: number; data: Data }) {
  const { db } = ctx;
  const c = collectionOf(name);
  requireWrite(ctx.user, c);
  const before = await loadOne(db, c, id, scopeCondition(ctx, c));
  await checkReferences(ctx, c, data);
  await checkUnique(db, c, data, before, id);
  try {
    return await db.transaction(async (tx) => {
      if (Object.keys(data).length > 0) {
        await tx
          .update(c.table)
          .set({ ...columnValues(c.def.fields, data), ...(hasUpdatedAt(c) ? { updatedAt: new Date() } : {}) } as never)
          .where(eq(c.table.id, id));
      }
      const after = await loadOne(tx as unknown as Db, c, id);
      await ctx.audit(
        {
          action: 'UPDATE',
          entityType: c.def.name,
          entityId: id,
          before: auditValues(c, before),
          after: auditValues(c, after),
          scopeEntityId: scopeEntityOf(c, after),
        },
        tx,
      );
      return after;
    });
  } catch (err) {
    mapDbError(c, err);
  }
}

/**
 * Deletes a record nothing references. A referenced one is refused naming who uses it, and offering
 * deactivation when the collection has an active flag. Needs DELETE.
 */
export async function deleteRecord(ctx: RequestContext, { name, id }: { name: string; id: number }) {
  await deleteRecords(ctx, { name, ids: [id] });
}

/**
 * Deletes several records at once, all or none: each must exist in scope and be referenced by nothing
 * (the first refusal names the record), then one transaction deletes and audits them. Needs DELETE.
 */
export async function deleteRecords(ctx: RequestContext, { name, ids }: { name: string; ids: readonly number[] }) {
  const { db } = ctx;
  const c = collectionOf(name);
  requireWrite(ctx.user, c);
  if (c.def.canDeleteRows === false) {
    throw new AppError('CONFLICT', `Los registros de «${c.def.label}» son fijos del ciclo de vida y no se eliminan.`);
  }
  const befores: CollectionRecord[] = [];
  for (const id of new Set(ids)) {
    const before = await loadOne(db, c, id, scopeCondition(ctx, c));
    await refuseIfReferenced(db, c, before);
    befores.push(before);
  }
  try {
    await db.transaction(async (tx) => {
      for (const before of befores) {
        await tx.delete(c.table).where(eq(c.table.id, before.id));
        await ctx.audit(
          {
            action: 'DELETE',
            entityType: c.def.name,
            entityId: before.id,
            before: auditValues(c, before),
            scopeEntityId: scopeEntityOf(c, before),
          },
          tx,
        );
      }
    });
  } catch (err) {
    mapDbError(c, err);
  }
}

async function refuseIfReferenced(db: Db, c: Collection, before: CollectionRecord) {
  const uses: { label: string; n: number }[] = [];
  for (const r of referrersOf(c.table)) {
    const [{ n }] = await db.select({ n: count() }).from(r.table).where(eq(r.column, before.id));
    if (Number(n) > 0) uses.push({ label: r.label, n: Number(n) });
  }
  if (uses.length) {
    const list = uses.map((u) => `${u.n} ${u.n === 1 ? 'registro' : 'registros'} de «${u.label}»`);
    const joined = list.length > 1 ? `${list.slice(0, -1).join(', ')} y ${list.at(-1)}` : list[0];
    const hasActive = c.def.fields.some((f) => f.name === 'isActive');
    throw new AppError(
      'CONFLICT',
      `No se puede eliminar «${before.label}»: lo usan ${joined}. ${hasActive ? 'Puede desactivarlo en su lugar.' : 'Elimine primero esas referencias.'}`,
      uses.map((u) => ({ path: u.label, message: `${u.n} ${u.n === 1 ? 'registro' : 'registros'}` })),
    );
  }
}
