import { z } from 'zod';
import { type CollectionName, catalogScreens, collectionDefinitions, collectionNames } from './catalogs.ts';

/**
 * The permission catalogue: every resource key (one per screen of the sidebar, the `name` of its menu
 * entry) and the actions that make sense on it. Single source of truth for the API guard, the role
 * editor's matrix and the menu filter.
 */
export const actions = ['READ', 'CREATE', 'UPDATE', 'DELETE', 'APPROVE', 'EXPORT', 'SIGN'] as const;
export const actionSchema = z.enum(actions);
export type Action = z.infer<typeof actionSchema>;

/** Data scope of a grant: everything, the entities of the delegate's regions, or the user's own entity. */
export const scopes = ['ALL', 'REGION', 'ENTITY'] as const;
export const scopeSchema = z.enum(scopes);
export type Scope = z.infer<typeof scopeSchema>;

/** Broadest first: when two grants give the same action, the broader scope wins. */
export const scopeRank: Record<Scope, number> = { ALL: 3, REGION: 2, ENTITY: 1 };

const CRUD = ['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT'] as const;
const READ_EXPORT = ['READ', 'EXPORT'] as const;

/**
 * The resource of every catalogue (catalogs.ts declares each once): its name, with the CRUD actions, in
 * menu order. Its menu entry and its screens are derived from the same definition.
 */
const catalogueResources = Object.fromEntries(
  [...catalogScreens.map((s) => s.name), ...collectionNames.filter((name) => !collectionDefinitions[name].menu)].map((name) => [
    name,
    [...CRUD],
  ]),
) as Record<CollectionName, (typeof CRUD)[number][]>;

export const resources = {
  profile: ['READ', 'UPDATE'],
  'legal-module': [...CRUD],
  'buscar-planillas': READ_EXPORT,
  supervivencia: [...CRUD, 'APPROVE'],
  'passive-classes': [...CRUD, 'APPROVE'],
  'financial-module': [...CRUD],
  'voluntary-payments': [...CRUD],
  documents: [...CRUD, 'SIGN'],
  institutions: [...CRUD],
  users: [...CRUD],
  roles: [...CRUD],
  'sig-query': READ_EXPORT,
  'payment-orders': [...CRUD, 'APPROVE'],
  renap: ['READ'],
  'signature-admin': [...CRUD],
  'auto-signature': ['READ', 'SIGN'],
  // Workflow
  workflow: ['READ'],
  flow: [...CRUD, 'APPROVE'],
  forms: [...CRUD],
  'sig-items': [...CRUD, 'APPROVE'],
  // Digital signing
  'signing-upload': ['READ', 'CREATE'],
  'signing-signed': READ_EXPORT,
  'signing-pending': ['READ', 'SIGN'],
  'signing-rejected': READ_EXPORT,
  // Planillas
  planillas: [...CRUD, 'APPROVE'],
  'planilla-view': READ_EXPORT,
  'planilla-upload': ['READ', 'CREATE'],
  'receipts-7b': [...CRUD],
  'receipt-ranges-7b': [...CRUD],
  'delegate-review': ['READ', 'APPROVE'],
  'planilla-payments': [...CRUD],
  contributions: READ_EXPORT,
  'employee-contribution-history': READ_EXPORT,
  'employer-contribution-history': READ_EXPORT,
  'payment-agreements': [...CRUD, 'APPROVE'],
  'planilla-employees': READ_EXPORT,
  'fallen-wages': [...CRUD, 'APPROVE'],
  // Contributors
  contributors: [...CRUD],
  'contributor-list': READ_EXPORT,
  'contributor-new': ['READ', 'CREATE'],
  'contributor-bulk-upload': ['READ', 'CREATE'],
  'cui-approval': ['READ', 'APPROVE'],
  'contributor-report-general': READ_EXPORT,
  'contributor-report-municipality': READ_EXPORT,
  'contributor-report-type': READ_EXPORT,
  // Administrative
  administrative: ['READ'],
  statistics: ['READ'],
  // Every catalogue: delegates, municipal entities, regions…, contributor types (Afiliados → Catálogos), banks.
  ...catalogueResources,
  'planilla-audit-logs': READ_EXPORT,
  // Cross-cutting screens outside the spec's sidebar
  audit: READ_EXPORT,
  // Administración → Parámetros: the effective-dated settings (issue 10). Not entity data: ALL only.
  settings: ['READ', 'UPDATE'],
  // Background jobs ("Procesos"): everyone sees and cancels their own; READ shows everyone's, UPDATE cancels them.
  jobs: ['READ', 'UPDATE'],
  // «Correo saliente» (issue 29): the outbox of every mail the application writes, its retries and templates.
  // Not entity data (a message may name any entity, or none): ALL only.
  mail: ['READ', 'UPDATE', 'EXPORT'],
  // «Tokens de integración» (issue 30): tokens a municipality's payroll software calls the API with. Entity data:
  // an entity's own administrator (ENTITY) manages its tokens only.
  'api-tokens': ['READ', 'CREATE', 'DELETE', 'EXPORT'],
  // «Webhooks» (issue 30): signed deliveries of an entity's events to its systems. Entity data: an entity's own
  // administrator (ENTITY) manages its endpoints and reads their deliveries; institution-wide ones need ALL.
  webhooks: ['READ', 'CREATE', 'UPDATE', 'EXPORT'],
  // The template's sample-data areas (issue 18): CRM, e-commerce, learning, real estate, tickets, chat…
  plantilla: [...CRUD],
} as const satisfies Record<string, readonly Action[]>;

export type Resource = keyof typeof resources;

/**
 * How a resource's rows are scoped. `entity`: each row belongs to a municipal entity (a contributor,
 * a planilla, an audit row about one…), so REGION and ENTITY grants filter it. `region`: rows belong
 * to a region, so only REGION narrows them (no resource needs it yet). `none`: catalogues, accounts
 * configuration and screens that are not entity data; only ALL makes sense.
 */
export type Scopability = 'entity' | 'region' | 'none';

const entityScoped = [
  'legal-module',
  'buscar-planillas',
  'supervivencia',
  'passive-classes',
  'financial-module',
  'voluntary-payments',
  'documents',
  'users',
  'sig-query',
  'sig-items',
  'payment-orders',
  'renap',
  'signing-upload',
  'signing-signed',
  'signing-pending',
  'signing-rejected',
  'planillas',
  'planilla-view',
  'planilla-upload',
  'receipts-7b',
  'receipt-ranges-7b',
  'delegate-review',
  'planilla-payments',
  'contributions',
  'employee-contribution-history',
  'employer-contribution-history',
  'payment-agreements',
  'planilla-employees',
  'fallen-wages',
  'contributors',
  'contributor-list',
  'contributor-new',
  'contributor-bulk-upload',
  'cui-approval',
  'contributor-report-general',
  'contributor-report-municipality',
  'contributor-report-type',
  'administrative',
  'statistics',
  'planilla-audit-logs',
  'audit',
  'api-tokens',
  'webhooks',
  // The catalogues whose rows belong to an entity (municipal entities, their regions and assignments).
  ...collectionNames.filter((name) => collectionDefinitions[name].scopedByEntity),
] as const satisfies readonly Resource[];

export const resourceScopability: Record<Resource, Scopability> = Object.fromEntries(
  (Object.keys(resources) as Resource[]).map((r) => [r, (entityScoped as readonly Resource[]).includes(r) ? 'entity' : 'none']),
) as Record<Resource, Scopability>;

const scopesOf: Record<Scopability, readonly Scope[]> = { entity: scopes, region: ['ALL', 'REGION'], none: ['ALL'] };

/** The scopes a grant on `resource` may carry (broadest first); a non-scopable resource takes only ALL. */
export const validScopes = (resource: Resource): readonly Scope[] => scopesOf[resourceScopability[resource]];

/** Resources whose rows a REGION or ENTITY grant narrows: what the generated scope test covers. */
export const scopableResources = (Object.keys(resources) as Resource[]).filter((r) => resourceScopability[r] !== 'none');
export const resourceKeys = Object.keys(resources) as Resource[];
export const resourceSchema = z.enum(resourceKeys as [Resource, ...Resource[]]);

export const isResource = (value: string): value is Resource => Object.hasOwn(resources, value);

/** A permission as a route or a menu entry asks for it. */
export interface Permission {
  resource: Resource;
  action: Action;
}

export const grantSchema = z.object({
  resource: resourceSchema,
  action: actionSchema,
  scope: scopeSchema.default('ALL'),
});
export type Grant = z.infer<typeof grantSchema>;

/** Effective permissions of a user: resource → action → broadest scope granted. */
export type EffectivePermissions = Partial<Record<Resource, Partial<Record<Action, Scope>>>>;

/** Merges grants, keeping the broadest scope per resource and action. */
export function mergeGrants(grants: readonly Grant[]): EffectivePermissions {
  const out: EffectivePermissions = {};
  for (const g of grants) {
    const byAction = out[g.resource] ?? {};
    const current = byAction[g.action];
    if (!current || scopeRank[g.scope] > scopeRank[current]) byAction[g.action] = g.scope;
    out[g.resource] = byAction;
  }
  return out;
}

/** Every action of every resource with scope ALL: what the SISTEMA institution holds. */
export function allPermissions(): EffectivePermissions {
  const out: EffectivePermissions = {};
  for (const key of resourceKeys) {
    out[key] = Object.fromEntries(resources[key].map((a) => [a, 'ALL'])) as Partial<Record<Action, Scope>>;
  }
  return out;
}

/** The scope with which `perms` allows `action` on `resource`, or null when it does not. */
export function scopeFor(perms: EffectivePermissions, resource: Resource, action: Action): Scope | null {
  return perms[resource]?.[action] ?? null;
}

/** True when the user holds any action on the resource: what a menu entry asks for. */
export function hasAnyPermission(perms: EffectivePermissions, resource: Resource): boolean {
  const byAction = perms[resource];
  return !!byAction && Object.keys(byAction).length > 0;
}

/** The institution whose users hold every permission. */
export const SYSTEM_INSTITUTION = 'SISTEMA';
export const SYSTEM_INSTITUTION_LABEL = 'SUPER ADMINISTRADOR';

/**
 * Screens whose only purpose is an action other than reading (a form to create, an upload): READ alone
 * does not open them, so a read-only role (Consulta) is never offered "Nuevo afiliado" or "Carga masiva".
 */
export const screenActions: Partial<Record<Resource, Action>> = {
  'contributor-new': 'CREATE',
  'contributor-bulk-upload': 'CREATE',
  'planilla-upload': 'CREATE',
  'signing-upload': 'CREATE',
};

/** True when the user may open the screen of `resource`: its own action when it has one, else any. */
export function canOpenScreen(perms: EffectivePermissions, resource: Resource): boolean {
  const action = screenActions[resource];
  return action ? !!scopeFor(perms, resource, action) : hasAnyPermission(perms, resource);
}
