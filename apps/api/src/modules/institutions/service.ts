import type { institutionListQuerySchema } from '@aporta/domain';
import { AppError, type Ceiling, type InstitutionInput, type InstitutionRecord, SYSTEM_INSTITUTION } from '@aporta/domain';
import { and, asc, count, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { institutionRoles, institutions, municipalEntities, roles, userInstitutions } from '../../db/schema/index.ts';
import { type Actor, writeAudit } from '../../platform/audit.ts';
import { keysetBatches, keysetOf, likePattern, orderBy, pageOf } from '../../platform/list.ts';
import { isUniqueViolation } from '../auth/service.ts';
import { roleNames } from '../roles/service.ts';
import { assertWithinCeiling, assignableRoleIds, grantsOfRoles } from '../users/privilege.ts';
import { assertSuperAdminRemains } from '../users/service.ts';

type Query = z.infer<typeof institutionListQuerySchema>;

const sortable = {
  id: institutions.id,
  code: institutions.code,
  name: institutions.name,
  kind: institutions.kind,
  isActive: institutions.isActive,
};
const userCount = sql<number>`(select count(*)::int from ${userInstitutions} where ${userInstitutions.institutionId} = ${institutions.id})`;
const columns = {
  id: institutions.id,
  code: institutions.code,
  name: institutions.name,
  kind: institutions.kind,
  entityId: institutions.entityId,
  entityName: municipalEntities.name,
  isActive: institutions.isActive,
  userCount,
};

function filters(q: Omit<Query, 'page' | 'pageSize' | 'sort'>): SQL | undefined {
  const conds: (SQL | undefined)[] = [];
  if (q.q) {
    const p = likePattern(q.q);
    conds.push(or(ilike(institutions.code, p), ilike(institutions.name, p)));
  }
  if (q.kind) conds.push(eq(institutions.kind, q.kind));
  if (q.isActive) conds.push(eq(institutions.isActive, q.isActive === 'true'));
  return and(...conds);
}

type Row = Omit<InstitutionRecord, 'roles'>;

async function withRoles(db: Db, rows: Row[]): Promise<InstitutionRecord[]> {
  if (rows.length === 0) return [];
  const links = await db
    .select({ institutionId: institutionRoles.institutionId, id: roles.id, name: roles.name })
    .from(institutionRoles)
    .innerJoin(roles, eq(roles.id, institutionRoles.roleId))
    .where(
      inArray(
        institutionRoles.institutionId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(roles.name));
  return rows.map((r) => ({ ...r, roles: links.filter((l) => l.institutionId === r.id).map(({ id, name }) => ({ id, name })) }));
}

const select = (db: Db) =>
  db.select(columns).from(institutions).leftJoin(municipalEntities, eq(municipalEntities.id, institutions.entityId));

/** Paginated institutions with their default roles and how many users belong. Holders of institutions: READ. */
export async function findInstitutions(opts: { db: Db; query: Query }): Promise<{ items: InstitutionRecord[]; total: number }> {
  const { db, query } = opts;
  const where = filters(query);
  const [rows, [{ total }]] = await Promise.all([
    select(db)
      .where(where)
      .orderBy(...orderBy(query.sort, sortable, 'name'))
      .limit(pageOf(query).limit)
      .offset(pageOf(query).offset),
    db.select({ total: count() }).from(institutions).where(where),
  ]);
  return { items: await withRoles(db, rows), total };
}

/** Institutions in pages for the export. Holders of institutions: EXPORT. */
export function institutionBatches(db: Db, query: Omit<Query, 'page' | 'pageSize'>) {
  const where = filters(query);
  return keysetBatches(
    keysetOf(query.sort, sortable, 'name'),
    async (c) =>
      withRoles(
        db,
        await select(db)
          .where(and(where, c.after))
          .orderBy(...c.order)
          .limit(c.limit),
      ),
    (r) => r.id,
  );
}

/** One institution. Holders of institutions: READ. */
export async function getInstitution(opts: { db: Db; id: number }): Promise<InstitutionRecord> {
  const rows = await select(opts.db).where(eq(institutions.id, opts.id));
  if (!rows[0]) throw new AppError('NOT_FOUND', 'La institución no existe.');
  return (await withRoles(opts.db, rows))[0];
}

/**
 * Refuses default roles beyond the actor's ceiling: every member of the institution would receive them.
 * `what` names the institution in the message.
 */
async function assertRolesWithinCeiling(db: Db, ceiling: Ceiling, roleIds: readonly number[], what: string, path?: string) {
  assertWithinCeiling(ceiling, await grantsOfRoles(db, roleIds), what, path);
}

/**
 * Roles (with `assignable`: within the actor's ceiling) and municipal entities the institution form
 * offers. Holders of institutions: READ.
 */
export async function institutionOptions(db: Db, ceiling: Ceiling) {
  const [roleRows, entities] = await Promise.all([
    assignableRoles(db, ceiling),
    db
      .select({ id: municipalEntities.id, code: municipalEntities.code, name: municipalEntities.name })
      .from(municipalEntities)
      .where(eq(municipalEntities.isActive, true))
      .orderBy(asc(municipalEntities.name)),
  ]);
  return { roles: roleRows, entities };
}

async function assignableRoles(db: Db, ceiling: Ceiling) {
  const rows = await roleNames(db);
  const ok = await assignableRoleIds(
    db,
    ceiling,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, assignable: ok.has(r.id) }));
}

const duplicateCode = () =>
  new AppError('DUPLICATE', 'Ya existe una institución con ese código.', [
    { path: 'code', message: 'Ya existe una institución con ese código.' },
  ]);

const refuseSystem = () =>
  new AppError('CONFLICT', 'La institución SISTEMA la define el sistema: no se puede modificar, desactivar ni eliminar.');

async function validate(db: Db, data: InstitutionInput, exceptId?: number) {
  if (data.code === SYSTEM_INSTITUTION) throw duplicateCode();
  const [other] = await db
    .select({ id: institutions.id })
    .from(institutions)
    .where(and(eq(institutions.code, data.code), exceptId ? ne(institutions.id, exceptId) : undefined))
    .limit(1);
  if (other) throw duplicateCode();
  if (data.entityId != null) {
    const [e] = await db
      .select({ id: municipalEntities.id })
      .from(municipalEntities)
      .where(eq(municipalEntities.id, data.entityId));
    if (!e)
      throw new AppError('VALIDATION', 'La entidad municipal no existe.', [
        { path: 'entityId', message: 'La entidad municipal no existe.' },
      ]);
  }
  if (data.roleIds.length) {
    const found = await db.select({ id: roles.id }).from(roles).where(inArray(roles.id, data.roleIds));
    if (found.length !== data.roleIds.length) {
      throw new AppError('VALIDATION', 'Uno de los roles no existe.', [
        { path: 'roleIds', message: 'Uno de los roles no existe.' },
      ]);
    }
  }
}

const snapshot = (i: Pick<InstitutionRecord, 'code' | 'name' | 'kind' | 'entityId' | 'isActive'> & { roles: string[] }) => i;

async function save(db: Db, actor: Actor, id: number | null, data: InstitutionInput): Promise<number> {
  await validate(db, data, id ?? undefined);
  const values = { code: data.code, name: data.name, kind: data.kind, entityId: data.entityId, isActive: data.isActive };
  try {
    return await db.transaction(async (tx) => {
      let instId: number;
      let before: InstitutionRecord | null = null;
      if (id === null) {
        const [r] = await tx.insert(institutions).values(values).returning({ id: institutions.id });
        instId = r.id;
      } else {
        before = await getInstitution({ db: tx, id });
        instId = id;
        await tx
          .update(institutions)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(institutions.id, id));
        await tx.delete(institutionRoles).where(eq(institutionRoles.institutionId, id));
      }
      if (data.roleIds.length)
        await tx.insert(institutionRoles).values(data.roleIds.map((roleId) => ({ institutionId: instId, roleId })));
      const after = await getInstitution({ db: tx, id: instId });
      await writeAudit(tx, actor, {
        action: id === null ? 'CREATE' : 'UPDATE',
        entityType: 'institution',
        entityId: instId,
        before: before ? snapshot({ ...before, roles: before.roles.map((r) => r.name) }) : null,
        after: snapshot({ ...after, roles: after.roles.map((r) => r.name) }),
      });
      return instId;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateCode();
    throw err;
  }
}

/** Creates an institution with its default roles. Holders of institutions: CREATE. */
export async function createInstitution(opts: {
  db: Db;
  actor: Actor;
  ceiling: Ceiling;
  data: InstitutionInput;
}): Promise<InstitutionRecord> {
  await assertRolesWithinCeiling(
    opts.db,
    opts.ceiling,
    opts.data.roleIds,
    'La institución, por sus roles predeterminados,',
    'roleIds',
  );
  const id = await save(opts.db, opts.actor, null, opts.data);
  return getInstitution({ db: opts.db, id });
}

/** Updates an institution and replaces its default roles. SISTEMA is fixed. Holders of institutions: UPDATE. */
export async function updateInstitution(opts: {
  db: Db;
  actor: Actor;
  id: number;
  ceiling: Ceiling;
  data: InstitutionInput;
}): Promise<InstitutionRecord> {
  const current = await getInstitution({ db: opts.db, id: opts.id });
  if (current.code === SYSTEM_INSTITUTION) throw refuseSystem();
  await assertRolesWithinCeiling(
    opts.db,
    opts.ceiling,
    current.roles.map((r) => r.id),
    `No puede modificar ni eliminar la institución "${current.name}": sus roles predeterminados`,
  );
  await assertRolesWithinCeiling(
    opts.db,
    opts.ceiling,
    opts.data.roleIds,
    'La institución, por sus roles predeterminados,',
    'roleIds',
  );
  await save(opts.db, opts.actor, opts.id, opts.data);
  return getInstitution({ db: opts.db, id: opts.id });
}

/** Deletes an institution nobody belongs to. Holders of institutions: DELETE. */
export async function deleteInstitution(opts: { db: Db; actor: Actor; ceiling: Ceiling; id: number }): Promise<void> {
  const { db, actor, id } = opts;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select id from ${institutions} where ${institutions.id} = ${id} for update`);
    const inst = await getInstitution({ db: tx, id });
    if (inst.code === SYSTEM_INSTITUTION) throw refuseSystem();
    await assertRolesWithinCeiling(
      tx,
      opts.ceiling,
      inst.roles.map((r) => r.id),
      `No puede modificar ni eliminar la institución "${inst.name}": sus roles predeterminados`,
    );
    if (inst.userCount > 0) {
      throw new AppError(
        'CONFLICT',
        `La institución "${inst.name}" tiene ${inst.userCount} usuario(s). Quíteselos o desactívela en lugar de eliminarla.`,
      );
    }
    await tx.delete(institutions).where(eq(institutions.id, id));
    await writeAudit(tx, actor, {
      action: 'DELETE',
      entityType: 'institution',
      entityId: id,
      before: snapshot({ ...inst, roles: inst.roles.map((r) => r.name) }),
    });
    await assertSuperAdminRemains(tx);
  });
}
