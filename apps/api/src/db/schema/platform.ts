import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { municipalEntities } from './catalogs.ts';

const ts = (name?: string) => (name ? timestamp(name, { withTimezone: true }) : timestamp({ withTimezone: true }));
const createdAt = () => ts().notNull().defaultNow();

/** SISTEMA, the institution itself, or a municipal entity's institution. */
export const institutions = pgTable('institutions', {
  id: serial().primaryKey(),
  code: text().notNull().unique(),
  name: text().notNull(),
  kind: text({ enum: ['SISTEMA', 'INSTITUCION', 'ENTIDAD'] }).notNull(),
  /** For kind ENTIDAD: the municipal entity whose clerks belong to it (the ENTITY data scope). */
  entityId: integer().references((): AnyPgColumn => municipalEntities.id),
  isActive: boolean().notNull().default(true),
  createdAt: createdAt(),
  updatedAt: createdAt(),
});

export const roles = pgTable('roles', {
  id: serial().primaryKey(),
  name: text().notNull().unique(),
  description: text().notNull().default(''),
  createdAt: createdAt(),
  updatedAt: createdAt(),
});

export const roleGrants = pgTable(
  'role_grants',
  {
    roleId: integer()
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    resource: text().notNull(),
    action: text().notNull(),
    scope: text({ enum: ['ALL', 'REGION', 'ENTITY'] }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.resource, t.action] })],
);

/** Default roles an institution gives to all its users. */
export const institutionRoles = pgTable(
  'institution_roles',
  {
    institutionId: integer()
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    roleId: integer()
      .notNull()
      .references(() => roles.id),
  },
  (t) => [primaryKey({ columns: [t.institutionId, t.roleId] })],
);

export const users = pgTable(
  'users',
  {
    id: serial().primaryKey(),
    email: text().notNull(),
    firstName: text().notNull().default(''),
    lastName: text().notNull().default(''),
    passwordHash: text().notNull(),
    isActive: boolean().notNull().default(true),
    mustChangePassword: boolean().notNull().default(false),
    failedLoginCount: smallint().notNull().default(0),
    firstFailedLoginAt: ts(),
    lockedUntil: ts(),
    lastLoginAt: ts(),
    createdAt: createdAt(),
    updatedAt: createdAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(sql`lower(${t.email})`)],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: integer()
      .notNull()
      .references(() => roles.id),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] })],
);

/** Ordered: the first institution is the one the shell shows. */
export const userInstitutions = pgTable(
  'user_institutions',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    institutionId: integer()
      .notNull()
      .references(() => institutions.id),
    position: smallint().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.institutionId] })],
);

/** Opaque session tokens: only their SHA-256 is stored, so a leaked table grants nothing. */
export const sessions = pgTable(
  'sessions',
  {
    id: serial().primaryKey(),
    tokenHash: text().notNull().unique(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: createdAt(),
    expiresAt: ts().notNull(),
    revokedAt: ts(),
    ip: text(),
    userAgent: text(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Every change, written in the same transaction as the change itself. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    at: createdAt(),
    actorId: integer().references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text(),
    action: text().notNull(),
    entityType: text().notNull(),
    entityId: text(),
    before: jsonb(),
    after: jsonb(),
    ip: text(),
    /**
     * The municipal entity the row concerns (a contributor's entity, the entity record itself…), for
     * the data scope; null for rows about non-entity things (users, roles, catalogues), which only an
     * ALL grant sees. No foreign key: the trail outlives the entity.
     */
    scopeEntityId: integer(),
    /**
     * The hash chain (platform/audit-chain.ts), null until the sealer chains the row: its position in the
     * chain (1, 2, 3… without gaps), the id and hash of the row before it, and
     * hash = SHA-256(prev_hash ‖ canonical row). The application never writes these; the sealer does.
     * The id's default draws the transaction id before the sequence (migration 0043_audit_chain): the sealer's proof needs it.
     */
    seq: bigint({ mode: 'number' }),
    prevId: bigint({ mode: 'number' }),
    prevHash: text(),
    hash: text(),
  },
  (t) => [
    index('audit_entity_idx').on(t.entityType, t.entityId),
    index('audit_at_id_idx').on(t.at, t.id),
    index('audit_scope_entity_idx').on(t.scopeEntityId),
  ],
);

/** The transaction id type of PostgreSQL ≥ 13 (`pg_current_xact_id()`), as its decimal text. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * The one row (id 1) saying how far the audit chain is sealed (platform/audit-chain.ts): every audit row
 * with id ≤ sealed_through is sealed; the last sealed row's id, position and hash; and the fence the
 * next sealing waits for (the id sequence's value, and a transaction id taken after it).
 */
export const auditChainHead = pgTable(
  'audit_chain_head',
  {
    id: smallint().primaryKey().default(1),
    sealedThrough: bigint({ mode: 'number' }).notNull().default(0),
    lastRowId: bigint({ mode: 'number' }),
    lastSeq: bigint({ mode: 'number' }).notNull().default(0),
    lastHash: text().notNull().default('0'.repeat(64)),
    fenceId: bigint({ mode: 'number' }),
    fenceXid: xid8(),
    sealedAt: ts(),
  },
  (t) => [check('audit_chain_head_one_row', sql`${t.id} = 1`)],
);
