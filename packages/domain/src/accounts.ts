import { z } from 'zod';
import { currentUserSchema, emailSchema } from './auth.ts';
import { idSchema, idTextSchema } from './fields.ts';
import { exportQueryOf, listQuerySchema } from './list.ts';
import { type MenuItem, menuTree } from './menu.ts';
import { type Message, msg, text, textWith } from './messages.ts';
import {
  type Action,
  actions,
  type Grant,
  grantSchema,
  isResource,
  type Resource,
  resourceKeys,
  resources,
  scopeSchema,
  validScopes,
} from './permissions.ts';

/** Minimum password length when the server's configuration says nothing else (PASSWORD_MIN_LENGTH). */
export const DEFAULT_PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

/**
 * The password rule, shared by the server (with the configured minimum) and the forms: long enough, not
 * the e-mail and not containing its local part (the first thing an attacker tries). Returns the Spanish
 * sentence naming the broken rule, or null when the password is acceptable.
 */
export function passwordProblem(password: string, opts: { email?: string | null; minLength?: number } = {}): string | null {
  return passwordProblemMessage(password, opts)?.text ?? null;
}

/** The password rule's refusal as a keyed message (messages.ts), or null when the password is acceptable. */
export function passwordProblemMessage(
  password: string,
  opts: { email?: string | null; minLength?: number } = {},
): Message | null {
  const min = opts.minLength ?? DEFAULT_PASSWORD_MIN_LENGTH;
  if (password.length < min) return msg('accounts.passwordTooShort', { min });
  if (password.length > PASSWORD_MAX_LENGTH) return msg('accounts.passwordTooLong');
  const email = opts.email?.trim().toLowerCase();
  if (email) {
    const lower = password.toLowerCase();
    const local = email.split('@')[0] ?? '';
    if (lower === email) return msg('accounts.passwordIsEmail');
    // Very short local parts ("a@…") would forbid too much; three characters is where it starts to matter.
    if (local.length >= 3 && lower.includes(local)) return msg('accounts.passwordContainsEmailName');
  }
  return null;
}

const personName = (required: string, tooLong: string) =>
  z.string().trim().min(1, { error: required }).max(100, { error: tooLong });

export const firstNameSchema = personName(text('accounts.nameRequired'), text('accounts.nameTooLong'));
export const lastNameSchema = personName(text('accounts.lastNameRequired'), text('accounts.lastNameTooLong'));
export const passwordInputSchema = z
  .string()
  .min(1, { error: text('accounts.passwordRequired') })
  .max(PASSWORD_MAX_LENGTH, { error: text('accounts.passwordTooLong') });

const idList = z.array(idSchema).max(100);
const uniqueIds = (ids: number[]) => new Set(ids).size === ids.length;

// ---------------------------------------------------------------- self-service

/** Self-registration (the spec's register call uses snake_case names). */
export const registerSchema = z.object({
  email: emailSchema,
  first_name: firstNameSchema,
  last_name: lastNameSchema,
  password: passwordInputSchema,
});
export type RegisterInput = z.infer<typeof registerSchema>;

export const changePasswordSchema = z.object({
  currentPassword: z
    .string()
    .min(1, { error: text('accounts.currentPasswordRequired') })
    .max(PASSWORD_MAX_LENGTH),
  newPassword: passwordInputSchema,
});
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

export const profileUpdateSchema = z.object({ firstName: firstNameSchema, lastName: lastNameSchema });
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export const sessionSchema = z.object({
  id: z.number().int(),
  createdAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  isCurrent: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionSchema>;
export const sessionListSchema = z.array(sessionSchema);

// ---------------------------------------------------------------- users

export const userInputSchema = z.object({
  email: emailSchema,
  firstName: firstNameSchema,
  lastName: lastNameSchema,
  isActive: z.boolean().default(true),
  roleIds: idList.default([]).refine(uniqueIds, { error: text('accounts.roleRepeated') }),
  /** Ordered: the first institution is the one the shell shows. */
  institutionIds: idList.default([]).refine(uniqueIds, { error: text('accounts.institutionRepeated') }),
});
export type UserInput = z.infer<typeof userInputSchema>;

export const userListQuerySchema = listQuerySchema.extend({
  isActive: z.enum(['true', 'false']).optional(),
  roleId: idTextSchema.optional(),
  institutionId: idTextSchema.optional(),
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;

/** The export of users: the list's filters plus the file format. */
export const userExportQuerySchema = exportQueryOf(userListQuerySchema);
export type UserExportQuery = z.infer<typeof userExportQuerySchema>;

export const refSchema = z.object({ id: z.number().int(), name: z.string() });
export const institutionRefWithCodeSchema = z.object({ id: z.number().int(), code: z.string(), name: z.string() });

export const userSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  isActive: z.boolean(),
  mustChangePassword: z.boolean(),
  isLocked: z.boolean(),
  lastLoginAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  roles: z.array(refSchema),
  institutions: z.array(institutionRefWithCodeSchema),
  activeSessions: z.number().int(),
});
export type UserRecord = z.infer<typeof userSchema>;

/** A one-time password, shown once to the administrator who created or reset the account. */
export const oneTimePasswordSchema = z.object({ password: z.string() });
export type OneTimePassword = z.infer<typeof oneTimePasswordSchema>;

/** How many sessions an action closed. */
export const revokedSessionsSchema = z.object({ revoked: z.number().int() });
export type RevokedSessions = z.infer<typeof revokedSessionsSchema>;

/** A user created by an administrator, with the one-time password to hand over. */
export const createdUserSchema = z.object({ user: userSchema, password: z.string() });
export type CreatedUser = z.infer<typeof createdUserSchema>;

/** Roles and institutions of the user form; `assignable`: within the caller's privilege ceiling. */
export const userOptionsSchema = z.object({
  roles: z.array(z.object({ id: z.number(), name: z.string(), assignable: z.boolean() })),
  institutions: z.array(
    z.object({ id: z.number(), code: z.string(), name: z.string(), isActive: z.boolean(), assignable: z.boolean() }),
  ),
});
export type UserOptions = z.infer<typeof userOptionsSchema>;

/** The caller's own profile: the current user plus roles and dates. */
export const profileSchema = currentUserSchema.extend({
  roles: z.array(refSchema),
  lastLoginAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type Profile = z.infer<typeof profileSchema>;

// ---------------------------------------------------------------- roles

/** A role's grants: each action must exist for its resource, and each resource × action appears once. */
export const grantsSchema = z
  .array(grantSchema)
  .max(resourceKeys.length * actions.length)
  .superRefine((grants, ctx) => {
    const seen = new Set<string>();
    grants.forEach((g, i) => {
      const allowed = resources[g.resource] as readonly Action[];
      if (!allowed.includes(g.action)) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'action'],
          message: textWith('accounts.grantActionUnknown', { action: g.action, resource: g.resource }),
        });
      }
      if (!validScopes(g.resource).includes(g.scope)) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'scope'],
          message: textWith('accounts.grantScopeInvalid', {
            scope: g.scope,
            resource: g.resource,
            scopes: validScopes(g.resource).join(', '),
          }),
        });
      }
      const key = `${g.resource}:${g.action}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i], message: textWith('accounts.grantRepeated', { grant: key }) });
      seen.add(key);
    });
  });

export const roleInputSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: text('accounts.roleNameRequired') })
    .max(100, { error: text('accounts.nameTooLong') }),
  description: z
    .string()
    .trim()
    .max(500, { error: text('accounts.descriptionTooLong') })
    .default(''),
  grants: grantsSchema.default([]),
});
export type RoleInput = z.infer<typeof roleInputSchema>;

export const roleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  grants: z.array(z.object({ resource: z.string(), action: z.string(), scope: scopeSchema })),
  userCount: z.number().int(),
  institutionCount: z.number().int(),
  updatedAt: z.iso.datetime(),
});
export type RoleRecord = z.infer<typeof roleSchema>;

export const roleListQuerySchema = listQuerySchema;

/** The export of roles: the list's filters plus the file format. */
export const roleExportQuerySchema = exportQueryOf(roleListQuerySchema);
export type RoleExportQuery = z.infer<typeof roleExportQuerySchema>;

// ---------------------------------------------------------------- institutions

export const institutionKinds = ['SISTEMA', 'INSTITUCION', 'ENTIDAD'] as const;
export const institutionKindSchema = z.enum(institutionKinds);
export type InstitutionKind = z.infer<typeof institutionKindSchema>;

export const institutionInputSchema = z
  .object({
    code: z
      .string()
      .trim()
      .toUpperCase()
      .min(1, { error: text('accounts.codeRequired') })
      .max(30, { error: text('accounts.codeTooLong') })
      .regex(/^[A-Z0-9_-]+$/, { error: text('accounts.codeInvalid') }),
    name: z
      .string()
      .trim()
      .min(1, { error: text('accounts.nameRequired') })
      .max(200, { error: text('accounts.institutionNameTooLong') }),
    /** SISTEMA exists once and is created by the seed; administrators create the other two kinds. */
    kind: z.enum(['INSTITUCION', 'ENTIDAD']),
    entityId: idSchema.nullable().default(null),
    isActive: z.boolean().default(true),
    roleIds: idList.default([]).refine(uniqueIds, { error: text('accounts.roleRepeated') }),
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'ENTIDAD' && v.entityId == null) {
      ctx.addIssue({
        code: 'custom',
        path: ['entityId'],
        message: text('accounts.entityRequired'),
      });
    }
    if (v.kind !== 'ENTIDAD' && v.entityId != null) {
      ctx.addIssue({
        code: 'custom',
        path: ['entityId'],
        message: text('accounts.entityOnlyForEntities'),
      });
    }
  });
export type InstitutionInput = z.infer<typeof institutionInputSchema>;

export const institutionSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  kind: institutionKindSchema,
  entityId: z.number().int().nullable(),
  entityName: z.string().nullable(),
  isActive: z.boolean(),
  roles: z.array(refSchema),
  userCount: z.number().int(),
});
export type InstitutionRecord = z.infer<typeof institutionSchema>;

export const institutionListQuerySchema = listQuerySchema.extend({
  kind: institutionKindSchema.optional(),
  isActive: z.enum(['true', 'false']).optional(),
});
export type InstitutionListQuery = z.infer<typeof institutionListQuerySchema>;

/** Roles (`assignable`: within the caller's ceiling) and municipal entities the institution form offers. */
export const institutionOptionsSchema = z.object({
  roles: z.array(z.object({ id: z.number(), name: z.string(), assignable: z.boolean() })),
  entities: z.array(z.object({ id: z.number(), code: z.string(), name: z.string() })),
});
export type InstitutionOptions = z.infer<typeof institutionOptionsSchema>;

/** The export of institutions: the list's filters plus the file format. */
export const institutionExportQuerySchema = exportQueryOf(institutionListQuerySchema);
export type InstitutionExportQuery = z.infer<typeof institutionExportQuerySchema>;

// ---------------------------------------------------------------- permission matrix

export interface MatrixRow {
  resource: Resource;
  /** i18n key of the menu entry that names the resource (or `roles.resource.<key>` outside the menu). */
  label: string;
  actions: readonly Action[];
}
export interface MatrixGroup {
  id: string;
  label: string;
  rows: MatrixRow[];
}

/**
 * The role editor's matrix, grouped like the sidebar: top-level entries form one group, each menu group
 * its own, and resources the menu does not show (audit, settings) a last group. Every resource of the
 * catalogue appears exactly once.
 */
export function permissionMatrix(tree: readonly MenuItem[] = menuTree): MatrixGroup[] {
  const seen = new Set<Resource>();
  const rowOf = (item: MenuItem): MatrixRow[] => {
    if (!item.name || !isResource(item.name) || seen.has(item.name)) return [];
    seen.add(item.name);
    return [{ resource: item.name, label: item.label, actions: resources[item.name] }];
  };
  const top: MatrixRow[] = [];
  const groups: MatrixGroup[] = [];
  for (const item of tree) {
    if (item.isTitle) continue;
    if (item.subItems) groups.push({ id: item.id, label: item.label, rows: item.subItems.flatMap(rowOf) });
    else top.push(...rowOf(item));
  }
  const rest = resourceKeys
    .filter((r) => !seen.has(r))
    .map((r) => ({ resource: r, label: `roles.resource.${r}`, actions: resources[r] }));
  return [
    { id: 'general', label: 'menu.apps', rows: top },
    ...groups.filter((g) => g.rows.length > 0),
    ...(rest.length ? [{ id: 'other', label: 'roles.otherResources', rows: rest }] : []),
  ];
}

/** Sorts grants by catalogue order, so a role's grants compare and display stably. */
export function sortGrants<T extends Pick<Grant, 'resource' | 'action'>>(grants: readonly T[]): T[] {
  const r = (g: T) => resourceKeys.indexOf(g.resource);
  const a = (g: T) => actions.indexOf(g.action);
  return [...grants].sort((x, y) => r(x) - r(y) || a(x) - a(y));
}
