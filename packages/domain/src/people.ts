import { SYSTEM_INSTITUTION, SYSTEM_INSTITUTION_LABEL } from './permissions.ts';

/** Initials from first and last name; failing those, the first two letters of the e-mail's local part. */
export function initialsOf(user: { firstName?: string | null; lastName?: string | null; email?: string | null }): string {
  const first = user.firstName?.trim() ?? '';
  const last = user.lastName?.trim() ?? '';
  if (first && last) return (first[0] + last[0]).toUpperCase();
  if (first || last) return (first || last).slice(0, 2).toUpperCase();
  const local = (user.email ?? '').split('@')[0] ?? '';
  return local.slice(0, 2).toUpperCase();
}

/** Full name as shown in the shell; the e-mail when no name is known. */
export function fullNameOf(user: { firstName?: string | null; lastName?: string | null; email?: string | null }): string {
  const name = [user.firstName, user.lastName]
    .filter((s) => s?.trim())
    .join(' ')
    .trim();
  return name || (user.email ?? '');
}

/** The institution label of the shell: the first entry equal to SISTEMA shows as SUPER ADMINISTRADOR. */
export function institutionLabelOf(user: { institucion?: readonly string[]; institutionName?: string | null }): string {
  if (user.institucion?.includes(SYSTEM_INSTITUTION)) return SYSTEM_INSTITUTION_LABEL;
  return user.institutionName ?? user.institucion?.[0] ?? '';
}
