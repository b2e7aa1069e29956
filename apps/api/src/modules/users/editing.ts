// Managing user accounts: create, update, activate or deactivate, reset the password, revoke the sessions.
import { AppError, ceilingOf, detail, msg, SYSTEM_INSTITUTION, text, type UserInput, type UserRecord } from '@aporta/domain';
import { and, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { institutions, roles, userInstitutions, userRoles, users } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { registerConstraintRules, rethrowDbError } from '../../platform/db-errors.ts';
import { generatePassword, hashPassword } from '../../platform/passwords.ts';
import { revokeAllSessions } from '../../platform/session.ts';
import { clearLoginFailures, duplicateEmail } from '../auth/service.ts';
import { assertCanActOn, assertCanAssign } from './privilege.ts';

import { loadInScope, loadUser } from './queries.ts';

registerConstraintRules({
  users_email_key: { path: 'email', message: text('accounts.emailTaken') },
});

async function assertIdsExist(db: Db, data: Pick<UserInput, 'roleIds' | 'institutionIds'>) {
  if (data.roleIds.length) {
    const found = await db.select({ id: roles.id }).from(roles).where(inArray(roles.id, data.roleIds));
    if (found.length !== data.roleIds.length) {
      throw new AppError('VALIDATION', msg('accounts.roleMissing'), [
        { path: 'roleIds', ...detail(msg('accounts.roleMissing')) },
      ]);
    }
  }
  if (data.institutionIds.length) {
    const found = await db
      .select({ id: institutions.id })
      .from(institutions)
      .where(inArray(institutions.id, data.institutionIds));
    if (found.length !== data.institutionIds.length) {
      throw new AppError('VALIDATION', msg('accounts.institutionMissing'), [
        { path: 'institutionIds', ...detail(msg('accounts.institutionMissing')) },
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
    throw new AppError('CONFLICT', msg('accounts.lastSuperAdmin'));
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
  if (id === ctx.user.id && !data.isActive) throw new AppError('CONFLICT', msg('accounts.cannotDeactivateSelf'));
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
  if (id === ctx.user.id && !isActive) throw new AppError('CONFLICT', msg('accounts.cannotDeactivateSelf'));
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
