import {
  AppError,
  type Ceiling,
  ceilingOf,
  detail,
  type Grant,
  type ListQuery,
  msg,
  type RoleInput,
  type RoleRecord,
  sortGrants,
  text,
} from '@aporta/domain';
import { and, asc, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { institutionRoles, roleGrants, roles, userRoles } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { registerConstraintRules, rethrowDbError } from '../../platform/db-errors.ts';
import { keysetBatches, keysetOf, likePattern, listPage, type Page } from '../../platform/list.ts';
import { assertWithinCeiling } from '../users/privilege.ts';

registerConstraintRules({ roles_name_unique: { path: 'name', message: text('accounts.roleNameTaken') } });

const sortable = { id: roles.id, name: roles.name, description: roles.description, updatedAt: roles.updatedAt };

const userCount = sql<number>`(select count(*)::int from ${userRoles} where ${userRoles.roleId} = ${roles.id})`;
const institutionCount = sql<number>`(select count(*)::int from ${institutionRoles} where ${institutionRoles.roleId} = ${roles.id})`;
const columns = {
  id: roles.id,
  name: roles.name,
  description: roles.description,
  updatedAt: roles.updatedAt,
  userCount,
  institutionCount,
};

function filters(q: Pick<ListQuery, 'q'>): SQL | undefined {
  if (!q.q) return undefined;
  const p = likePattern(q.q);
  return or(ilike(roles.name, p), ilike(roles.description, p));
}

type Row = { id: number; name: string; description: string; updatedAt: Date; userCount: number; institutionCount: number };

async function withGrants(db: Db, rows: Row[]): Promise<RoleRecord[]> {
  if (rows.length === 0) return [];
  const grants = await db
    .select()
    .from(roleGrants)
    .where(
      inArray(
        roleGrants.roleId,
        rows.map((r) => r.id),
      ),
    );
  return rows.map((r) => ({
    ...r,
    updatedAt: r.updatedAt.toISOString(),
    grants: sortGrants(
      grants.filter((g) => g.roleId === r.id).map((g) => ({ resource: g.resource, action: g.action, scope: g.scope }) as Grant),
    ),
  }));
}

/** Paginated roles with their grants and how many users and institutions use them. Holders of roles: READ. */
export async function findRoles(ctx: RequestContext, query: ListQuery): Promise<Page<RoleRecord>> {
  const { db } = ctx;
  const where = filters(query);
  const page = await listPage(db, {
    query,
    sortable,
    defaultSort: 'name',
    rows: (c) =>
      db
        .select(columns)
        .from(roles)
        .where(and(where, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.id,
    count: () => db.select({ id: roles.id }).from(roles).where(where),
  });
  return { ...page, items: await withGrants(db, page.items) };
}

/** Roles in pages for the export. Holders of roles: EXPORT. */
export function roleBatches(ctx: RequestContext, query: Omit<ListQuery, 'page' | 'pageSize'>) {
  const { db } = ctx;
  const where = filters(query);
  return keysetBatches(
    keysetOf(query.sort, sortable, 'name'),
    async (c) =>
      withGrants(
        db,
        await db
          .select(columns)
          .from(roles)
          .where(and(where, c.after))
          .orderBy(...c.order)
          .limit(c.limit),
      ),
    (r) => r.id,
  );
}

async function loadRole(db: Db, id: number): Promise<RoleRecord> {
  const rows = await db.select(columns).from(roles).where(eq(roles.id, id));
  if (!rows[0]) throw new AppError('NOT_FOUND', msg('accounts.roleNotFound'));
  return (await withGrants(db, rows))[0];
}

/** One role. Holders of roles: READ. */
export const getRole = (ctx: RequestContext, input: { id: number }): Promise<RoleRecord> => loadRole(ctx.db, input.id);

const duplicateName = () =>
  new AppError('DUPLICATE', msg('accounts.roleNameTaken'), [{ path: 'name', ...detail(msg('accounts.roleNameTaken')) }]);

async function assertNameFree(db: Db, name: string, exceptId?: number) {
  const [other] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(
      exceptId
        ? sql`lower(${roles.name}) = ${name.toLowerCase()} and ${ne(roles.id, exceptId)}`
        : sql`lower(${roles.name}) = ${name.toLowerCase()}`,
    )
    .limit(1);
  if (other) throw duplicateName();
}

const snapshot = (r: Pick<RoleRecord, 'name' | 'description' | 'grants'>) => ({
  name: r.name,
  description: r.description,
  grants: r.grants.map((g) => `${g.resource}:${g.action}:${g.scope}`),
});

async function save(ctx: RequestContext, id: number | null, data: RoleInput): Promise<number> {
  const { db } = ctx;
  await assertNameFree(db, data.name, id ?? undefined);
  try {
    return await db.transaction(async (tx) => {
      let roleId: number;
      let before: RoleRecord | null = null;
      if (id === null) {
        const [r] = await tx.insert(roles).values({ name: data.name, description: data.description }).returning({ id: roles.id });
        roleId = r.id;
      } else {
        before = await loadRole(tx, id);
        roleId = id;
        await tx
          .update(roles)
          .set({ name: data.name, description: data.description, updatedAt: new Date() })
          .where(eq(roles.id, id));
        await tx.delete(roleGrants).where(eq(roleGrants.roleId, id));
      }
      if (data.grants.length) await tx.insert(roleGrants).values(data.grants.map((g) => ({ roleId, ...g })));
      await ctx.audit(
        {
          action: id === null ? 'CREATE' : 'UPDATE',
          entityType: 'role',
          entityId: roleId,
          before: before ? snapshot(before) : null,
          after: snapshot({ ...data, grants: sortGrants(data.grants) }),
        },
        tx,
      );
      return roleId;
    });
  } catch (err) {
    rethrowDbError(err);
  }
}

/** Refuses acting on a role that grants more than the actor holds (nobody edits a role stronger than they are). */
const roleGrantsRefusal = (grants: string) => msg('accounts.roleGrantsBeyondCeiling', { grants });

function assertRoleWithinCeiling(ceiling: Ceiling, role: RoleRecord): void {
  assertWithinCeiling(ceiling, role.grants as Grant[], (grants) =>
    msg('accounts.roleBeyondCeiling', { name: role.name, grants }),
  );
}

/** Creates a role with its grants, none beyond the actor's own. Holders of roles: CREATE. */
export async function createRole(ctx: RequestContext, data: RoleInput): Promise<RoleRecord> {
  assertWithinCeiling(ceilingOf(ctx.user), data.grants, roleGrantsRefusal, 'grants');
  const id = await save(ctx, null, data);
  return loadRole(ctx.db, id);
}

/**
 * Replaces a role's name, description and grants, within the actor's ceiling. Holders of roles: UPDATE. Grants never make or
 * unmake a super administrator (that is membership of SISTEMA), so no role edit can remove the last one.
 */
export async function updateRole(ctx: RequestContext, input: { id: number; data: RoleInput }): Promise<RoleRecord> {
  const ceiling = ceilingOf(ctx.user);
  assertRoleWithinCeiling(ceiling, await loadRole(ctx.db, input.id));
  assertWithinCeiling(ceiling, input.data.grants, roleGrantsRefusal, 'grants');
  await save(ctx, input.id, input.data);
  return loadRole(ctx.db, input.id);
}

/** Deletes a role nobody uses; a role held by users or institutions must be reassigned first. Holders of roles: DELETE. */
export async function deleteRole(ctx: RequestContext, input: { id: number }): Promise<void> {
  const { id } = input;
  await ctx.db.transaction(async (tx) => {
    // Lock the role so a concurrent assignment cannot slip in between the count and the delete.
    await tx.execute(sql`select id from ${roles} where ${roles.id} = ${id} for update`);
    const role = await loadRole(tx, id);
    assertRoleWithinCeiling(ceilingOf(ctx.user), role);
    if (role.userCount > 0) {
      throw new AppError('CONFLICT', msg('accounts.roleHasUsers', { name: role.name, count: role.userCount }));
    }
    if (role.institutionCount > 0) {
      throw new AppError('CONFLICT', msg('accounts.roleIsInstitutionDefault', { name: role.name, count: role.institutionCount }));
    }
    await tx.delete(roles).where(eq(roles.id, id));
    await ctx.audit({ action: 'DELETE', entityType: 'role', entityId: id, before: snapshot(role) }, tx);
  });
}

/** Every role by name, for pickers. */
export const roleNames = (db: Db) => db.select({ id: roles.id, name: roles.name }).from(roles).orderBy(asc(roles.name));
