import {
  AppError,
  ceilingOf,
  SYSTEM_INSTITUTION,
  type UserInput,
  type UserListQuery,
  type UserOptions,
  type UserRecord,
} from '@aporta/domain';
import { and, asc, count, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  institutionRoles,
  institutions,
  loginFailures,
  roles,
  sessions,
  userInstitutions,
  userRoles,
  users,
} from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { registerConstraintRules, rethrowDbError } from '../../platform/db-errors.ts';
import { keysetBatches, keysetOf, likePattern, listPage, type Page } from '../../platform/list.ts';
import { generatePassword, hashPassword } from '../../platform/passwords.ts';
import { usersInScope } from '../../platform/scope.ts';
import { revokeAllSessions } from '../../platform/session.ts';
import { clearLoginFailures, duplicateEmail } from '../auth/service.ts';
import { assertCanActOn, assertCanAssign, assignableRoleIds } from './privilege.ts';

registerConstraintRules({
  users_email_key: { path: 'email', message: 'Ya existe una cuenta con ese correo electrónico.' },
});

const sortable = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  isActive: users.isActive,
  lastLoginAt: users.lastLoginAt,
  createdAt: users.createdAt,
};

function filters(q: Omit<UserListQuery, 'page' | 'pageSize' | 'sort'>): SQL | undefined {
  const conds: (SQL | undefined)[] = [];
  if (q.q) {
    const p = likePattern(q.q);
    conds.push(
      or(
        ilike(users.email, p),
        ilike(users.firstName, p),
        ilike(users.lastName, p),
        sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${p}`,
      ),
    );
  }
  if (q.isActive) conds.push(eq(users.isActive, q.isActive === 'true'));
  if (q.roleId) {
    conds.push(inArray(users.id, sql`(select ${userRoles.userId} from ${userRoles} where ${userRoles.roleId} = ${q.roleId})`));
  }
  if (q.institutionId) {
    conds.push(
      inArray(
        users.id,
        sql`(select ${userInstitutions.userId} from ${userInstitutions} where ${userInstitutions.institutionId} = ${q.institutionId})`,
      ),
    );
  }
  return and(...conds);
}

const activeSessions = sql<number>`(select count(*)::int from ${sessions} s where s.user_id = ${users.id} and s.revoked_at is null and s.expires_at > now())`;

const baseColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  isActive: users.isActive,
  mustChangePassword: users.mustChangePassword,
  /** The latest sign-in lock on the account's e-mail, from any address or account-wide. */
  lockedUntil:
    sql<Date | null>`(select max(lf.locked_until) from ${loginFailures} lf where lf.email = lower(${users.email}))`.mapWith(
      (v: string | Date | null) => (v == null ? null : new Date(v)),
    ),
  lastLoginAt: users.lastLoginAt,
  createdAt: users.createdAt,
  activeSessions,
};

type BaseRow = {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  isActive: boolean;
  mustChangePassword: boolean;
  lockedUntil: Date | null;
  lastLoginAt: Date | null;
  createdAt: Date;
  activeSessions: number;
};

/** Adds roles and ordered institutions to a page of users with two queries, not one per row. */
async function withRelations(db: Db, rows: BaseRow[]): Promise<UserRecord[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [roleRows, instRows] = await Promise.all([
    db
      .select({ userId: userRoles.userId, id: roles.id, name: roles.name })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(inArray(userRoles.userId, ids))
      .orderBy(asc(roles.name)),
    db
      .select({ userId: userInstitutions.userId, id: institutions.id, code: institutions.code, name: institutions.name })
      .from(userInstitutions)
      .innerJoin(institutions, eq(institutions.id, userInstitutions.institutionId))
      .where(inArray(userInstitutions.userId, ids))
      .orderBy(asc(userInstitutions.position), asc(institutions.id)),
  ]);
  const now = new Date();
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    firstName: r.firstName,
    lastName: r.lastName,
    isActive: r.isActive,
    mustChangePassword: r.mustChangePassword,
    isLocked: !!r.lockedUntil && r.lockedUntil > now,
    lastLoginAt: r.lastLoginAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    activeSessions: r.activeSessions,
    roles: roleRows.filter((x) => x.userId === r.id).map(({ id, name }) => ({ id, name })),
    institutions: instRows.filter((x) => x.userId === r.id).map(({ id, code, name }) => ({ id, code, name })),
  }));
}

/** Paginated, filtered, sorted users within the caller's data scope. Holders of users: READ. */
export async function findUsers(ctx: RequestContext, query: UserListQuery): Promise<Page<UserRecord>> {
  const { db } = ctx;
  const where = and(filters(query), usersInScope(ctx, users.id));
  const page = await listPage(db, {
    query,
    sortable,
    defaultSort: 'email',
    rows: (c) =>
      db
        .select(baseColumns)
        .from(users)
        .where(and(where, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.id,
    count: () => db.select({ id: users.id }).from(users).where(where),
  });
  return { ...page, items: await withRelations(db, page.items) };
}

/** The same filters in keyset chunks, for the export (sort checked here). Holders of users: EXPORT. */
export function userBatches(ctx: RequestContext, query: Omit<UserListQuery, 'page' | 'pageSize'>) {
  const { db } = ctx;
  const where = and(filters(query), usersInScope(ctx, users.id));
  return keysetBatches(
    keysetOf(query.sort, sortable, 'email'),
    async (c) =>
      withRelations(
        db,
        await db
          .select(baseColumns)
          .from(users)
          .where(and(where, c.after))
          .orderBy(...c.order)
          .limit(c.limit),
      ),
    (r) => r.id,
  );
}

/** One user by id, limited by `within` when given; NOT_FOUND otherwise. */
async function loadUser(db: Db, id: number, within?: SQL): Promise<UserRecord> {
  const rows = await db
    .select(baseColumns)
    .from(users)
    .where(and(eq(users.id, id), within));
  if (!rows[0]) throw new AppError('NOT_FOUND', 'El usuario no existe.');
  return (await withRelations(db, rows))[0];
}

/**
 * One user within the route's scope. A user outside it is answered 404, as if it did not exist; the
 * writes on one user go through it too, so a scoped administrator never edits someone beyond reach.
 */
const loadInScope = (ctx: RequestContext, id: number) => loadUser(ctx.db, id, usersInScope(ctx, users.id));

/** One user. Holders of users: READ. */
export const getUser = (ctx: RequestContext, input: { id: number }): Promise<UserRecord> => loadInScope(ctx, input.id);

/**
 * Roles and institutions for the user form and the list filters; `assignable` says whether the actor may
 * give it (the privilege ceiling): the form offers only those. Holders of users: READ.
 */
export async function userOptions(ctx: RequestContext): Promise<UserOptions> {
  const { db } = ctx;
  const ceiling = ceilingOf(ctx.user);
  const [roleRows, instRows, defaults] = await Promise.all([
    db.select({ id: roles.id, name: roles.name }).from(roles).orderBy(asc(roles.name)),
    db
      .select({ id: institutions.id, code: institutions.code, name: institutions.name, isActive: institutions.isActive })
      .from(institutions)
      .orderBy(asc(institutions.name)),
    db.select().from(institutionRoles),
  ]);
  const ok = await assignableRoleIds(
    db,
    ceiling,
    roleRows.map((r) => r.id),
  );
  return {
    roles: roleRows.map((r) => ({ ...r, assignable: ok.has(r.id) })),
    institutions: instRows.map((i) => ({
      ...i,
      assignable:
        ceiling.isSuperAdmin ||
        (i.code !== SYSTEM_INSTITUTION && defaults.every((d) => d.institutionId !== i.id || ok.has(d.roleId))),
    })),
  };
}

async function assertIdsExist(db: Db, data: Pick<UserInput, 'roleIds' | 'institutionIds'>) {
  if (data.roleIds.length) {
    const found = await db.select({ id: roles.id }).from(roles).where(inArray(roles.id, data.roleIds));
    if (found.length !== data.roleIds.length) {
      throw new AppError('VALIDATION', 'Uno de los roles no existe.', [
        { path: 'roleIds', message: 'Uno de los roles no existe.' },
      ]);
    }
  }
  if (data.institutionIds.length) {
    const found = await db
      .select({ id: institutions.id })
      .from(institutions)
      .where(inArray(institutions.id, data.institutionIds));
    if (found.length !== data.institutionIds.length) {
      throw new AppError('VALIDATION', 'Una de las instituciones no existe.', [
        { path: 'institutionIds', message: 'Una de las instituciones no existe.' },
      ]);
    }
  }
}

/**
 * Refuses a change that would leave no active user in the active SISTEMA institution: nobody could
 * administer the system any more. Call inside the change's transaction, after the change. The row lock
 * on SISTEMA serialises concurrent changes so two administrators cannot each remove the other.
 */
export async function assertSuperAdminRemains(tx: Db): Promise<void> {
  await tx.execute(sql`select id from ${institutions} where ${institutions.code} = ${SYSTEM_INSTITUTION} for update`);
  const [{ n }] = await tx
    .select({ n: count() })
    .from(userInstitutions)
    .innerJoin(users, eq(users.id, userInstitutions.userId))
    .innerJoin(institutions, eq(institutions.id, userInstitutions.institutionId))
    .where(and(eq(institutions.code, SYSTEM_INSTITUTION), eq(institutions.isActive, true), eq(users.isActive, true)));
  if (n === 0) {
    throw new AppError(
      'CONFLICT',
      'No se puede realizar el cambio: dejaría el sistema sin ningún super administrador activo (usuario activo de la institución SISTEMA).',
    );
  }
}

async function setRelations(tx: Db, userId: number, data: Pick<UserInput, 'roleIds' | 'institutionIds'>) {
  await tx.delete(userRoles).where(eq(userRoles.userId, userId));
  await tx.delete(userInstitutions).where(eq(userInstitutions.userId, userId));
  if (data.roleIds.length) await tx.insert(userRoles).values(data.roleIds.map((roleId) => ({ userId, roleId })));
  if (data.institutionIds.length) {
    await tx
      .insert(userInstitutions)
      .values(data.institutionIds.map((institutionId, position) => ({ userId, institutionId, position })));
  }
}

async function assertEmailFree(db: Db, email: string, exceptId?: number) {
  const [other] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, exceptId ? ne(users.id, exceptId) : undefined))
    .limit(1);
  if (other) throw duplicateEmail();
}

const snapshot = (u: UserRecord) => ({
  email: u.email,
  firstName: u.firstName,
  lastName: u.lastName,
  isActive: u.isActive,
  roles: u.roles.map((r) => r.name),
  institutions: u.institutions.map((i) => i.code),
});

/**
 * Creates a user with a one-time password that must be changed at the first sign-in; the password is
 * returned once, for the administrator to hand over, and never stored in clear. Holders of users: CREATE.
 */
export async function createUser(ctx: RequestContext, data: UserInput): Promise<{ user: UserRecord; password: string }> {
  const { db } = ctx;
  await assertIdsExist(db, data);
  await assertCanAssign(db, ceilingOf(ctx.user), data);
  await assertEmailFree(db, data.email);
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  try {
    const id = await db.transaction(async (tx) => {
      const [u] = await tx
        .insert(users)
        .values({
          email: data.email,
          firstName: data.firstName,
          lastName: data.lastName,
          isActive: data.isActive,
          passwordHash,
          mustChangePassword: true,
        })
        .returning({ id: users.id });
      await setRelations(tx, u.id, data);
      const created = await loadUser(tx, u.id);
      await ctx.audit({ action: 'CREATE', entityType: 'user', entityId: u.id, after: snapshot(created) }, tx);
      return u.id;
    });
    return { user: await loadUser(db, id), password };
  } catch (err) {
    rethrowDbError(err);
  }
}

/** Updates a user's data, roles and institutions; deactivating revokes their sessions. Holders of users: UPDATE. */
export async function updateUser(ctx: RequestContext, input: { id: number; data: UserInput }): Promise<UserRecord> {
  const { db } = ctx;
  const { id, data } = input;
  const ceiling = ceilingOf(ctx.user);
  const before = await loadInScope(ctx, id);
  await assertCanActOn(db, ceiling, id);
  await assertIdsExist(db, data);
  await assertCanAssign(db, ceiling, data);
  if (id === ctx.user.id && !data.isActive) throw new AppError('CONFLICT', 'No puede desactivar su propia cuenta.');
  await assertEmailFree(db, data.email, id);
  try {
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({
          email: data.email,
          firstName: data.firstName,
          lastName: data.lastName,
          isActive: data.isActive,
          updatedAt: new Date(),
        })
        .where(eq(users.id, id));
      await setRelations(tx, id, data);
      await assertSuperAdminRemains(tx);
      if (before.isActive && !data.isActive) await revokeAllSessions(tx, id);
      const after = await loadUser(tx, id);
      await ctx.audit(
        { action: 'UPDATE', entityType: 'user', entityId: id, before: snapshot(before), after: snapshot(after) },
        tx,
      );
    });
  } catch (err) {
    rethrowDbError(err);
  }
  return loadUser(db, id);
}

/** Activates or deactivates an account; deactivating revokes all its sessions. Holders of users: UPDATE. */
export async function setUserActive(ctx: RequestContext, input: { id: number; isActive: boolean }): Promise<UserRecord> {
  const { db } = ctx;
  const { id, isActive } = input;
  const before = await loadInScope(ctx, id);
  await assertCanActOn(db, ceilingOf(ctx.user), id);
  if (id === ctx.user.id && !isActive) throw new AppError('CONFLICT', 'No puede desactivar su propia cuenta.');
  await db.transaction(async (tx) => {
    await tx.update(users).set({ isActive, updatedAt: new Date() }).where(eq(users.id, id));
    let revoked = 0;
    if (!isActive) {
      await assertSuperAdminRemains(tx);
      revoked = await revokeAllSessions(tx, id);
    }
    await ctx.audit(
      {
        action: isActive ? 'ACTIVATE' : 'DEACTIVATE',
        entityType: 'user',
        entityId: id,
        before: { isActive: before.isActive },
        after: { isActive, revokedSessions: revoked },
      },
      tx,
    );
  });
  return loadUser(db, id);
}

/**
 * Gives a user a new one-time password (returned once), unlocks the account and ends its sessions; the
 * user must change it at the next sign-in. Holders of users: UPDATE.
 */
export async function resetUserPassword(ctx: RequestContext, input: { id: number }): Promise<{ password: string }> {
  const { db } = ctx;
  const { id } = input;
  const target = await loadInScope(ctx, id);
  await assertCanActOn(db, ceilingOf(ctx.user), id);
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({
        passwordHash,
        mustChangePassword: true,
        updatedAt: new Date(),
      })
      .where(eq(users.id, id));
    await clearLoginFailures(tx, target.email);
    const revoked = await revokeAllSessions(tx, id);
    await ctx.audit({ action: 'RESET_PASSWORD', entityType: 'user', entityId: id, after: { revokedSessions: revoked } }, tx);
  });
  return { password };
}

/** Ends every open session of a user. Holders of users: UPDATE. */
export async function revokeUserSessions(ctx: RequestContext, input: { id: number }): Promise<{ revoked: number }> {
  const { db } = ctx;
  const { id } = input;
  await loadInScope(ctx, id);
  await assertCanActOn(db, ceilingOf(ctx.user), id);
  return db.transaction(async (tx) => {
    const revoked = await revokeAllSessions(tx, id);
    await ctx.audit({ action: 'REVOKE_SESSIONS', entityType: 'user', entityId: id, after: { revoked } }, tx);
    return { revoked };
  });
}
