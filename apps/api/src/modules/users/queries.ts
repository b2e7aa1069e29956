// Reading user accounts within the caller's scope: the list (and its export), one user, the form's choices.
import {
  AppError,
  ceilingOf,
  msg,
  SYSTEM_INSTITUTION,
  type UserListQuery,
  type UserOptions,
  type UserRecord,
} from '@aporta/domain';
import { and, asc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
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
import { keysetBatches, keysetOf, likePattern, listPage, type Page } from '../../platform/list.ts';
import { usersInScope } from '../../platform/scope.ts';
import { assignableRoleIds } from './privilege.ts';

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
export async function loadUser(db: Db, id: number, within?: SQL): Promise<UserRecord> {
  const rows = await db
    .select(baseColumns)
    .from(users)
    .where(and(eq(users.id, id), within));
  if (!rows[0]) throw new AppError('NOT_FOUND', msg('accounts.userNotFound'));
  return (await withRelations(db, rows))[0];
}

/**
 * One user within the route's scope. A user outside it is answered 404, as if it did not exist; the
 * writes on one user go through it too, so a scoped administrator never edits someone beyond reach.
 */
export const loadInScope = (ctx: RequestContext, id: number) => loadUser(ctx.db, id, usersInScope(ctx, users.id));

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
