import { AppError, msg, type Profile, type ProfileUpdate, type RevokedSessions, type SessionInfo } from '@aporta/domain';
import { asc, eq } from 'drizzle-orm';
import { roles, userRoles, users } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { loadCurrentUser, openSessionsOf, revokeAllSessions, revokeSession, userFields } from '../../platform/session.ts';

/** The caller's own record: the current user plus roles and dates. Any signed-in user. */
export async function getProfile(ctx: RequestContext): Promise<Profile> {
  const { db } = ctx;
  const [row] = await db.select(userFields).from(users).where(eq(users.id, ctx.user.id));
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
export async function updateProfile(ctx: RequestContext, data: ProfileUpdate): Promise<Profile> {
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ firstName: data.firstName, lastName: data.lastName, updatedAt: new Date() })
      .where(eq(users.id, ctx.user.id));
    await ctx.audit(
      {
        action: 'UPDATE_PROFILE',
        entityType: 'user',
        entityId: ctx.user.id,
        before: { firstName: ctx.user.firstName, lastName: ctx.user.lastName },
        after: data,
      },
      tx,
    );
  });
  return getProfile(ctx);
}

/** The caller's open sessions, the current one marked. Any signed-in user. */
export async function listOwnSessions(ctx: RequestContext): Promise<SessionInfo[]> {
  const rows = await openSessionsOf(ctx.db, ctx.user.id);
  return rows.map((s) => ({
    id: s.id,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    expiresAt: s.expiresAt.toISOString(),
    ip: s.ip,
    userAgent: s.userAgent,
    isCurrent: s.id === ctx.sessionId,
  }));
}

/** Ends one of the caller's own sessions; someone else's session is "not found". Any signed-in user. */
export async function revokeOwnSession(ctx: RequestContext, input: { id: number }): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if (!(await revokeSession(tx, { userId: ctx.user.id, sessionId: input.id }))) {
      throw new AppError('NOT_FOUND', msg('accounts.sessionNotFound'));
    }
    await ctx.audit({ action: 'REVOKE_SESSION', entityType: 'session', entityId: input.id }, tx);
  });
}

/** "Cerrar mis otras sesiones": every session of the caller but the current one. Any signed-in user. */
export async function revokeOtherSessions(ctx: RequestContext): Promise<RevokedSessions> {
  return ctx.db.transaction(async (tx) => {
    const revoked = await revokeAllSessions(tx, ctx.user.id, ctx.sessionId);
    await ctx.audit({ action: 'REVOKE_OTHER_SESSIONS', entityType: 'user', entityId: ctx.user.id, after: { revoked } }, tx);
    return { revoked };
  });
}
