import type { Language, MailDelivery, MailEvent, OutboxEvent, OutboxState } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';

const ts = () => timestamp({ withTimezone: true });

/** An attachment as stored: produced at send time by a registered renderer, or a blob's content. */
export type StoredMailAttachment =
  | { kind: 'render'; renderer: string; id: string }
  | { kind: 'blob'; sha256: string; filename: string; contentType: string };

/**
 * Outgoing mail (platform/mail.ts, platform/mail-dispatcher.ts). A row is written in the transaction of
 * the change that causes it, already rendered in the recipient's language; a dispatcher claims PENDING
 * rows whose `next_attempt_at` has come with `FOR UPDATE SKIP LOCKED`, holds them SENDING under
 * `lease_until`, and marks each SENT (or back to PENDING with a back-off, or FAILED). `message_id` is
 * fixed at the first claim (`<outbox-<id>@<host>>`), so a retry after an expired lease carries the same one.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    event: text().$type<OutboxEvent>().notNull(),
    /** The recipient user, when the mail is for one (their language, preferences and digest). */
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    to: text().array().notNull(),
    language: text().$type<Language>().notNull().default('es'),
    subject: text().notNull(),
    text: text().notNull(),
    html: text().notNull(),
    attachments: jsonb().$type<StoredMailAttachment[]>().notNull().default([]),
    /** The path inside the app the mail links to (the absolute link is in the text). */
    link: text(),
    /** The same key is queued once (e.g. `order.dueSoon:123:2026-12-04:u7`). */
    dedupeKey: text().unique(),
    state: text({ enum: ['PENDING', 'SENDING', 'SENT', 'FAILED', 'DIGEST'] })
      .$type<OutboxState>()
      .notNull()
      .default('PENDING'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: ts().notNull().defaultNow(),
    leaseUntil: ts(),
    lastError: text(),
    messageId: text(),
    createdAt: ts().notNull().defaultNow(),
    sentAt: ts(),
  },
  (t) => [
    // The claim: PENDING rows due now, oldest first; SENDING rows whose lease ran out.
    index('mail_outbox_claim_idx').on(t.nextAttemptAt, t.id).where(sql`${t.state} = 'PENDING'`),
    index('mail_outbox_lease_idx').on(t.leaseUntil).where(sql`${t.state} = 'SENDING'`),
    index('mail_outbox_state_idx').on(t.state, t.id),
    index('mail_outbox_user_idx').on(t.userId, t.id),
    index('mail_outbox_created_idx').on(t.createdAt, t.id),
  ],
);

/** One row per user who changed anything: the language of their mails and their delivery per event. */
export const mailPreferences = pgTable('mail_preferences', {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  language: text().$type<Language>().notNull().default('es'),
  /** `{ event: 'off' | 'immediate' | 'digest' }`; an event not named is 'immediate'. */
  events: jsonb().$type<Partial<Record<MailEvent, MailDelivery>>>().notNull().default({}),
  updatedAt: ts().notNull().defaultNow(),
});
