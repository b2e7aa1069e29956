import { sql } from 'drizzle-orm';
import { boolean, check, date, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { jsonValue } from '../columns.ts';
import { users } from './platform.ts';

const ts = () => timestamp({ withTimezone: true });

/**
 * Effective-dated settings (packages/domain/src/settings.ts): the value of a key on a date is the row
 * with the latest `effectiveFrom` not after it, among rows not cancelled. Rows are never updated or
 * deleted, except that a value not yet in force may be cancelled (the cancel columns are set, the row
 * stays for the history). The seed installs the initial values effective from 2000-01-01.
 */
export const settingValues = pgTable(
  'setting_values',
  {
    id: serial().primaryKey(),
    key: text().notNull(),
    /** JSON of the key's zod schema output (rates as numeric(7,4) text), validated on write and read. */
    value: jsonValue().notNull(),
    effectiveFrom: date({ mode: 'string' }).notNull(),
    reason: text().notNull(),
    /** Scheduled for a date that was not after the day it was entered: asked for explicitly. */
    retroactive: boolean().notNull().default(false),
    /** Null for the seeded initial values. */
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts().notNull().defaultNow(),
    cancelledAt: ts(),
    cancelledBy: integer().references(() => users.id, { onDelete: 'set null' }),
    cancelReason: text(),
  },
  (t) => [
    // One live value per key and date (a cancelled one may be scheduled again); also the index of settingsAt.
    uniqueIndex('setting_values_key_from_live_idx').on(t.key, t.effectiveFrom).where(sql`${t.cancelledAt} is null`),
    check('setting_values_cancel_chk', sql`(${t.cancelledAt} is null) = (${t.cancelReason} is null)`),
  ],
);
