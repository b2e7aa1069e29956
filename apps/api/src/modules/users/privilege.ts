import {
  AppError,
  type Ceiling,
  describeGrants,
  detail,
  type Grant,
  grantsBeyond,
  grantsOf,
  type Message,
  msg,
  SYSTEM_INSTITUTION,
} from '@aporta/domain';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { institutionRoles, institutions, roleGrants, roles, users } from '../../db/schema/index.ts';
import { loadCurrentUser, userFields } from '../../platform/session.ts';

/**
 * The privilege ceiling on the server: every service that assigns permissions (users, roles,
 * institutions) refuses what the actor does not hold, and only a super administrator acts on a
 * super-administrator account or on SISTEMA membership.
 */

const forbidden = (message: Message, path?: string) =>
  new AppError('FORBIDDEN', message, path ? [{ path, ...detail(message) }] : undefined);

/** Grants of the given roles, each once per role. */
export async function grantsOfRoles(db: Db, roleIds: readonly number[]): Promise<(Grant & { roleId: number })[]> {
  if (roleIds.length === 0) return [];
  const rows = await db
    .select()
    .from(roleGrants)
    .where(inArray(roleGrants.roleId, [...roleIds]));
  return rows.map(
    (g) => ({ roleId: g.roleId, resource: g.resource, action: g.action, scope: g.scope }) as Grant & { roleId: number },
  );
}

/**
 * Refuses grants the actor does not hold, naming them: `refusal` words the message from the grants'
 * description (`describeGrants`).
 */
export function assertWithinCeiling(
  ceiling: Ceiling,
  grants: readonly Grant[],
  refusal: (grants: string) => Message,
  path?: string,
): void {
  if (ceiling.isSuperAdmin) return;
  const beyond = grantsBeyond(ceiling.permissions, grants);
  if (beyond.length) throw forbidden(refusal(describeGrants(beyond)), path);
}

/** Role ids (of `roleIds`) whose grants all fit within the ceiling: what the actor may assign. */
export async function assignableRoleIds(db: Db, ceiling: Ceiling, roleIds: readonly number[]): Promise<Set<number>> {
  if (ceiling.isSuperAdmin) return new Set(roleIds);
  const grants = await grantsOfRoles(db, roleIds);
  const over = new Set(grantsBeyond(ceiling.permissions, grants).map((g) => g.roleId));
  return new Set(roleIds.filter((id) => !over.has(id)));
}

/**
 * Refuses giving a user roles or institutions beyond the actor's ceiling: membership of SISTEMA (super
 * administrator) and institutions whose default roles grant more than the actor holds.
 */
export async function assertCanAssign(
  db: Db,
  ceiling: Ceiling,
  data: { roleIds: readonly number[]; institutionIds: readonly number[] },
): Promise<void> {
  if (ceiling.isSuperAdmin) return;
  if (data.institutionIds.length) {
    const insts = await db
      .select({ id: institutions.id, code: institutions.code })
      .from(institutions)
      .where(inArray(institutions.id, [...data.institutionIds]));
    if (insts.some((i) => i.code === SYSTEM_INSTITUTION)) {
      throw forbidden(msg('accounts.systemMembershipSuperAdminOnly'), 'institutionIds');
    }
    const defaults = await db
      .select({ roleId: institutionRoles.roleId })
      .from(institutionRoles)
      .where(inArray(institutionRoles.institutionId, [...data.institutionIds]));
    assertWithinCeiling(
      ceiling,
      await grantsOfRoles(
        db,
        defaults.map((d) => d.roleId),
      ),
      (grants) => msg('accounts.userInstitutionBeyondCeiling', { grants }),
      'institutionIds',
    );
  }
  if (data.roleIds.length) {
    const grants = await grantsOfRoles(db, data.roleIds);
    const beyond = grantsBeyond(ceiling.permissions, grants);
    if (beyond.length) {
      const names = await db
        .select({ id: roles.id, name: roles.name })
        .from(roles)
        .where(inArray(roles.id, [...new Set(beyond.map((g) => g.roleId))]));
      const params = { names: names.map((r) => `"${r.name}"`).join(', '), grants: describeGrants(beyond) };
      throw forbidden(
        names.length === 1 ? msg('accounts.assignRoleBeyondCeiling', params) : msg('accounts.assignRolesBeyondCeiling', params),
        'roleIds',
      );
    }
  }
}

/**
 * Refuses acting on an account (edit, e-mail, password reset, sessions, activation) that is a super
 * administrator, unless the actor is one, or that holds permissions beyond the actor's: otherwise the
 * actor could reset its password and sign in as it. Missing accounts pass (the caller answers 404).
 */
export async function assertCanActOn(db: Db, ceiling: Ceiling, userId: number): Promise<void> {
  if (ceiling.isSuperAdmin) return;
  const [row] = await db.select(userFields).from(users).where(eq(users.id, userId));
  if (!row) return;
  const target = await loadCurrentUser(db, row);
  if (target.institucion.includes(SYSTEM_INSTITUTION)) {
    throw forbidden(msg('accounts.superAdminAccountSuperAdminOnly'));
  }
  const beyond = grantsBeyond(ceiling.permissions, grantsOf(target.permissions as Parameters<typeof grantsOf>[0]));
  if (beyond.length) {
    throw forbidden(msg('accounts.accountBeyondCeiling', { email: row.email, grants: describeGrants(beyond) }));
  }
}
