import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { money } from '../columns.ts';
import { banks, municipalEntities } from './catalogs.ts';
import { contributors } from './contributors.ts';
import { planillas } from './planillas.ts';
import { users } from './platform.ts';

const ts = () => timestamp({ withTimezone: true });

/**
 * A payment order (issue 13): what an entity (or, for a voluntary payment, a contributor) must pay by
 * its due date. The stored state is EMITIDA, PAGADA or ANULADA; VENCIDA is EMITIDA past the due date on
 * the day asked. Interest is fixed (rounded once) at each payment up to its date: `interest_accrued`
 * holds what was fixed, `accrued_to` the day it reaches; the interest since is computed as of any date.
 */
export const paymentOrders = pgTable(
  'payment_orders',
  {
    id: serial().primaryKey(),
    kind: text({ enum: ['LABORAL', 'PATRONAL', 'VOLUNTARIO', 'CONVENIO'] }).notNull(),
    entityId: integer().references(() => municipalEntities.id),
    contributorId: integer().references(() => contributors.id),
    planillaId: integer().references(() => planillas.id),
    /** The first month it covers (`AAAA-MM`); a voluntary order may cover several (`periods`). */
    period: text().notNull(),
    periods: text().array().notNull(),
    /** Voluntary orders: the declared salary. */
    salary: money(),
    reference: text().notNull(),
    issueDate: date({ mode: 'string' }).notNull(),
    dueDate: date({ mode: 'string' }).notNull(),
    /**
     * Why it falls due on `due_date`: LEGAL (day of settings of the month after the period) or AFTER_REVIEW
     * (N business days after the late approval of a planilla submitted on time; DOMAIN "Interest, further").
     */
    dueBasis: text({ enum: ['LEGAL', 'AFTER_REVIEW'] })
      .notNull()
      .default('LEGAL'),
    /** CONVENIDA: consolidated into a payment agreement (payment_agreement_orders), its balance owed there. */
    state: text({ enum: ['EMITIDA', 'PAGADA', 'ANULADA', 'CONVENIDA'] })
      .notNull()
      .default('EMITIDA'),
    principal: money().notNull(),
    /**
     * An agreement instalment (kind CONVENIO): what of `principal` is its share of the consolidated
     * principal and of the interest (the rest is the administrative charge). Late interest accrues on the
     * unpaid principal share only (no anatocism); a restructuring carries the interest as interest. Null
     * for every other order: all of `principal` is principal.
     */
    principalShare: money(),
    interestShare: money(),
    principalPaid: money().notNull().default(sql`0`),
    interestAccrued: money().notNull().default(sql`0`),
    interestPaid: money().notNull().default(sql`0`),
    accruedTo: date({ mode: 'string' }).notNull(),
    /** Date of the latest payment applied (a new payment may not be dated before it). */
    lastPaymentDate: date({ mode: 'string' }),
    paidAt: ts(),
    voidReason: text(),
    voidedBy: integer().references(() => users.id),
    voidedAt: ts(),
    createdBy: integer().references(() => users.id),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payment_orders_reference_key').on(t.reference),
    // One live order per planilla and kind: approving twice cannot issue twice.
    uniqueIndex('payment_orders_planilla_kind_key')
      .on(t.planillaId, t.kind)
      .where(sql`planilla_id is not null and state <> 'ANULADA'`),
    index('payment_orders_entity_idx').on(t.entityId, t.period),
    index('payment_orders_contributor_idx').on(t.contributorId),
    index('payment_orders_open_due_idx').on(t.dueDate, t.id).where(sql`state = 'EMITIDA'`),
    index('payment_orders_period_idx').on(t.period, t.id),
    check('payment_orders_due_basis_chk', sql`due_basis in ('LEGAL', 'AFTER_REVIEW')`),
    check('payment_orders_owner_chk', sql`(entity_id is not null) or (contributor_id is not null)`),
    check(
      'payment_orders_shares_chk',
      sql`(principal_share is null) = (interest_share is null) and (principal_share is null or (principal_share >= 0 and interest_share >= 0 and principal_share + interest_share <= principal))`,
    ),
    check(
      'payment_orders_paid_chk',
      sql`principal_paid >= 0 and principal_paid <= principal and interest_paid >= 0 and interest_paid <= interest_accrued`,
    ),
  ],
);

/** A range of 7-B receipt forms authorised by the Contraloría for an issuing office. */
export const receiptRanges = pgTable(
  'receipt_ranges',
  {
    id: serial().primaryKey(),
    office: text().notNull(),
    series: text().notNull(),
    firstNumber: integer().notNull(),
    lastNumber: integer().notNull(),
    /** The next number to issue: a payment takes it with `UPDATE … SET next_number = next_number + 1` (row lock, no gap). */
    nextNumber: integer().notNull(),
    authorizationRef: text().notNull(),
    authorizationDate: date({ mode: 'string' }).notNull(),
    state: text({ enum: ['ACTIVO', 'AGOTADO', 'ANULADO'] })
      .notNull()
      .default('ACTIVO'),
    createdBy: integer().references(() => users.id),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [
    index('receipt_ranges_office_idx').on(t.office, t.state, t.firstNumber),
    check(
      'receipt_ranges_numbers_chk',
      sql`first_number >= 1 and last_number >= first_number and next_number between first_number and last_number + 1`,
    ),
  ],
);

/** A payment registered against one or several orders of one owner. */
export const payments = pgTable(
  'payments',
  {
    id: serial().primaryKey(),
    entityId: integer().references(() => municipalEntities.id),
    contributorId: integer().references(() => contributors.id),
    /** The bank of the «Bancos» catalogue (null for payments registered with a free-text bank before it). */
    bankId: integer().references(() => banks.id),
    /** The bank's name when the payment was registered: the history keeps it whatever the catalogue later says. */
    bank: text().notNull(),
    payDate: date({ mode: 'string' }).notNull(),
    bankReference: text().notNull(),
    idempotencyKey: text().notNull(),
    amount: money().notNull(),
    office: text().notNull(),
    state: text({ enum: ['REGISTRADO', 'REVERTIDO'] })
      .notNull()
      .default('REGISTRADO'),
    reverseReason: text(),
    reversedBy: integer().references(() => users.id),
    reversedAt: ts(),
    bankFileRowId: integer(),
    createdBy: integer().references(() => users.id),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payments_idempotency_key').on(t.idempotencyKey),
    uniqueIndex('payments_bank_reference_key').on(t.bankReference),
    index('payments_entity_idx').on(t.entityId, t.payDate),
    index('payments_contributor_idx').on(t.contributorId),
    index('payments_date_idx').on(t.payDate, t.id),
    check('payments_amount_chk', sql`amount > 0`),
  ],
);

/** What a payment applied to one order, and the order's interest state before it (a reversal restores it). */
export const paymentAllocations = pgTable(
  'payment_allocations',
  {
    id: serial().primaryKey(),
    paymentId: integer()
      .notNull()
      .references(() => payments.id),
    orderId: integer()
      .notNull()
      .references(() => paymentOrders.id),
    interest: money().notNull(),
    principal: money().notNull(),
    /** Interest fixed by this payment (from the order's `accrued_to` to the payment date). */
    interestFixed: money().notNull(),
    prevAccruedTo: date({ mode: 'string' }).notNull(),
    prevLastPaymentDate: date({ mode: 'string' }),
  },
  (t) => [
    uniqueIndex('payment_allocations_payment_order_key').on(t.paymentId, t.orderId),
    index('payment_allocations_order_idx').on(t.orderId, t.paymentId),
  ],
);

/** A 7-B receipt: never deleted; voiding keeps its number with the reason, who and when. */
export const receipts = pgTable(
  'receipts',
  {
    id: serial().primaryKey(),
    rangeId: integer()
      .notNull()
      .references(() => receiptRanges.id),
    series: text().notNull(),
    number: integer().notNull(),
    paymentId: integer()
      .notNull()
      .references(() => payments.id),
    amount: money().notNull(),
    issuedAt: ts().notNull().defaultNow(),
    state: text({ enum: ['EMITIDO', 'ANULADO'] })
      .notNull()
      .default('EMITIDO'),
    voidReason: text(),
    voidedBy: integer().references(() => users.id),
    voidedAt: ts(),
    createdBy: integer().references(() => users.id),
  },
  (t) => [
    uniqueIndex('receipts_series_number_key').on(t.series, t.number),
    // A payment holds at most one valid receipt (a voided one may be replaced by a new number).
    uniqueIndex('receipts_payment_live_key').on(t.paymentId).where(sql`state = 'EMITIDO'`),
    index('receipts_range_idx').on(t.rangeId, t.number),
    index('receipts_issued_idx').on(t.issuedAt, t.id),
    check('receipts_void_chk', sql`(state = 'ANULADO') = (void_reason is not null)`),
  ],
);

/** A bank file imported for matching, and its rows (the unmatched wait for a person). */
export const bankFiles = pgTable('bank_files', {
  id: serial().primaryKey(),
  /** The bank of the catalogue (null for files imported before it existed). */
  bankId: integer().references(() => banks.id),
  /** The bank's name when the file was imported: the history keeps it whatever the catalogue later says. */
  bank: text().notNull(),
  office: text().notNull(),
  fileName: text().notNull(),
  rowCount: integer().notNull().default(0),
  createdBy: integer().references(() => users.id),
  createdAt: ts().notNull().defaultNow(),
});

export const bankFileRows = pgTable(
  'bank_file_rows',
  {
    id: serial().primaryKey(),
    fileId: integer()
      .notNull()
      .references(() => bankFiles.id, { onDelete: 'cascade' }),
    rowNumber: integer().notNull(),
    payDate: date({ mode: 'string' }),
    reference: text().notNull(),
    amount: money(),
    state: text({
      enum: ['CONCILIADA', 'NO_APLICADA', 'SIN_COINCIDENCIA', 'MONTO_DIFERENTE', 'RESUELTA', 'DESCARTADA', 'ERROR'],
    }).notNull(),
    message: text(),
    orderId: integer().references(() => paymentOrders.id),
    entityId: integer(),
    paymentId: integer().references(() => payments.id),
    resolvedBy: integer().references(() => users.id),
    resolvedAt: ts(),
  },
  (t) => [
    uniqueIndex('bank_file_rows_file_row_key').on(t.fileId, t.rowNumber),
    index('bank_file_rows_state_idx').on(t.fileId, t.state, t.rowNumber),
    // Rows whose payment is not registered (stranded money, the home page's check): few, found without a scan.
    index('bank_file_rows_unapplied_idx')
      .on(t.fileId)
      .where(sql`state = 'NO_APLICADA' or (state = 'CONCILIADA' and payment_id is null)`),
  ],
);
