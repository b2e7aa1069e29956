import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { money } from '../columns.ts';
import { municipalEntities } from './catalogs.ts';
import { jobs } from './jobs.ts';
import { mailOutbox } from './mail.ts';
import { users } from './platform.ts';
import { documents } from './signing.ts';

const ts = () => timestamp({ withTimezone: true });

/**
 * A campaign of arrears notices (issue 29): entities chosen from the arrears ranking (by hand, or every
 * one owing at least `min_total` on `as_of`), each sent a letter with its debt as of that day by a job.
 * Who started it and when; its counts are read from its notices.
 */
export const arrearsNoticeCampaigns = pgTable(
  'arrears_notice_campaigns',
  {
    id: serial().primaryKey(),
    /** The day the debt is computed as of. */
    asOf: date({ mode: 'string' }).notNull(),
    /** The day the campaign was started (Guatemala): the notices' day. */
    issuedOn: date({ mode: 'string' }).notNull(),
    /** "Every entity owing at least": the criterion, when the entities were not chosen by hand. */
    minTotal: money(),
    state: text({ enum: ['EN_CURSO', 'TERMINADA', 'FALLIDA'] })
      .notNull()
      .default('EN_CURSO'),
    /** Why it failed (Spanish), when FALLIDA. */
    failure: text(),
    jobId: integer().references(() => jobs.id, { onDelete: 'set null' }),
    createdBy: integer()
      .notNull()
      .references(() => users.id),
    createdAt: ts().notNull().defaultNow(),
    finishedAt: ts(),
  },
  (t) => [index('arrears_notice_campaigns_state_idx').on(t.state, t.id)],
);

/**
 * One entity of a campaign: its debt as of the day, the letter filed in Documentos, the mail queued to
 * its notice addresses (the outbox row tells queued / sent / failed), or why it was not notified.
 * One notice per entity and day (partial unique index): a second campaign the same day records the
 * entity as already notified instead.
 */
export const arrearsNotices = pgTable(
  'arrears_notices',
  {
    id: serial().primaryKey(),
    campaignId: integer()
      .notNull()
      .references(() => arrearsNoticeCampaigns.id, { onDelete: 'cascade' }),
    entityId: integer()
      .notNull()
      .references(() => municipalEntities.id),
    asOf: date({ mode: 'string' }).notNull(),
    issuedOn: date({ mode: 'string' }).notNull(),
    outcome: text({ enum: ['PENDIENTE', 'NOTIFICADA', 'SIN_DIRECCION', 'SIN_DEUDA', 'YA_NOTIFICADA', 'NO_ENVIADA'] })
      .notNull()
      .default('PENDIENTE'),
    /** Unpaid principal plus interest as of `as_of` (null until computed). */
    amount: money(),
    orders: integer(),
    documentId: integer().references(() => documents.id, { onDelete: 'set null' }),
    outboxId: bigint({ mode: 'number' }).references(() => mailOutbox.id, { onDelete: 'set null' }),
    /** Where the mail went (empty: no address). */
    addresses: text().array().notNull().default(sql`'{}'::text[]`),
    /** The earlier notice of the same day, when YA_NOTIFICADA. */
    priorNoticeId: integer(),
    createdAt: ts().notNull().defaultNow(),
    notifiedAt: ts(),
  },
  (t) => [
    index('arrears_notices_campaign_idx').on(t.campaignId, t.id),
    index('arrears_notices_entity_idx').on(t.entityId, t.id),
    uniqueIndex('arrears_notices_entity_day_key')
      .on(t.entityId, t.issuedOn)
      .where(sql`${t.outcome} in ('PENDIENTE', 'NOTIFICADA', 'SIN_DIRECCION')`),
  ],
);
