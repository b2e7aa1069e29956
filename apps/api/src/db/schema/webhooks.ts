import type { WebhookDeliveryState, WebhookEvent, WebhookPayload } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, jsonb, pgTable, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { municipalEntities } from './catalogs.ts';
import { users } from './platform.ts';

const ts = () => timestamp({ withTimezone: true });

/**
 * Signed webhooks (issue 30): a URL an entity (or the institution: `entity_id` null) registers for some events.
 * `secret` is the HMAC key, kept sealed with SIGNING_MASTER_KEY when configured (`enc:` prefix), as is
 * otherwise (`raw:` prefix): it must be readable to sign (platform/webhooks.ts, docs/decisions.md).
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: serial().primaryKey(),
    entityId: integer().references(() => municipalEntities.id),
    name: text().notNull(),
    url: text().notNull(),
    events: text().array().$type<WebhookEvent[]>().notNull(),
    secret: text().notNull(),
    isActive: boolean().notNull().default(true),
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (t) => [
    index('webhook_endpoints_entity_idx').on(t.entityId),
    check('webhook_endpoints_events_nonempty', sql`cardinality(${t.events}) > 0`),
  ],
);

/**
 * One event for one endpoint (platform/webhooks.ts writes it in the change's transaction; the dispatcher,
 * platform/webhook-dispatcher.ts, claims PENDING rows with FOR UPDATE SKIP LOCKED under `lease_until`, as
 * the mail outbox does). `record_key` with the endpoint and event is unique: the same fact is queued once.
 * `entity_id` is the event's entity (null for an institution-wide ping), for the scope of the delivery log.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    endpointId: integer()
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    entityId: integer().references(() => municipalEntities.id),
    event: text().$type<WebhookEvent>().notNull(),
    recordKey: text().notNull(),
    payload: jsonb().$type<WebhookPayload>().notNull(),
    state: text({ enum: ['PENDING', 'SENDING', 'SENT', 'FAILED'] })
      .$type<WebhookDeliveryState>()
      .notNull()
      .default('PENDING'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: ts().notNull().defaultNow(),
    leaseUntil: ts(),
    responseStatus: integer(),
    responseBody: text(),
    lastError: text(),
    createdAt: ts().notNull().defaultNow(),
    deliveredAt: ts(),
  },
  (t) => [
    unique('webhook_deliveries_dedupe').on(t.endpointId, t.event, t.recordKey),
    index('webhook_deliveries_claim_idx').on(t.nextAttemptAt, t.id).where(sql`${t.state} = 'PENDING'`),
    index('webhook_deliveries_lease_idx').on(t.leaseUntil).where(sql`${t.state} = 'SENDING'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_deliveries_entity_idx').on(t.entityId, t.id),
  ],
);
