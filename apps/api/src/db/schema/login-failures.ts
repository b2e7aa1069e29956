import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

const ts = () => timestamp({ withTimezone: true });

/**
 * Failed sign-ins, counted per e-mail (known or not, so the answers cannot tell accounts apart) and
 * address, plus one account-wide row per e-mail (address '*'). Kept in the database so every process
 * sees the same counts; a row is deleted once `expiresAt` passes.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    /** Lower-case e-mail as typed, whether an account has it or not. */
    email: text().notNull(),
    /** Client address, or '*' for the account-wide counter. */
    address: text().notNull(),
    failures: integer().notNull().default(0),
    firstFailedAt: ts().notNull(),
    lockedUntil: ts(),
    expiresAt: ts().notNull(),
  },
  (t) => [primaryKey({ columns: [t.email, t.address] }), index('login_failures_expires_idx').on(t.expiresAt)],
);
