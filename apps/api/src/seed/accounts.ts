import { type Action, type Grant, type Resource, resourceKeys, resources, type Scope, SYSTEM_INSTITUTION } from '@aporta/domain';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { institutions, roleGrants, roles, userInstitutions, userRoles, users } from '../db/schema/index.ts';
import { systemActor, writeAudit } from '../platform/audit.ts';
import { hashPassword } from '../platform/passwords.ts';

const every = (filter: (r: Resource, a: Action) => boolean = () => true, scope: Scope = 'ALL'): Grant[] =>
  resourceKeys.flatMap((r) =>
    (resources[r] as readonly Action[]).filter((a) => filter(r, a)).map((action) => ({ resource: r, action, scope })),
  );

const pick = (scope: Scope, entries: [Resource, Action[]][]): Grant[] =>
  entries.flatMap(([resource, acts]) =>
    acts.filter((a) => (resources[resource] as readonly Action[]).includes(a)).map((action) => ({ resource, action, scope })),
  );

const ownProfile = pick('ALL', [['profile', ['READ', 'UPDATE']]]);

/** Who may manage permissions themselves: only the super administrator changes roles and institutions. */
const permissionAdmin: Resource[] = ['roles', 'institutions'];

/**
 * The five roles of the issue. Super administrador holds every permission, so a full administrator can
 * exist outside SISTEMA; what the shell labels SUPER ADMINISTRADOR and what the "last super
 * administrator" rule protects is membership of the SISTEMA institution.
 */
export const seedRoles: { name: string; description: string; grants: Grant[] }[] = [
  { name: 'Super administrador', description: 'Todos los permisos del sistema.', grants: every() },
  {
    name: 'Administrador',
    description: 'Personal central: todos los módulos y los usuarios; consulta roles e instituciones sin modificarlos.',
    // The template's sample-data areas are the super administrator's alone by default (issue 18).
    grants: every((r, a) => r !== 'plantilla' && (!permissionAdmin.includes(r) || a === 'READ' || a === 'EXPORT')),
  },
  {
    name: 'Delegado',
    description: 'Revisa y aprueba las planillas de las entidades de sus regiones.',
    grants: [
      ...ownProfile,
      ...pick('REGION', [
        ['planillas', ['READ', 'APPROVE', 'EXPORT']],
        ['planilla-view', ['READ', 'EXPORT']],
        ['delegate-review', ['READ', 'APPROVE']],
        ['buscar-planillas', ['READ', 'EXPORT']],
        ['planilla-employees', ['READ', 'EXPORT']],
        ['planilla-payments', ['READ', 'EXPORT']],
        ['contributions', ['READ', 'EXPORT']],
        ['employee-contribution-history', ['READ', 'EXPORT']],
        ['employer-contribution-history', ['READ', 'EXPORT']],
        ['payment-orders', ['READ', 'EXPORT']],
        ['payment-agreements', ['READ', 'EXPORT']],
        ['municipal-entities', ['READ', 'EXPORT']],
        ['entity-regions', ['READ']],
        ['entity-assignment', ['READ']],
        ['statistics', ['READ']],
        ['administrative', ['READ']],
        ['contributors', ['READ']],
        ['contributor-list', ['READ', 'EXPORT']],
      ]),
    ],
  },
  {
    name: 'Operador de entidad',
    description: 'Encargado de planilla de una municipalidad: solo las planillas, órdenes y recibos de su entidad.',
    grants: [
      ...ownProfile,
      ...pick('ENTITY', [
        ['planillas', ['READ', 'CREATE', 'UPDATE', 'EXPORT']],
        ['planilla-upload', ['READ', 'CREATE']],
        ['planilla-view', ['READ', 'EXPORT']],
        ['planilla-employees', ['READ', 'EXPORT']],
        ['contributions', ['READ', 'EXPORT']],
        ['payment-orders', ['READ', 'EXPORT']],
        ['receipts-7b', ['READ', 'EXPORT']],
        ['planilla-payments', ['READ']],
        // Requests (SIG) of their entity: file them, correct them when observed (issue 17).
        ['sig-items', ['READ', 'CREATE', 'UPDATE']],
        // The tokens their entity's payroll software uses (issue 30): within what they hold themselves.
        ['api-tokens', ['READ', 'CREATE', 'DELETE']],
        // The webhooks their entity's systems are told of its events at (issue 30).
        ['webhooks', ['READ', 'CREATE', 'UPDATE']],
      ]),
      ...pick('ALL', [['workflow', ['READ']]]),
    ],
  },
  // Issue 17: the people who move requests (SIG items); flows name these roles on their transitions.
  {
    name: 'Receptor de solicitudes',
    description: 'Recibe las solicitudes (SIG) y las envía a revisión; emite constancias.',
    grants: [
      ...ownProfile,
      ...pick('ALL', [
        ['workflow', ['READ']],
        ['sig-items', ['READ', 'CREATE', 'UPDATE']],
        ['sig-query', ['READ', 'EXPORT']],
      ]),
    ],
  },
  {
    name: 'Revisor de solicitudes',
    description: 'Revisa las solicitudes (SIG): las observa o las pasa a dictamen.',
    grants: [
      ...ownProfile,
      ...pick('ALL', [
        ['workflow', ['READ']],
        ['sig-items', ['READ', 'UPDATE']],
        ['sig-query', ['READ', 'EXPORT']],
        ['contributors', ['READ']],
      ]),
    ],
  },
  {
    name: 'Aprobador de solicitudes',
    description: 'Resuelve las solicitudes (SIG); al aprobar una jubilación se crea la pensión.',
    grants: [
      ...ownProfile,
      ...pick('ALL', [
        ['workflow', ['READ']],
        ['sig-items', ['READ', 'UPDATE', 'APPROVE']],
        ['sig-query', ['READ', 'EXPORT']],
        ['passive-classes', ['READ', 'CREATE']],
        ['contributors', ['READ']],
      ]),
    ],
  },
  {
    name: 'Consulta',
    description: 'Solo lectura y exportación en todos los módulos.',
    grants: [
      ...every((r, a) => r !== 'plantilla' && (a === 'READ' || a === 'EXPORT')),
      ...pick('ALL', [['profile', ['UPDATE']]]),
    ],
  },
];

/**
 * Installs the roles above when they do not exist yet. Idempotent: a role that exists keeps the grants
 * administrators gave it, so restarting never undoes their edits.
 */
export async function seedAccounts(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    for (const role of seedRoles) {
      const [created] = await tx
        .insert(roles)
        .values({ name: role.name, description: role.description })
        .onConflictDoNothing()
        .returning({ id: roles.id });
      if (!created) continue;
      await tx.insert(roleGrants).values(role.grants.map((g) => ({ roleId: created.id, ...g })));
      await writeAudit(tx, systemActor, {
        action: 'CREATE',
        entityType: 'role',
        entityId: created.id,
        after: { name: role.name },
      });
    }
  });
}

/** Documented in the README; demo users exist only with DEMO_DATA (never in production). */
export const DEMO_PASSWORD = 'Demo-Clave-2026';
export const demoUsers = [
  {
    email: 'superadmin@demo.aporta.local',
    firstName: 'Sara',
    lastName: 'Superadmin',
    role: 'Super administrador',
    institution: SYSTEM_INSTITUTION,
  },
  {
    email: 'administrador@demo.aporta.local',
    firstName: 'Andrés',
    lastName: 'Administrador',
    role: 'Administrador',
    institution: 'PLAN',
  },
  { email: 'delegado@demo.aporta.local', firstName: 'Diana', lastName: 'Delegada', role: 'Delegado', institution: 'PLAN' },
  {
    email: 'delegado.occidente@demo.aporta.local',
    firstName: 'José',
    lastName: 'Tzoc Ajanel',
    role: 'Delegado',
    institution: 'PLAN',
  },
  // Reviews the planillas of región I (Metropolitana), where Mixco is (seed/planillas.ts links the delegate record).
  {
    email: 'delegado.metropolitana@demo.aporta.local',
    firstName: 'Marta',
    lastName: 'Delegada Metropolitana',
    role: 'Delegado',
    institution: 'PLAN',
  },
  // The payroll clerk of the Municipalidad de Mixco: the institution the catalogue seeds give that entity.
  {
    email: 'operador@demo.aporta.local',
    firstName: 'Óscar',
    lastName: 'Operador',
    role: 'Operador de entidad',
    institution: 'MUNI-0108',
  },
  { email: 'consulta@demo.aporta.local', firstName: 'Carla', lastName: 'Consulta', role: 'Consulta', institution: 'PLAN' },
  // Requests (SIG, issue 17): who receives, reviews and resolves them.
  {
    email: 'recepcion.sig@demo.aporta.local',
    firstName: 'Rebeca',
    lastName: 'Recepción',
    role: 'Receptor de solicitudes',
    institution: 'PLAN',
  },
  {
    email: 'revisor.sig@demo.aporta.local',
    firstName: 'Rubén',
    lastName: 'Revisor',
    role: 'Revisor de solicitudes',
    institution: 'PLAN',
  },
  {
    email: 'aprobador.sig@demo.aporta.local',
    firstName: 'Amanda',
    lastName: 'Aprobadora',
    role: 'Aprobador de solicitudes',
    institution: 'PLAN',
  },
] as const;

/** One demo user per seeded role. Idempotent: existing e-mails are left as they are. Only with DEMO_DATA. */
export async function seedAccountsDemo(db: Db): Promise<void> {
  const existing = await db
    .select({ email: users.email })
    .from(users)
    .where(
      inArray(
        sql`lower(${users.email})`,
        demoUsers.map((u) => u.email),
      ),
    );
  const missing = demoUsers.filter((u) => !existing.some((e) => e.email.toLowerCase() === u.email));
  if (missing.length === 0) return;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    for (const u of missing) {
      const [role] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.name, u.role));
      const [inst] = await tx.select({ id: institutions.id }).from(institutions).where(eq(institutions.code, u.institution));
      const [user] = await tx
        .insert(users)
        .values({ email: u.email, firstName: u.firstName, lastName: u.lastName, passwordHash })
        .returning({ id: users.id });
      if (role) await tx.insert(userRoles).values({ userId: user.id, roleId: role.id });
      if (inst) await tx.insert(userInstitutions).values({ userId: user.id, institutionId: inst.id, position: 0 });
      await writeAudit(tx, systemActor, {
        action: 'CREATE',
        entityType: 'user',
        entityId: user.id,
        after: { email: u.email, demo: true },
      });
    }
  });
}
