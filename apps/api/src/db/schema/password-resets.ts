import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';

const ts = () => timestamp({ withTimezone: true });

/**
 * «Olvidé mi contraseña» links: one row per link sent. Only the SHA-256 of the token is kept (the token
 * travels in the e-mail's link only), so a copy of the database resets no password. A link is used once
 * (`used_at`, set by one atomic UPDATE … WHERE used_at IS NULL) and a newer request of the same user marks
 * the older unused ones used.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull().unique(),
    createdAt: ts().notNull().defaultNow(),
    expiresAt: ts().notNull(),
    usedAt: ts(),
    /** The address the request came from. */
    createdIp: text(),
  },
  (t) => [index('password_resets_user_idx').on(t.userId), index('password_resets_expires_idx').on(t.expiresAt)],
);
