import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { money } from '../columns.ts';
import { municipalEntities } from './catalogs.ts';
import { paymentOrders } from './payments.ts';
import { users } from './platform.ts';

const ts = () => timestamp({ withTimezone: true });

/**
 * A payment agreement (convenio de pago, issue 14): the overdue orders it consolidates became one debt
 * (principal + interest to the agreement date + administrative charge), paid by a down payment and
 * monthly instalments, each a payment order of kind CONVENIO (payment_agreement_orders). One agreement
 * in force (VIGENTE) per entity at a time.
 */
export const paymentAgreements = pgTable(
  'payment_agreements',
  {
    id: serial().primaryKey(),
    /** `CP-AAAA-NNNNNN`, set from the id in the creating transaction. */
    number: text().notNull(),
    entityId: integer()
      .notNull()
      .references(() => municipalEntities.id),
    agreementDate: date({ mode: 'string' }).notNull(),
    state: text({ enum: ['VIGENTE', 'CUMPLIDO', 'INCUMPLIDO', 'ANULADO'] })
      .notNull()
      .default('VIGENTE'),
    principal: money().notNull(),
    interest: money().notNull(),
    adminCharge: money().notNull(),
    debt: money().notNull(),
    downPayment: money().notNull(),
    instalmentCount: integer().notNull(),
    restructurings: integer().notNull().default(0),
    /** The settings the debt and schedule were computed with (settingsUsed), so it explains itself later. */
    settingsUsed: jsonb().notNull(),
    defaultedOn: date({ mode: 'string' }),
    completedOn: date({ mode: 'string' }),
    voidReason: text(),
    voidedBy: integer().references(() => users.id),
    voidedAt: ts(),
    createdBy: integer().references(() => users.id),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payment_agreements_number_key').on(t.number),
    // One agreement in force per entity: two created at once over the same arrears, one wins.
    uniqueIndex('payment_agreements_entity_current_key').on(t.entityId).where(sql`state = 'VIGENTE'`),
    index('payment_agreements_entity_idx').on(t.entityId, t.id),
    index('payment_agreements_state_idx').on(t.state, t.id),
    check('payment_agreements_money_chk', sql`debt > 0 and down_payment > 0 and down_payment < debt and instalment_count >= 1`),
  ],
);

/**
 * The orders of an agreement: those it consolidated (role CONSOLIDADA, with what each owed on the
 * agreement date; `released_at` when voiding the agreement returned it to the arrears) and its
 * instalments (role CUOTA: `schedule` 0 for the original, 1… for each restructuring, `number` 0 for the
 * down payment; `replaced_at` when a restructuring replaced it).
 */
export const paymentAgreementOrders = pgTable(
  'payment_agreement_orders',
  {
    id: serial().primaryKey(),
    agreementId: integer()
      .notNull()
      .references(() => paymentAgreements.id),
    orderId: integer()
      .notNull()
      .references(() => paymentOrders.id),
    role: text({ enum: ['CONSOLIDADA', 'CUOTA'] }).notNull(),
    schedule: integer().notNull().default(0),
    number: integer(),
    principalDue: money().notNull(),
    interestDue: money().notNull(),
    /** A consolidated instalment of an earlier agreement: its unpaid administrative charge (neither principal nor interest). */
    chargeDue: money().notNull().default(sql`0`),
    releasedAt: ts(),
    replacedAt: ts(),
  },
  (t) => [
    // An order is consolidated in at most one live agreement.
    uniqueIndex('payment_agreement_orders_live_key').on(t.orderId).where(sql`released_at is null and role = 'CONSOLIDADA'`),
    uniqueIndex('payment_agreement_orders_instalment_key').on(t.orderId).where(sql`role = 'CUOTA'`),
    index('payment_agreement_orders_agreement_idx').on(t.agreementId, t.role, t.schedule, t.number),
  ],
);

/**
 * A solvency certificate (constancia de solvencia): issued to an entity that is "al día" on a date, valid
 * until `valid_until`; its code is checked on the public verification page, which tells only what the
 * certificate itself prints.
 */
export const solvencyCertificates = pgTable(
  'solvency_certificates',
  {
    id: serial().primaryKey(),
    code: text().notNull(),
    entityId: integer()
      .notNull()
      .references(() => municipalEntities.id),
    entityName: text().notNull(),
    entityCode: text().notNull(),
    issuedOn: date({ mode: 'string' }).notNull(),
    validUntil: date({ mode: 'string' }).notNull(),
    /** Why the entity is "al día": no overdue order, or an agreement in force and up to date. */
    basis: text().notNull(),
    revokedAt: ts(),
    createdBy: integer().references(() => users.id),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('solvency_certificates_code_key').on(t.code),
    index('solvency_certificates_entity_idx').on(t.entityId, t.id),
  ],
);
