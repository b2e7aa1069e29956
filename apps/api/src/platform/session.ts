import { createHash, randomBytes } from 'node:crypto';
import {
  AppError,
  allPermissions,
  type CurrentUser,
  type EffectivePermissions,
  type Grant,
  mergeGrants,
  SYSTEM_INSTITUTION,
} from '@aporta/domain';
import { and, asc, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { institutionRoles, institutions, roleGrants, sessions, userInstitutions, userRoles, users } from '../db/schema/index.ts';
import type { Actor } from './audit.ts';

/**
 * The session core: what the access guard needs to turn a bearer token into a user, and the session
 * rows every module that signs in, signs out or locks an account out writes. Only the SHA-256 of a
 * token is stored, so a copy of the database opens no session.
 */

export interface AuthPolicy {
  sessionIdleHours: number;
  sessionAbsoluteDays: number;
  maxFailures: number;
  lockMinutes: number;
}

/** What a request knows about its signed-in user. */
export interface AuthContext {
  sessionId: number;
  user: CurrentUser;
  actor: Actor;
}

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

type UserRow = typeof users.$inferSelect;

/** Institutions (ordered) and effective permissions of a user: SISTEMA holds everything. */
export async function loadCurrentUser(db: Db, user: UserRow): Promise<CurrentUser> {
  const insts = await db
    .select({ id: institutions.id, code: institutions.code, name: institutions.name })
    .from(userInstitutions)
    .innerJoin(institutions, eq(institutions.id, userInstitutions.institutionId))
    .where(eq(userInstitutions.userId, user.id))
    .orderBy(asc(userInstitutions.position), asc(institutions.id));
  let permissions: EffectivePermissions;
  if (insts.some((i) => i.code === SYSTEM_INSTITUTION)) {
    permissions = allPermissions();
  } else {
    const roleIds = db
      .select({ id: userRoles.roleId })
      .from(userRoles)
      .where(eq(userRoles.userId, user.id))
      .union(
        db
          .select({ id: institutionRoles.roleId })
          .from(institutionRoles)
          .where(
            inArray(
              institutionRoles.institutionId,
              insts.map((i) => i.id),
            ),
          ),
      );
    const grants = await db
      .select({ resource: roleGrants.resource, action: roleGrants.action, scope: roleGrants.scope })
      .from(roleGrants)
      .where(inArray(roleGrants.roleId, roleIds));
    permissions = mergeGrants(grants as Grant[]);
  }
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    institucion: insts.map((i) => i.code),
    institutionName: insts[0]?.name ?? '',
    institutions: insts,
    permissions: permissions as CurrentUser['permissions'],
    mustChangePassword: user.mustChangePassword,
  };
}

/**
 * Opens a session for a user who just proved who they are; returns the token, shown to the client once.
 * Pass the sign-in's transaction so the session exists only if the rest of the sign-in commits.
 */
export async function createSession(
  db: Db,
  opts: { userId: number; policy: Pick<AuthPolicy, 'sessionAbsoluteDays'>; ip: string | null; userAgent: string | null },
): Promise<{ id: number; token: string }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + opts.policy.sessionAbsoluteDays * 86_400_000);
  const [session] = await db
    .insert(sessions)
    .values({
      tokenHash: hashToken(token),
      userId: opts.userId,
      expiresAt,
      ip: opts.ip,
      userAgent: opts.userAgent?.slice(0, 300),
    })
    .returning({ id: sessions.id });
  return { id: session.id, token };
}

/**
 * Resolves a bearer token to its session and user, enforcing the absolute and idle expiry. Called by
 * the access guard on every authenticated request.
 */
export async function authenticate(opts: { db: Db; policy: AuthPolicy; token: string; ip: string | null }): Promise<AuthContext> {
  const { db, policy, token } = opts;
  const now = new Date();
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashToken(token)), isNull(sessions.revokedAt)))
    .limit(1);
  if (!row?.user.isActive) throw new AppError('UNAUTHENTICATED');
  const idleLimit = new Date(now.getTime() - policy.sessionIdleHours * 3_600_000);
  if (row.session.expiresAt <= now || row.session.lastSeenAt <= idleLimit) throw new AppError('SESSION_EXPIRED');
  // Touch at most once a minute: enough precision for an idle timeout counted in hours.
  if (now.getTime() - row.session.lastSeenAt.getTime() > 60_000) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.session.id));
  }
  const user = await loadCurrentUser(db, row.user);
  return { sessionId: row.session.id, user, actor: { id: user.id, email: user.email, ip: opts.ip } };
}

/** Revokes one session of a user; false when it is not theirs or already closed. */
export async function revokeSession(db: Db, opts: { userId: number; sessionId: number }): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, opts.sessionId), eq(sessions.userId, opts.userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Revokes every open session of a user (deactivation, password reset); returns how many. */
export async function revokeAllSessions(db: Db, userId: number, exceptSessionId?: number | null): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined,
      ),
    )
    .returning({ id: sessions.id });
  return rows.length;
}

/** Open sessions of a user (not revoked, not expired), most recently used first. */
export async function openSessionsOf(db: Db, userId: number) {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())))
    .orderBy(sql`${sessions.lastSeenAt} desc`);
}

/** How many open sessions a user has left. */
export async function countActiveSessions(db: Db, userId: number): Promise<number> {
  return (await openSessionsOf(db, userId)).length;
}
