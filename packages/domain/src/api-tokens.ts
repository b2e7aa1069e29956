import { z } from 'zod';
import { dateSchema, idTextSchema, pickedIdSchema, textSchema } from './fields.ts';
import { exportQueryOf, listQuerySchema } from './list.ts';
import { text } from './messages.ts';
import type { Action, EffectivePermissions, Permission, Resource, Scope } from './permissions.ts';
import { scopeFor } from './permissions.ts';

/**
 * API tokens for integrations (issue 30): a municipality's payroll software uploads and submits its
 * planillas, and reads its orders, payments, receipts and account statement, with `Authorization: Bearer
 * apt_…`. A token belongs to one municipal entity and holds a subset of the integration permissions below,
 * each a bundle of the existing permission keys; it never exceeds its creator (the privilege ceiling) and
 * works only on the routes of INTEGRATION_ROUTES.
 */

/** Every token starts with it, so a leaked one is recognised (secret scanners, logs). */
export const API_TOKEN_PREFIX = 'apt_';
/** The longest life a token may be given, in days from today. */
export const API_TOKEN_MAX_DAYS = 365;

/** What a token may be allowed to do, each mapped to the permission keys and actions it stands for. */
export const INTEGRATION_PERMISSIONS = {
  /** Upload a planilla file, follow its validation, confirm or discard it; read the planilla it wrote. */
  'planillas.upload': [
    { resource: 'planilla-upload', action: 'READ' },
    { resource: 'planilla-upload', action: 'CREATE' },
    { resource: 'planillas', action: 'READ' },
  ],
  /** Submit a draft planilla for review (and read it). */
  'planillas.submit': [
    { resource: 'planillas', action: 'READ' },
    { resource: 'planillas', action: 'UPDATE' },
  ],
  'orders.read': [{ resource: 'payment-orders', action: 'READ' }],
  'payments.read': [{ resource: 'planilla-payments', action: 'READ' }],
  'receipts.read': [{ resource: 'receipts-7b', action: 'READ' }],
  'statement.read': [{ resource: 'financial-module', action: 'READ' }],
} as const satisfies Record<string, readonly Permission[]>;

export type IntegrationPermission = keyof typeof INTEGRATION_PERMISSIONS;
export const integrationPermissionKeys = Object.keys(INTEGRATION_PERMISSIONS) as IntegrationPermission[];
export const integrationPermissionSchema = z.enum(
  integrationPermissionKeys as [IntegrationPermission, ...IntegrationPermission[]],
  {
    error: text('integrations.permissionInvalid'),
  },
);

/** Spanish names of the integration permissions (exports and the server's messages). */
export const INTEGRATION_PERMISSION_NAMES: Record<IntegrationPermission, string> = {
  'planillas.upload': 'Cargar planillas',
  'planillas.submit': 'Enviar planillas a revisión',
  'orders.read': 'Consultar órdenes de pago',
  'payments.read': 'Consultar pagos',
  'receipts.read': 'Consultar recibos 7-B',
  'statement.read': 'Consultar el estado de cuenta',
};

/** The permission keys and actions a set of integration permissions stands for (each once). */
export function integrationGrants(names: readonly IntegrationPermission[]): Permission[] {
  const out = new Map<string, Permission>();
  for (const n of names) {
    for (const p of INTEGRATION_PERMISSIONS[n] ?? []) out.set(`${p.resource}:${p.action}`, p);
  }
  return [...out.values()];
}

/** The integration permissions whose every permission key `perms` holds (what a user may put in a token). */
export function integrationPermissionsHeld(perms: EffectivePermissions): IntegrationPermission[] {
  return integrationPermissionKeys.filter((n) =>
    INTEGRATION_PERMISSIONS[n].every((p) => !!scopeFor(perms, p.resource, p.action)),
  );
}

/**
 * The routes a token may call (method and route template), each under its own `config.access`: the token
 * must hold that permission through its integration permissions. Every other route answers 403 to a token.
 * The OpenAPI document lists them under the «Integraciones» tag.
 */
export const INTEGRATION_ROUTES: readonly { method: 'GET' | 'POST'; url: string }[] = [
  { method: 'GET', url: '/api/planilla-uploads/template' },
  { method: 'POST', url: '/api/planilla-uploads' },
  { method: 'GET', url: '/api/planilla-uploads' },
  { method: 'GET', url: '/api/planilla-uploads/:id' },
  { method: 'GET', url: '/api/planilla-uploads/:id/rows' },
  { method: 'GET', url: '/api/planilla-uploads/:id/exceptions' },
  { method: 'POST', url: '/api/planilla-uploads/:id/commit' },
  { method: 'POST', url: '/api/planilla-uploads/:id/discard' },
  { method: 'GET', url: '/api/planillas' },
  { method: 'GET', url: '/api/planillas/:id' },
  { method: 'GET', url: '/api/planillas/:id/lines' },
  { method: 'GET', url: '/api/planillas/:id/comments' },
  { method: 'POST', url: '/api/planillas/:id/transitions' },
  { method: 'GET', url: '/api/payment-orders' },
  { method: 'GET', url: '/api/payment-orders/:id' },
  { method: 'GET', url: '/api/payment-orders/:id/pdf' },
  { method: 'GET', url: '/api/payments' },
  { method: 'GET', url: '/api/payments/:id' },
  { method: 'GET', url: '/api/receipts' },
  { method: 'GET', url: '/api/receipts/:id/pdf' },
  { method: 'GET', url: '/api/financial/statement' },
];

const integrationRouteKeys = new Set(INTEGRATION_ROUTES.map((r) => `${r.method} ${r.url}`));
/** True when a token may call this route (its permission is checked apart). */
export const isIntegrationRoute = (method: string, url: string): boolean => integrationRouteKeys.has(`${method} ${url}`);

/** The permissions of a token as the access guard sees them: only its own keys, each on its one entity. */
export function tokenPermissions(names: readonly IntegrationPermission[]): EffectivePermissions {
  const out: EffectivePermissions = {};
  for (const p of integrationGrants(names)) {
    const byAction: Partial<Record<Action, Scope>> = out[p.resource as Resource] ?? {};
    byAction[p.action] = 'ENTITY';
    out[p.resource as Resource] = byAction;
  }
  return out;
}

export const apiTokenStates = ['ACTIVE', 'EXPIRED', 'REVOKED'] as const;
export const apiTokenStateSchema = z.enum(apiTokenStates, { error: text('integrations.stateInvalid') });
export type ApiTokenState = z.infer<typeof apiTokenStateSchema>;

/** A new token: its name, entity, permissions and the last day it works (at most a year away). */
export const apiTokenInputSchema = z
  .object({
    name: textSchema({ label: 'Nombre', min: 1, max: 100 }),
    entityId: pickedIdSchema(text('integrations.entityRequired')),
    permissions: z
      .array(integrationPermissionSchema, { error: text('integrations.permissionsRequired') })
      .min(1, { error: text('integrations.permissionsRequired') })
      .max(integrationPermissionKeys.length, { error: text('integrations.permissionsRepeated') })
      .refine((list) => new Set(list).size === list.length, { error: text('integrations.permissionsRepeated') }),
    expiresOn: dateSchema,
  })
  .strict();
export type ApiTokenInput = z.infer<typeof apiTokenInputSchema>;

/** A token as lists show it: never its hash, only the first characters of the token to recognise it. */
export const apiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  entityId: z.number().int(),
  entityName: z.string(),
  entityCode: z.string(),
  permissions: z.array(integrationPermissionSchema),
  /** `apt_` and the token's first characters. */
  prefix: z.string(),
  createdById: z.number().int().nullable(),
  createdByEmail: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  state: apiTokenStateSchema,
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** The answer to a creation: the token itself, shown this once (only its hash is kept). */
export const apiTokenCreatedSchema = z.object({ apiToken: apiTokenSchema, token: z.string() });
export type ApiTokenCreated = z.infer<typeof apiTokenCreatedSchema>;

/** The entities a user may create tokens for (the scope of api-tokens CREATE). */
export const apiTokenEntitySchema = z.object({ id: z.number().int(), code: z.string(), name: z.string() });
export type ApiTokenEntity = z.infer<typeof apiTokenEntitySchema>;

export const apiTokenListQuerySchema = listQuerySchema.extend({
  entityId: idTextSchema.optional(),
  state: apiTokenStateSchema.optional(),
});
export type ApiTokenListQuery = z.infer<typeof apiTokenListQuerySchema>;
export const apiTokenExportQuerySchema = exportQueryOf(apiTokenListQuerySchema);
