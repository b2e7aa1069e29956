import { bigint, index, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { mailOutbox } from './mail.ts';

/**
 * Which DIGEST rows of the outbox went out in which daily digest (modules/mail/digest.ts). A row is included
 * once (its id is the key): the digest job takes only rows not listed here, in the transaction that queues the
 * digest message, so a rerun or a second process never sends a row twice. The included row keeps its DIGEST
 * state; the digest message is an outbox row like any other (PENDING → SENT).
 */
export const mailDigestItems = pgTable(
  'mail_digest_items',
  {
    outboxId: bigint({ mode: 'number' })
      .primaryKey()
      .references(() => mailOutbox.id, { onDelete: 'cascade' }),
    digestId: bigint({ mode: 'number' })
      .notNull()
      .references(() => mailOutbox.id, { onDelete: 'cascade' }),
    includedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mail_digest_items_digest_idx').on(t.digestId)],
);
