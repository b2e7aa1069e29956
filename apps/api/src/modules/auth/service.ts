import {
  type Action,
  AppError,
  type ChangePasswordInput,
  type CurrentUser,
  detail,
  msg,
  passwordProblemMessage,
  type RegisterInput,
  type Resource,
  SYSTEM_INSTITUTION,
} from '@aporta/domain';
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  institutionRoles,
  institutions,
  loginFailures,
  roleGrants,
  userInstitutions,
  userRoles,
  users,
} from '../../db/schema/index.ts';
import { type Actor, writeAudit } from '../../platform/audit.ts';
import type { RequestContext } from '../../platform/context.ts';
import { isUniqueViolation } from '../../platform/db-errors.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../platform/passwords.ts';
import { type AuthPolicy, createSession, loadCurrentUser, revokeAllSessions, revokeSession } from '../../platform/session.ts';

const minutesLeft = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));

/** The account-wide ceiling, as a multiple of the per-address limit: it stops guessing spread over addresses. */
export const ACCOUNT_FAILURE_FACTOR = 10;
/** The address of the account-wide counter row. */
const ANY_ADDRESS = '*';

const lockedError = (until: Date, now: Date) =>
  new AppError('ACCOUNT_LOCKED', msg('accounts.accountLockedFor', { minutes: minutesLeft(until, now) }));

/** The latest lock in force for this e-mail from this address or account-wide, or null. */
async function activeLock(db: Db, email: string, address: string, now: Date): Promise<Date | null> {
  const rows = await db
    .select({ until: loginFailures.lockedUntil })
    .from(loginFailures)
    .where(
      and(
        eq(loginFailures.email, email),
        inArray(loginFailures.address, [address, ANY_ADDRESS]),
        gt(loginFailures.lockedUntil, now),
      ),
    );
  const until = rows.map((r) => r.until!.getTime());
  return until.length ? new Date(Math.max(...until)) : null;
}

/**
 * Counts a failed sign-in for the e-mail (known or not) from `address` and account-wide, in one atomic
 * statement so concurrent processes count right; locks what reached its limit. Returns the lock set, or
 * null. Expired rows are removed on the way, so the table holds only live counters.
 */
async function recordFailure(db: Db, policy: AuthPolicy, email: string, address: string, now: Date): Promise<Date | null> {
  const windowMs = policy.lockMinutes * 60_000;
  const nowIso = now.toISOString();
  const windowStart = new Date(now.getTime() - windowMs).toISOString();
  const windowEnd = new Date(now.getTime() + windowMs).toISOString();
  const inWindow = sql`f.first_failed_at > ${windowStart}::timestamptz`;
  await db.delete(loginFailures).where(lt(loginFailures.expiresAt, now));
  const result = await db.execute<{ address: string; failures: number }>(sql`
    insert into ${loginFailures} as f (email, address, failures, first_failed_at, expires_at)
    values (${email}, ${address}, 1, ${nowIso}::timestamptz, ${windowEnd}::timestamptz),
           (${email}, ${ANY_ADDRESS}, 1, ${nowIso}::timestamptz, ${windowEnd}::timestamptz)
    on conflict (email, address) do update set
      failures = case when ${inWindow} then f.failures + 1 else 1 end,
      first_failed_at = case when ${inWindow} then f.first_failed_at else ${nowIso}::timestamptz end,
      expires_at = greatest(f.expires_at, ${windowEnd}::timestamptz)
    returning address, failures`);
  const rows = (result as unknown as { rows: { address: string; failures: number }[] }).rows;
  const limit = (a: string) => (a === ANY_ADDRESS ? policy.maxFailures * ACCOUNT_FAILURE_FACTOR : policy.maxFailures);
  const reached = rows.filter((r) => Number(r.failures) >= limit(r.address)).map((r) => r.address);
  if (reached.length === 0) return null;
  const until = new Date(now.getTime() + windowMs);
  await db
    .update(loginFailures)
    .set({ failures: 0, firstFailedAt: now, lockedUntil: until, expiresAt: until })
    .where(and(eq(loginFailures.email, email), inArray(loginFailures.address, reached)));
  return until;
}

/** Forgets every failed sign-in of an e-mail (an administrator reset its password). */
export async function clearLoginFailures(db: Db, email: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.email, email.toLowerCase()));
}

/**
 * Signs a user in. Public. Known and unknown e-mails take the same path, so status, message and time
 * never tell whether an account exists: the password is verified against the account's hash or a dummy
 * one, and failures are counted per e-mail (known or not) and address — a stranger elsewhere cannot lock
 * a staff member out — with an account-wide ceiling of ACCOUNT_FAILURE_FACTOR times that limit against
 * guessing spread over many addresses. A lock refuses even the right password until it ends.
 */
export async function login(opts: {
  db: Db;
  policy: AuthPolicy;
  email: string;
  password: string;
  ip: string | null;
  userAgent: string | null;
}): Promise<{ user: CurrentUser; token: string }> {
  const { db, policy, password, ip } = opts;
  const email = opts.email.trim().toLowerCase();
  const address = ip ?? 'desconocida';
  const now = new Date();
  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
  const actor: Actor = { id: user?.id ?? null, email, ip };
  const lock = await activeLock(db, email, address, now);
  if (lock) throw lockedError(lock, now);
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
  if (!user || !ok) {
    const lockedUntil = await recordFailure(db, policy, email, address, now);
    await writeAudit(db, actor, {
      action: lockedUntil ? 'ACCOUNT_LOCKED' : 'LOGIN_FAILED',
      entityType: 'user',
      entityId: user?.id,
      after: user ? { reason: 'wrong-password' } : { reason: 'unknown-email' },
    });
    if (lockedUntil) throw lockedError(lockedUntil, now);
    throw new AppError('INVALID_CREDENTIALS');
  }
  if (!user.isActive) throw new AppError('ACCOUNT_INACTIVE');

  const token = await db.transaction(async (tx) => {
    await tx.update(users).set({ lastLoginAt: now }).where(eq(users.id, user.id));
    await tx.delete(loginFailures).where(and(eq(loginFailures.email, email), eq(loginFailures.address, address)));
    const session = await createSession(tx, { userId: user.id, policy, ip, userAgent: opts.userAgent });
    await writeAudit(tx, actor, { action: 'LOGIN', entityType: 'session', entityId: session.id });
    return session.token;
  });
  return { user: await loadCurrentUser(db, user), token };
}

/** Ends the caller's own session. Any signed-in user. */
export async function logout(ctx: RequestContext): Promise<void> {
  const sessionId = ctx.sessionId;
  if (sessionId === null) return;
  await ctx.db.transaction(async (tx) => {
    await revokeSession(tx, { userId: ctx.user.id, sessionId });
    await ctx.audit({ action: 'LOGOUT', entityType: 'session', entityId: sessionId }, tx);
  });
}

/**
 * Active users who hold `action` on `resource`: members of SISTEMA, and users granted it through their
 * own roles or their institutions' default roles. Used to notify whoever can act on something.
 */
export async function findUserIdsWithPermission(db: Db, resource: Resource, action: Action): Promise<number[]> {
  const rows = await db.execute<{ id: number }>(sql`
    select u.id from ${users} u where u.is_active and (
      exists (select 1 from ${userInstitutions} ui join ${institutions} i on i.id = ui.institution_id
              where ui.user_id = u.id and i.code = ${SYSTEM_INSTITUTION} and i.is_active)
      or exists (select 1 from ${userRoles} ur join ${roleGrants} g on g.role_id = ur.role_id
                 where ur.user_id = u.id and g.resource = ${resource} and g.action = ${action})
      or exists (select 1 from ${userInstitutions} ui join ${institutionRoles} ir on ir.institution_id = ui.institution_id
                 join ${roleGrants} g on g.role_id = ir.role_id
                 where ui.user_id = u.id and g.resource = ${resource} and g.action = ${action}))`);
  return (rows as unknown as { rows: { id: number }[] }).rows.map((r) => Number(r.id));
}

/** Refuses a password that breaks the policy with a 400 naming the rule on the given field. */
export function assertPasswordPolicy(password: string, email: string, minLength: number, path = 'password'): void {
  const problem = passwordProblemMessage(password, { email, minLength });
  if (problem) throw new AppError('VALIDATION', problem, [{ path, ...detail(problem) }]);
}

export const duplicateEmail = () =>
  new AppError('DUPLICATE', msg('accounts.emailTaken'), [{ path: 'email', ...detail(msg('accounts.emailTaken')) }]);

/**
 * Self-registration. Public (rate-limited per IP). Creates an INACTIVE account without roles or
 * institutions: an administrator activates it and decides what it may do. An e-mail that already has an
 * account gets the same answer after the same work (the password is hashed either way) and nothing is
 * created, so registration never tells whether an e-mail exists; the attempt is audited on that account.
 */
export async function register(opts: {
  db: Db;
  enabled: boolean;
  minLength: number;
  data: RegisterInput;
  ip: string | null;
}): Promise<void> {
  const { db, data } = opts;
  if (!opts.enabled) {
    throw new AppError('FORBIDDEN', msg('accounts.registrationDisabled'));
  }
  assertPasswordPolicy(data.password, data.email, opts.minLength);
  const email = data.email.toLowerCase();
  const passwordHash = await hashPassword(data.password);
  const [existing] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
  const actor = { id: existing?.id ?? null, email, ip: opts.ip };
  if (existing) {
    await writeAudit(db, actor, { action: 'REGISTER_EXISTING', entityType: 'user', entityId: existing.id, after: { email } });
    return;
  }
  try {
    await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ email, firstName: data.first_name, lastName: data.last_name, passwordHash, isActive: false })
        .returning({ id: users.id });
      await writeAudit(
        tx,
        { ...actor, id: user.id },
        { action: 'REGISTER', entityType: 'user', entityId: user.id, after: { email, isActive: false } },
      );
    });
  } catch (err) {
    // A concurrent registration of the same e-mail won: the same answer, still nothing duplicated.
    if (!isUniqueViolation(err, 'users_email_key')) throw err;
  }
}

/**
 * Changes the caller's own password. Any signed-in user, also while a change is required. Clears the
 * "must change" flag and ends the user's other sessions, which may belong to whoever knew the old one.
 */
export async function changeOwnPassword(
  ctx: RequestContext,
  input: { minLength: number; data: ChangePasswordInput },
): Promise<CurrentUser> {
  const { db } = ctx;
  const { data } = input;
  const [row] = await db.select().from(users).where(eq(users.id, ctx.user.id));
  if (!(await verifyPassword(row.passwordHash, data.currentPassword))) {
    throw new AppError('VALIDATION', msg('accounts.currentPasswordWrong'), [
      { path: 'currentPassword', ...detail(msg('accounts.currentPasswordWrong')) },
    ]);
  }
  assertPasswordPolicy(data.newPassword, row.email, input.minLength, 'newPassword');
  if (data.newPassword === data.currentPassword) {
    throw new AppError('VALIDATION', msg('accounts.newPasswordSameAsCurrent'), [
      { path: 'newPassword', ...detail(msg('accounts.newPasswordSameAsCurrent')) },
    ]);
  }
  const passwordHash = await hashPassword(data.newPassword);
  const updated = await db.transaction(async (tx) => {
    const [u] = await tx
      .update(users)
      .set({ passwordHash, mustChangePassword: false, updatedAt: new Date() })
      .where(eq(users.id, row.id))
      .returning();
    await revokeAllSessions(tx, row.id, ctx.sessionId);
    await ctx.audit({ action: 'CHANGE_PASSWORD', entityType: 'user', entityId: row.id }, tx);
    return u;
  });
  return loadCurrentUser(db, updated);
}
