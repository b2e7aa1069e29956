import { AppError, type ProfileUpdate, type SessionInfo } from '@aporta/domain';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { roles, sessions, userRoles, users } from '../../db/schema/index.ts';
import { writeAudit } from '../../platform/audit.ts';
import { type AuthContext, loadCurrentUser, revokeAllSessions } from '../auth/service.ts';
import { openSessionsOf } from '../users/service.ts';

/** The caller's own record: the current user plus roles and dates. Any signed-in user. */
export async function getProfile(opts: { db: Db; auth: AuthContext }) {
  const { db, auth } = opts;
  const [row] = await db.select().from(users).where(eq(users.id, auth.user.id));
  const roleRows = await db
    .select({ id: roles.id, name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(userRoles.userId, row.id))
    .orderBy(asc(roles.name));
  return {
    ...(await loadCurrentUser(db, row)),
    roles: roleRows,
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Updates the caller's own name (the e-mail is the account's identity: only an administrator changes it). */
export async function updateProfile(opts: { db: Db; auth: AuthContext; data: ProfileUpdate }) {
  const { db, auth, data } = opts;
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ firstName: data.firstName, lastName: data.lastName, updatedAt: new Date() })
      .where(eq(users.id, auth.user.id));
    await writeAudit(tx, auth.actor, {
      action: 'UPDATE_PROFILE',
      entityType: 'user',
      entityId: auth.user.id,
      before: { firstName: auth.user.firstName, lastName: auth.user.lastName },
      after: data,
    });
  });
  return getProfile({ db, auth });
}

/** The caller's open sessions, the current one marked. Any signed-in user. */
export async function listOwnSessions(opts: { db: Db; auth: AuthContext }): Promise<SessionInfo[]> {
  const rows = await openSessionsOf(opts.db, opts.auth.user.id);
  return rows.map((s) => ({
    id: s.id,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    expiresAt: s.expiresAt.toISOString(),
    ip: s.ip,
    userAgent: s.userAgent,
    isCurrent: s.id === opts.auth.sessionId,
  }));
}

/** Ends one of the caller's own sessions; someone else's session is "not found". Any signed-in user. */
export async function revokeOwnSession(opts: { db: Db; auth: AuthContext; id: number }): Promise<void> {
  const { db, auth, id } = opts;
  await db.transaction(async (tx) => {
    const rows = await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.id, id), eq(sessions.userId, auth.user.id), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    if (rows.length === 0) throw new AppError('NOT_FOUND', 'La sesión no existe o ya fue cerrada.');
    await writeAudit(tx, auth.actor, { action: 'REVOKE_SESSION', entityType: 'session', entityId: id });
  });
}

/** "Cerrar mis otras sesiones": every session of the caller but the current one. Any signed-in user. */
export async function revokeOtherSessions(opts: { db: Db; auth: AuthContext }): Promise<{ revoked: number }> {
  const { db, auth } = opts;
  return db.transaction(async (tx) => {
    const revoked = await revokeAllSessions(tx, auth.user.id, auth.sessionId);
    await writeAudit(tx, auth.actor, {
      action: 'REVOKE_OTHER_SESSIONS',
      entityType: 'user',
      entityId: auth.user.id,
      after: { revoked },
    });
    return { revoked };
  });
}
