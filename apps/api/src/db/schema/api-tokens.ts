import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { municipalEntities } from './catalogs.ts';
import { users } from './platform.ts';

const ts = () => timestamp({ withTimezone: true });

/**
 * Tokens for integrations (issue 30): a municipality's payroll software calls the API with one. Bound to one
 * municipal entity and a subset of the integration permissions (`permissions`: keys of the domain's
 * INTEGRATION_PERMISSIONS); only the SHA-256 of the token is kept (shown once at creation), with its first
 * characters (`prefix`) to recognise it in a list. Revoking sets `revoked_at`; a trigger (migration
 * `api_tokens_auth`) tells every process's session cache through 'aporta_auth'.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial().primaryKey(),
    name: text().notNull(),
    entityId: integer()
      .notNull()
      .references(() => municipalEntities.id),
    permissions: text().array().notNull(),
    tokenHash: text().notNull().unique(),
    prefix: text().notNull(),
    createdBy: integer()
      .notNull()
      .references(() => users.id),
    createdAt: ts().notNull().defaultNow(),
    expiresAt: ts().notNull(),
    lastUsedAt: ts(),
    revokedAt: ts(),
    revokedBy: integer().references(() => users.id),
  },
  (t) => [
    index('api_tokens_entity_idx').on(t.entityId),
    index('api_tokens_created_by_idx').on(t.createdBy),
    check('api_tokens_permissions_nonempty', sql`cardinality(${t.permissions}) > 0`),
  ],
);
