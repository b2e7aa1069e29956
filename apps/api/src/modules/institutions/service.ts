import {
  AppError,
  type Ceiling,
  ceilingOf,
  detail,
  type InstitutionInput,
  type InstitutionListQuery,
  type InstitutionOptions,
  type InstitutionRecord,
  type Message,
  msg,
  SYSTEM_INSTITUTION,
  text,
} from '@aporta/domain';
import { and, asc, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { institutionRoles, institutions, municipalEntities, roles, userInstitutions } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { registerConstraintRules, rethrowDbError } from '../../platform/db-errors.ts';
import { keysetBatches, keysetOf, likePattern, listPage, type Page } from '../../platform/list.ts';
import { roleNames } from '../roles/service.ts';
import { assertSuperAdminRemains } from '../users/editing.ts';
import { assertWithinCeiling, assignableRoleIds, grantsOfRoles } from '../users/privilege.ts';

type Query = InstitutionListQuery;

registerConstraintRules({
  institutions_code_unique: { path: 'code', message: text('accounts.institutionCodeTaken') },
});

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
export async function findInstitutions(ctx: RequestContext, query: Query): Promise<Page<InstitutionRecord>> {
  const { db } = ctx;
  const where = filters(query);
  const page = await listPage(db, {
    query,
    sortable,
    defaultSort: 'name',
    rows: (c) =>
      select(db)
        .where(and(where, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.id,
    count: () => db.select({ id: institutions.id }).from(institutions).where(where),
  });
  return { ...page, items: await withRoles(db, page.items) };
}

/** Institutions in pages for the export. Holders of institutions: EXPORT. */
export function institutionBatches(ctx: RequestContext, query: Omit<Query, 'page' | 'pageSize'>) {
  const { db } = ctx;
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

async function loadInstitution(db: Db, id: number): Promise<InstitutionRecord> {
  const rows = await select(db).where(eq(institutions.id, id));
  if (!rows[0]) throw new AppError('NOT_FOUND', msg('accounts.institutionNotFound'));
  return (await withRoles(db, rows))[0];
}

/** One institution. Holders of institutions: READ. */
export const getInstitution = (ctx: RequestContext, input: { id: number }): Promise<InstitutionRecord> =>
  loadInstitution(ctx.db, input.id);

/**
 * Refuses default roles beyond the actor's ceiling: every member of the institution would receive them.
 * `refusal` words the message from the grants' description.
 */
async function assertRolesWithinCeiling(
  db: Db,
  ceiling: Ceiling,
  roleIds: readonly number[],
  refusal: (grants: string) => Message,
  path?: string,
) {
  assertWithinCeiling(ceiling, await grantsOfRoles(db, roleIds), refusal, path);
}

const defaultRolesRefusal = (grants: string) => msg('accounts.institutionGrantsBeyondCeiling', { grants });
const existingRolesRefusal = (name: string) => (grants: string) => msg('accounts.institutionBeyondCeiling', { name, grants });

/**
 * Roles (with `assignable`: within the actor's ceiling) and municipal entities the institution form
 * offers. Holders of institutions: READ.
 */
export async function institutionOptions(ctx: RequestContext): Promise<InstitutionOptions> {
  const { db } = ctx;
  const [roleRows, entities] = await Promise.all([
    assignableRoles(db, ceilingOf(ctx.user)),
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
  new AppError('DUPLICATE', msg('accounts.institutionCodeTaken'), [
    { path: 'code', ...detail(msg('accounts.institutionCodeTaken')) },
  ]);

const refuseSystem = () => new AppError('CONFLICT', msg('accounts.systemInstitutionFixed'));

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
      throw new AppError('VALIDATION', msg('accounts.entityMissing'), [
        { path: 'entityId', ...detail(msg('accounts.entityMissing')) },
      ]);
  }
  if (data.roleIds.length) {
    const found = await db.select({ id: roles.id }).from(roles).where(inArray(roles.id, data.roleIds));
    if (found.length !== data.roleIds.length) {
      throw new AppError('VALIDATION', msg('accounts.roleMissing'), [
        { path: 'roleIds', ...detail(msg('accounts.roleMissing')) },
      ]);
    }
  }
}

const snapshot = (i: Pick<InstitutionRecord, 'code' | 'name' | 'kind' | 'entityId' | 'isActive'> & { roles: string[] }) => i;

async function save(ctx: RequestContext, id: number | null, data: InstitutionInput): Promise<number> {
  const { db } = ctx;
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
        before = await loadInstitution(tx, id);
        instId = id;
        await tx
          .update(institutions)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(institutions.id, id));
        await tx.delete(institutionRoles).where(eq(institutionRoles.institutionId, id));
      }
      if (data.roleIds.length)
        await tx.insert(institutionRoles).values(data.roleIds.map((roleId) => ({ institutionId: instId, roleId })));
      const after = await loadInstitution(tx, instId);
      await ctx.audit(
        {
          action: id === null ? 'CREATE' : 'UPDATE',
          entityType: 'institution',
          entityId: instId,
          before: before ? snapshot({ ...before, roles: before.roles.map((r) => r.name) }) : null,
          after: snapshot({ ...after, roles: after.roles.map((r) => r.name) }),
        },
        tx,
      );
      return instId;
    });
  } catch (err) {
    rethrowDbError(err);
  }
}

/** Creates an institution with its default roles. Holders of institutions: CREATE. */
export async function createInstitution(ctx: RequestContext, data: InstitutionInput): Promise<InstitutionRecord> {
  await assertRolesWithinCeiling(ctx.db, ceilingOf(ctx.user), data.roleIds, defaultRolesRefusal, 'roleIds');
  const id = await save(ctx, null, data);
  return loadInstitution(ctx.db, id);
}

/** Updates an institution and replaces its default roles. SISTEMA is fixed. Holders of institutions: UPDATE. */
export async function updateInstitution(
  ctx: RequestContext,
  input: { id: number; data: InstitutionInput },
): Promise<InstitutionRecord> {
  const { db } = ctx;
  const ceiling = ceilingOf(ctx.user);
  const current = await loadInstitution(db, input.id);
  if (current.code === SYSTEM_INSTITUTION) throw refuseSystem();
  await assertRolesWithinCeiling(
    db,
    ceiling,
    current.roles.map((r) => r.id),
    existingRolesRefusal(current.name),
  );
  await assertRolesWithinCeiling(db, ceiling, input.data.roleIds, defaultRolesRefusal, 'roleIds');
  await save(ctx, input.id, input.data);
  return loadInstitution(db, input.id);
}

/** Deletes an institution nobody belongs to. Holders of institutions: DELETE. */
export async function deleteInstitution(ctx: RequestContext, input: { id: number }): Promise<void> {
  const { id } = input;
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select id from ${institutions} where ${institutions.id} = ${id} for update`);
    const inst = await loadInstitution(tx, id);
    if (inst.code === SYSTEM_INSTITUTION) throw refuseSystem();
    await assertRolesWithinCeiling(
      tx,
      ceilingOf(ctx.user),
      inst.roles.map((r) => r.id),
      existingRolesRefusal(inst.name),
    );
    if (inst.userCount > 0) {
      throw new AppError('CONFLICT', msg('accounts.institutionHasUsers', { name: inst.name, count: inst.userCount }));
    }
    await tx.delete(institutions).where(eq(institutions.id, id));
    await ctx.audit(
      {
        action: 'DELETE',
        entityType: 'institution',
        entityId: id,
        before: snapshot({ ...inst, roles: inst.roles.map((r) => r.name) }),
      },
      tx,
    );
    await assertSuperAdminRemains(tx);
  });
}
