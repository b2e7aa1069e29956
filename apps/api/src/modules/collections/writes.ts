import { AppError, type CollectionRecord, type CurrentUser, detail, type ErrorDetail, msg } from '@aporta/domain';
import { and, count, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type RequestContext, routeScope } from '../../platform/context.ts';
import { toAppError } from '../../platform/db-errors.ts';
import { isEntityInScope } from '../../platform/scope.ts';
import { collectionOf, isSystemUser, loadOne, scopeCondition } from './query.ts';
import { type Collection, referenceTarget, referrersOf } from './registry.ts';
import { columnValue, columnValues } from './values.ts';

/**
 * The catalogue engine's writes: create, update and delete records (one or several), each checked
 * (reference data, references, unique values, what refers to a record) and audited in its transaction.
 */

/**
 * The route's own permission (resource = collection name) was checked by the access guard; writes on
 * reference data need more than the permission.
 */
function requireWrite(user: CurrentUser, c: Collection) {
  // Reference data from the official division of the country: only the super administrator edits it.
  if (c.def.systemOnlyWrites && !isSystemUser(user)) {
    throw new AppError('FORBIDDEN', msg('catalogs.referenceDataSystemOnly', { collection: c.def.label }));
  }
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
    if (!row) details.push({ path: f.name, ...detail(msg('catalogs.referenceNotFound', { field: f.label, id: v as number })) });
    else if (c.entityColumn === c.columns[f.name] && !(await isEntityInScope(ctx, v as number))) {
      details.push({ path: f.name, ...detail(msg('catalogs.referenceEntityOutOfScope', { field: f.label })) });
    }
  }
  if (details.length) throw new AppError('VALIDATION', msg('catalogs.invalidReferences'), details);
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
      ? msg('catalogs.duplicateValue', { collection: c.def.label, field: labels[0], value: String(values[0]) })
      : msg('catalogs.duplicateCombination', { collection: c.def.label, fields: labels.join(' y ') });
  return new AppError(
    'DUPLICATE',
    message,
    group.map((g, i) => ({ path: g, ...detail(msg('catalogs.valueRepeated', { field: labels[i] })) })),
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
    throw new AppError('CONFLICT', msg('catalogs.rowsFixed', { collection: c.def.label }));
  }
  // A new entity has no region yet: only a user whose scope is ALL may create one.
  if (c.entityColumn === c.table.id && routeScope(ctx) !== 'ALL') {
    throw new AppError('FORBIDDEN', msg('catalogs.entityCreateNeedsAllScope'));
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
    throw new AppError('CONFLICT', msg('catalogs.rowsFixedNoDelete', { collection: c.def.label }));
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
    const params = { label: String(before.label), uses: joined };
    throw new AppError(
      'CONFLICT',
      hasActive ? msg('catalogs.inUseDeactivate', params) : msg('catalogs.inUseRemoveReferences', params),
      uses.map((u) => ({
        path: u.label,
        ...detail(msg(u.n === 1 ? 'catalogs.referrerCountOne' : 'catalogs.referrerCountMany', { count: u.n })),
      })),
    );
  }
}
