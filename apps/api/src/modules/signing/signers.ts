import { AppError, detail, type Message, msg, SYSTEM_INSTITUTION } from '@aporta/domain';
import { asc, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { fullName } from './deps.ts';

/**
 * Who can sign: the one query behind every place a signer is chosen (the picker's options, a request's
 * creation, a draft's sending). A user can sign when all three hold, as they are checked at sign time:
 * - the account is active;
 * - their effective permissions grant `signing-pending` SIGN (the route's own permission): a member of
 *   SISTEMA holds every permission, anyone else through a role of their own or of one of their
 *   institutions (as `loadCurrentUser` merges them);
 * - their latest certificate (the one `signRequest` signs with) is neither revoked nor expired.
 * A user who lacks only the certificate is not offered: an administrator of signing issues it first.
 */

const SIGN_RESOURCE = 'signing-pending';
const SIGN_ACTION = 'SIGN';

// Written with aliases: inside one table's select, drizzle names columns without their table, and these
// subqueries name several tables (the outer row is "users").
const maySign = sql<boolean>`(
  exists (
    select 1 from user_institutions ui join institutions i on i.id = ui.institution_id
    where ui.user_id = "users"."id" and i.code = ${SYSTEM_INSTITUTION}
  )
  or exists (
    select 1 from role_grants g
    where g.resource = ${SIGN_RESOURCE} and g.action = ${SIGN_ACTION}
      and g.role_id in (
        select ur.role_id from user_roles ur where ur.user_id = "users"."id"
        union
        select ir.role_id from institution_roles ir join user_institutions ui on ui.institution_id = ir.institution_id
        where ui.user_id = "users"."id"
      )
  )
)`;

const hasCertificate = sql<boolean>`exists (
  select 1 from (
    select c.revoked_at, c.not_after from signing_certificates c
    where c.user_id = "users"."id" order by c.id desc limit 1
  ) latest
  where latest.revoked_at is null and latest.not_after > now()
)`;

export interface SignerEligibility {
  id: number;
  name: string;
  email: string;
  isActive: boolean;
  maySign: boolean;
  hasCertificate: boolean;
}

/** Each user (of `ids`, or every user) with what makes them able to sign or not. */
export async function signerEligibility(db: Db, ids?: readonly number[]): Promise<SignerEligibility[]> {
  if (ids && ids.length === 0) return [];
  const rows = await db
    .select({
      id: users.id,
      name: fullName,
      email: users.email,
      isActive: users.isActive,
      maySign,
      hasCertificate,
    })
    .from(users)
    .where(ids ? inArray(users.id, [...ids]) : undefined)
    .orderBy(asc(fullName), asc(users.id));
  return rows.map((r) => ({ ...r, name: r.name || r.email, maySign: !!r.maySign, hasCertificate: !!r.hasCertificate }));
}

export const canSign = (u: SignerEligibility) => u.isActive && u.maySign && u.hasCertificate;

/** The users a request may name as signers (the picker of /firmaDoc/upload). */
export async function signerOptions(db: Db) {
  const rows = await signerEligibility(db);
  return { items: rows.filter(canSign).map(({ id, name, email }) => ({ id, name, email })) };
}

/**
 * Refuses signers (user ids in order) who cannot sign: a VALIDATION error naming the first, with one
 * detail per signer refused (`signers.<i>`), each saying who and why.
 */
export async function assertSigners(db: Db, ids: readonly number[]): Promise<void> {
  const found = await signerEligibility(db, ids);
  const problems: { i: number; m: Message }[] = [];
  for (const [i, id] of ids.entries()) {
    const u = found.find((f) => f.id === id);
    const position = i + 1;
    const m = !u?.isActive
      ? msg('signing.signerInvalid', { position })
      : !u.maySign
        ? msg('signing.signerCannotSign', { position, name: u.name })
        : !u.hasCertificate
          ? msg('signing.signerNoCertificate', { position, name: u.name })
          : null;
    if (m) problems.push({ i, m });
  }
  if (problems.length) {
    throw new AppError(
      'VALIDATION',
      problems[0].m,
      problems.map((p) => ({ path: `signers.${p.i}`, ...detail(p.m) })),
    );
  }
}
