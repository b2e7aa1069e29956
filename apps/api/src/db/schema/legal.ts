import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { money } from '../columns.ts';
import { paymentAgreements } from './agreements.ts';
import { municipalEntities } from './catalogs.ts';
import { paymentOrders } from './payments.ts';
import { users } from './platform.ts';
import { documents } from './signing.ts';

const ts = () => timestamp({ withTimezone: true });

/**
 * A collection case (expediente, issue 14) against a municipal entity: the overdue orders and agreements
 * it covers (with their amount at opening), its stage through the legal machine, the actions taken,
 * the deadlines (with reminders) and the documents attached. One open case per entity.
 */
export const legalCases = pgTable(
  'legal_cases',
  {
    id: serial().primaryKey(),
    /** `EXP-AAAA-NNNNNN`, set from the id in the opening transaction. */
    number: text().notNull(),
    entityId: integer()
      .notNull()
      .references(() => municipalEntities.id),
    /** The stage (state column, as the transitions platform expects). */
    state: text({ enum: ['ABIERTO', 'REQUERIMIENTO', 'DEMANDA', 'CONVENIO', 'CERRADO'] })
      .notNull()
      .default('ABIERTO'),
    openedOn: date({ mode: 'string' }).notNull(),
    amountAtOpening: money().notNull(),
    lawyerId: integer().references(() => users.id),
    closedOn: date({ mode: 'string' }),
    closeReason: text(),
    createdBy: integer().references(() => users.id),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('legal_cases_number_key').on(t.number),
    uniqueIndex('legal_cases_entity_open_key').on(t.entityId).where(sql`state <> 'CERRADO'`),
    index('legal_cases_state_idx').on(t.state, t.id),
  ],
);

/** What a case covers: an order or an agreement of the entity, with its amount when the case was opened. */
export const legalCaseItems = pgTable(
  'legal_case_items',
  {
    id: serial().primaryKey(),
    caseId: integer()
      .notNull()
      .references(() => legalCases.id),
    orderId: integer().references(() => paymentOrders.id),
    agreementId: integer().references(() => paymentAgreements.id),
    amountAtOpening: money().notNull(),
  },
  (t) => [
    index('legal_case_items_case_idx').on(t.caseId),
    check('legal_case_items_one_chk', sql`(order_id is null) <> (agreement_id is null)`),
  ],
);

/** An action taken on a case (a requirement sent, a lawsuit filed, a hearing), with its date and lawyer. */
export const legalCaseActions = pgTable(
  'legal_case_actions',
  {
    id: serial().primaryKey(),
    caseId: integer()
      .notNull()
      .references(() => legalCases.id),
    actionDate: date({ mode: 'string' }).notNull(),
    kind: text().notNull(),
    description: text().notNull(),
    lawyerId: integer().references(() => users.id),
    createdBy: integer().references(() => users.id),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [index('legal_case_actions_case_idx').on(t.caseId, t.actionDate)],
);

/** A deadline of a case; the daily reminder notifies its lawyer as it approaches (once a day at most). */
export const legalCaseDeadlines = pgTable(
  'legal_case_deadlines',
  {
    id: serial().primaryKey(),
    caseId: integer()
      .notNull()
      .references(() => legalCases.id),
    dueDate: date({ mode: 'string' }).notNull(),
    description: text().notNull(),
    responsibleId: integer().references(() => users.id),
    done: boolean().notNull().default(false),
    doneAt: ts(),
    remindedOn: date({ mode: 'string' }),
    createdBy: integer().references(() => users.id),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [index('legal_case_deadlines_due_idx').on(t.dueDate, t.id).where(sql`not done`)],
);

/** A document attached to a case (kept in Documentos, in the entity's folder). */
export const legalCaseDocuments = pgTable(
  'legal_case_documents',
  {
    id: serial().primaryKey(),
    caseId: integer()
      .notNull()
      .references(() => legalCases.id),
    documentId: integer()
      .notNull()
      .references(() => documents.id),
    title: text().notNull(),
    createdBy: integer().references(() => users.id),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [index('legal_case_documents_case_idx').on(t.caseId)],
);
