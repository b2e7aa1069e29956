import { integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { regions } from './catalogs.ts';

/** The 22 departments of Guatemala (codes 01–22). */
export const departments = pgTable('departments', {
  id: serial().primaryKey(),
  code: text().notNull().unique(),
  name: text().notNull(),
  regionId: integer().references(() => regions.id),
});

/** The 340 municipalities; `code` is the 4-digit department+municipality code used in the CUI. */
export const municipalities = pgTable('municipalities', {
  id: serial().primaryKey(),
  code: text().notNull().unique(),
  name: text().notNull(),
  departmentId: integer()
    .notNull()
    .references(() => departments.id),
});
