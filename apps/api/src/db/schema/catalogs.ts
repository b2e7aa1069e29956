import { boolean, index, integer, pgTable, serial, smallint, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';
import { municipalities } from './territory.ts';

const stamps = () => ({
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** The eight development regions; departments belong to one, and delegates are assigned to regions. */
export const regions = pgTable('regions', {
  id: serial().primaryKey(),
  code: text().notNull().unique(),
  name: text().notNull(),
  isActive: boolean().notNull().default(true),
  ...stamps(),
});

/** Kinds of employer: municipalidad, empresa municipal, mancomunidad… */
export const classifications = pgTable('classifications', {
  id: serial().primaryKey(),
  code: text().notNull().unique(),
  name: text().notNull(),
  isActive: boolean().notNull().default(true),
  ...stamps(),
});

/** An employer that declares planillas. */
export const municipalEntities = pgTable('municipal_entities', {
  id: serial().primaryKey(),
  code: text().notNull().unique(),
  name: text().notNull(),
  nit: text(),
  classificationId: integer()
    .notNull()
    .references(() => classifications.id),
  municipalityId: integer()
    .notNull()
    .references(() => municipalities.id),
  address: text(),
  phone: text(),
  email: text(),
  /** Where arrears notices go (issue 29): up to 5 addresses, `a@x.gt, b@y.gt`; without them, `email`. */
  noticeEmails: text(),
  bankAccount: text(),
  isActive: boolean().notNull().default(true),
  ...stamps(),
});

export const entityRegions = pgTable(
  'entity_regions',
  {
    id: serial().primaryKey(),
    entityId: integer()
      .notNull()
      .references(() => municipalEntities.id),
    regionId: integer()
      .notNull()
      .references(() => regions.id),
    ...stamps(),
  },
  (t) => [
    unique('entity_regions_entity_region_key').on(t.entityId, t.regionId),
    index('entity_regions_region_idx').on(t.regionId),
  ],
);

/** A staff member who reviews the planillas of the entities assigned to them; always a user. */
export const delegates = pgTable('delegates', {
  id: serial().primaryKey(),
  userId: integer()
    .notNull()
    .unique()
    .references(() => users.id),
  cui: text().notNull().unique(),
  phone: text(),
  isActive: boolean().notNull().default(true),
  ...stamps(),
});

export const regionDelegates = pgTable(
  'region_delegates',
  {
    id: serial().primaryKey(),
    regionId: integer()
      .notNull()
      .references(() => regions.id),
    delegateId: integer()
      .notNull()
      .references(() => delegates.id),
    ...stamps(),
  },
  (t) => [
    unique('region_delegates_region_delegate_key').on(t.regionId, t.delegateId),
    index('region_delegates_delegate_idx').on(t.delegateId),
  ],
);

export const entityAssignments = pgTable(
  'entity_assignments',
  {
    id: serial().primaryKey(),
    entityId: integer()
      .notNull()
      .references(() => municipalEntities.id),
    delegateId: integer()
      .notNull()
      .references(() => delegates.id),
    ...stamps(),
  },
  (t) => [
    unique('entity_assignments_entity_delegate_key').on(t.entityId, t.delegateId),
    index('entity_assignments_delegate_idx').on(t.delegateId),
  ],
);

/**
 * Pay categories (renglones presupuestarios). Whether a line is subject to contribution lives here and
 * only here; planillas copy the flag onto each line when they are calculated, so history is kept.
 */
export const budgetLines = pgTable('budget_lines', {
  id: serial().primaryKey(),
  code: text().notNull().unique(),
  name: text().notNull(),
  isSubjectToContribution: boolean().notNull().default(false),
  isActive: boolean().notNull().default(true),
  ...stamps(),
});

/** The banks where payments are received (issue 26). */
export const banks = pgTable('banks', {
  id: serial().primaryKey(),
  code: text().notNull().unique(),
  name: text().notNull(),
  isActive: boolean().notNull().default(true),
  ...stamps(),
});

/** Labels, colours and order of a fixed lifecycle of DOMAIN.md; the codes themselves are not editable. */
const statusTable = (name: string) =>
  pgTable(name, {
    id: serial().primaryKey(),
    code: text().notNull().unique(),
    label: text().notNull(),
    color: text().notNull().default('gray'),
    sortOrder: smallint().notNull().default(0),
    ...stamps(),
  });

export const planillaStatuses = statusTable('planilla_statuses');
export const paymentAgreementStatuses = statusTable('payment_agreement_statuses');
