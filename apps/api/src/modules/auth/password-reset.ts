import { randomBytes } from 'node:crypto';
import { AppError, detail, msg } from '@aporta/domain';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { loginFailures, passwordResets, rateLimitHits, users } from '../../db/schema/index.ts';
import { writeAudit } from '../../platform/audit.ts';
import { enqueueMail, mailPreferenceOf } from '../../platform/mail.ts';
import { renderMailTemplate } from '../../platform/mail-templates.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { hashToken, revokeAllSessions } from '../../platform/session.ts';
import { assertPasswordPolicy } from './service.ts';

/**
 * «Olvidé mi contraseña» (issue 29). A request never tells whether an address has an account: the answer
 * is the same, and the same statements run whether it has one or not. A link carries a random 32-byte
 * token; only its SHA-256 is stored (`password_resets`), the token itself travels in the e-mail only (not
 * in the audit, not in the logs: main.ts hides `token=` in logged addresses).
 */

/** The web page a reset link opens (apps/web/src/router.tsx). */
export const RESET_PAGE = '/restablecer-contrasena';
/** The window of the per-address request limit. */
const ADDRESS_WINDOW_MS = 3_600_000;
/** Used and expired links are kept this long after they expire (then deleted on the next request). */
const KEEP_EXPIRED = sql`interval '7 days'`;

const invalidLink = () =>
  new AppError('VALIDATION', msg('accounts.resetLinkInvalid'), [{ path: 'token', ...detail(msg('accounts.resetLinkInvalid')) }]);

/**
 * Counts one reset request for the address (known or not) in the database's rate-limit counters, so the
 * limit holds across processes; returns the count in the current one-hour window.
 */
async function countAddressRequest(db: Db, email: string): Promise<number> {
  const ends = sql`now() + ${ADDRESS_WINDOW_MS} * interval '1 millisecond'`;
  const [row] = await db
    .insert(rateLimitHits)
    .values({ key: `forgot-password|${email}`.slice(0, 500), hits: 1, windowEndsAt: ends })
    .onConflictDoUpdate({
      target: rateLimitHits.key,
      set: {
        hits: sql`CASE WHEN ${rateLimitHits.windowEndsAt} <= now() THEN 1 ELSE ${rateLimitHits.hits} + 1 END`,
        windowEndsAt: sql`CASE WHEN ${rateLimitHits.windowEndsAt} <= now() THEN excluded.window_ends_at ELSE ${rateLimitHits.windowEndsAt} END`,
      },
    })
    .returning({ hits: rateLimitHits.hits });
  return row.hits;
}

/**
 * Sends a single-use link to set a new password to `email` when it is the address of an active account;
 * does nothing visible otherwise. Public. Refused (429) beyond `perAddressPerHour` requests for one address
 * in an hour, whether it has an account or not. A new link makes the user's earlier unused ones useless.
 * The link's e-mail is written to the outbox in the same transaction as the link (sent by the dispatcher).
 */
export async function requestPasswordReset(opts: {
  db: Db;
  email: string;
  ip: string | null;
  minutes: number;
  perAddressPerHour: number;
}): Promise<void> {
  const { db, ip } = opts;
  const email = opts.email.trim().toLowerCase();
  if ((await countAddressRequest(db, email)) > opts.perAddressPerHour) throw new AppError('RATE_LIMITED');
  const [user] = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, isActive: users.isActive })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  const target = user?.isActive ? user : null;
  // The token is made whether it will be stored or not: the same work either way.
  const token = randomBytes(32).toString('base64url');
  const tokenHash = hashToken(token);
  const expiresAt = new Date(Date.now() + opts.minutes * 60_000);
  const targetId = target?.id ?? 0;
  await db.transaction(async (tx) => {
    await tx.delete(passwordResets).where(lt(passwordResets.expiresAt, sql`now() - ${KEEP_EXPIRED}`));
    // Earlier unused links of the user stop working; the insert writes the new one only for an active
    // account. For any other address both statements run and touch no row.
    await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResets.userId, targetId), isNull(passwordResets.usedAt)));
    await tx.execute(sql`
      insert into ${passwordResets} (user_id, token_hash, expires_at, created_ip)
      select u.id, ${tokenHash}, ${expiresAt.toISOString()}::timestamptz, ${ip}
        from ${users} u where u.id = ${targetId} and u.is_active`);
    const params = {
      name: target ? `${target.firstName} ${target.lastName}`.trim() || target.email : email,
      minutes: opts.minutes,
    };
    const link = `${RESET_PAGE}?token=${token}`;
    if (target) {
      await enqueueMail(tx, { event: 'auth.passwordReset', to: [target.email], userId: target.id, params, link });
    } else {
      // What queueing costs but the outbox row: the recipient's preferences read and the template rendered.
      const { language } = await mailPreferenceOf(tx, targetId, 'auth.passwordReset');
      renderMailTemplate('auth.passwordReset', language, params, { link });
    }
    await writeAudit(
      tx,
      { id: target?.id ?? null, email, ip },
      {
        action: 'PASSWORD_RESET_REQUESTED',
        entityType: 'user',
        entityId: user?.id,
        after: target ? { sent: true } : { sent: false, reason: user ? 'inactive' : 'unknown-email' },
      },
    );
  });
}

/**
 * Sets a new password with the token of a reset link. Public. An unknown, used or expired token (or one
 * of an account deactivated since) is one 400 naming `token`; a password against the policy is a 400
 * naming `password` and leaves the link usable. The link is taken by one atomic UPDATE … WHERE used_at IS
 * NULL, so of two concurrent uses exactly one succeeds. The change ends every session of the user, lifts
 * any sign-in lock-out of the address and is audited, all in one transaction.
 */
export async function resetPassword(opts: {
  db: Db;
  token: string;
  password: string;
  minLength: number;
  ip: string | null;
}): Promise<void> {
  const { db } = opts;
  const tokenHash = hashToken(opts.token.trim());
  const live = and(
    eq(passwordResets.tokenHash, tokenHash),
    isNull(passwordResets.usedAt),
    gt(passwordResets.expiresAt, sql`now()`),
  );
  const [found] = await db
    .select({ email: users.email, isActive: users.isActive })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(live)
    .limit(1);
  if (!found?.isActive) throw invalidLink();
  assertPasswordPolicy(opts.password, found.email, opts.minLength);
  const passwordHash = await hashPassword(opts.password);
  await db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(live)
      .returning({ userId: passwordResets.userId });
    if (!claimed) throw invalidLink();
    const [user] = await tx
      .update(users)
      .set({ passwordHash, mustChangePassword: false, updatedAt: new Date() })
      .where(and(eq(users.id, claimed.userId), eq(users.isActive, true)))
      .returning({ id: users.id, email: users.email });
    if (!user) throw invalidLink();
    // The user's other links end with this one.
    await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
    const revoked = await revokeAllSessions(tx, user.id);
    await tx.delete(loginFailures).where(eq(loginFailures.email, user.email.toLowerCase()));
    await writeAudit(
      tx,
      { id: user.id, email: user.email, ip: opts.ip },
      { action: 'PASSWORD_RESET', entityType: 'user', entityId: user.id, after: { sessionsRevoked: revoked } },
    );
  });
}
