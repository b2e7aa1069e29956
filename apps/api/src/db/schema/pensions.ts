import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { money, rate } from '../columns.ts';
import { municipalEntities } from './catalogs.ts';
import { contributors } from './contributors.ts';
import { storedFiles } from './jobs.ts';
import { users } from './platform.ts';

const ts = () => timestamp({ withTimezone: true });
const day = () => date({ mode: 'string' });

/**
 * Passive classes (issue 15). A pension is paid to its holder (`cui`, `full_name`, `birth_date`): the
 * contributor (JUBILACION, INVALIDEZ) or a beneficiary of a deceased contributor (VIUDEZ, ORFANDAD).
 * `entity_id` is the contributor's entity when the pension was granted: the data scope.
 */
export const pensions = pgTable(
  'pensions',
  {
    id: serial().primaryKey(),
    contributorId: integer()
      .notNull()
      .references(() => contributors.id),
    cui: text().notNull(),
    fullName: text().notNull(),
    birthDate: day().notNull(),
    type: text({ enum: ['JUBILACION', 'INVALIDEZ', 'VIUDEZ', 'ORFANDAD'] }).notNull(),
    resolutionNumber: text().notNull(),
    resolutionDate: day().notNull(),
    startDate: day().notNull(),
    /** Last day paid when the pension ends (an orphan's end age, a confirmed death, a resolution). */
    endDate: day(),
    /** The amount in force today (the history is pension_amounts). */
    monthlyAmount: money().notNull(),
    bankAccount: text().notNull(),
    state: text({ enum: ['ACTIVA', 'SUSPENDIDA', 'FINALIZADA'] })
      .notNull()
      .default('ACTIVA'),
    entityId: integer().references(() => municipalEntities.id),
    /** The birthday whose survival check is due next. */
    survivalDue: day(),
    lastCheckDate: day(),
    /** For a survivor pension: the beneficiary row of the deceased's pension it comes from. */
    sourceBeneficiaryId: integer(),
    createdBy: integer().references(() => users.id),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (t) => [
    // Two active (or suspended) pensions of the same type for one person are refused.
    uniqueIndex('pensions_one_open_per_type').on(t.cui, t.type).where(sql`state <> 'FINALIZADA'`),
    index('pensions_state_due_idx').on(t.state, t.survivalDue),
    index('pensions_entity_idx').on(t.entityId),
    index('pensions_contributor_idx').on(t.contributorId),
    index('pensions_cui_idx').on(t.cui),
    index('pensions_updated_idx').on(t.updatedAt),
  ],
);

export const pensionBeneficiaries = pgTable(
  'pension_beneficiaries',
  {
    id: serial().primaryKey(),
    pensionId: integer()
      .notNull()
      .references(() => pensions.id, { onDelete: 'cascade' }),
    cui: text().notNull(),
    fullName: text().notNull(),
    birthDate: day().notNull(),
    relationship: text({ enum: ['CONYUGE', 'HIJO', 'PADRE', 'OTRO'] }).notNull(),
    share: rate().notNull(),
    studyCertificateUntil: day(),
    endDate: day(),
  },
  (t) => [uniqueIndex('pension_beneficiaries_cui_key').on(t.pensionId, t.cui), index('pension_beneficiaries_cui_idx').on(t.cui)],
);

/** Effective-dated amounts: every change is kept. */
export const pensionAmounts = pgTable(
  'pension_amounts',
  {
    id: serial().primaryKey(),
    pensionId: integer()
      .notNull()
      .references(() => pensions.id, { onDelete: 'cascade' }),
    monthlyAmount: money().notNull(),
    effectiveFrom: day().notNull(),
    reason: text().notNull(),
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdByEmail: text(),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [uniqueIndex('pension_amounts_from_key').on(t.pensionId, t.effectiveFrom)],
);

export const pensionSuspensions = pgTable(
  'pension_suspensions',
  {
    id: serial().primaryKey(),
    pensionId: integer()
      .notNull()
      .references(() => pensions.id, { onDelete: 'cascade' }),
    reason: text({ enum: ['SUPERVIVENCIA', 'FALLECIMIENTO', 'MANUAL'] }).notNull(),
    fromDate: day().notNull(),
    /** The day it was lifted (the check's date); null while suspended. */
    toDate: day(),
    comment: text(),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [
    index('pension_suspensions_pension_idx').on(t.pensionId),
    uniqueIndex('pension_suspensions_one_open').on(t.pensionId).where(sql`to_date is null`),
  ],
);

/** Months not paid while suspended, flagged for payment when the suspension is lifted. */
export const pensionOwedMonths = pgTable(
  'pension_owed_months',
  {
    id: serial().primaryKey(),
    pensionId: integer()
      .notNull()
      .references(() => pensions.id, { onDelete: 'cascade' }),
    suspensionId: integer().references(() => pensionSuspensions.id),
    period: text().notNull(),
    days: integer().notNull(),
    amount: money().notNull(),
    /** The closed payroll that paid it; null while owed. */
    paidPayrollId: integer(),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pension_owed_months_key').on(t.pensionId, t.period),
    index('pension_owed_months_open_idx').on(t.pensionId).where(sql`paid_payroll_id is null`),
  ],
);

export const survivalChecks = pgTable(
  'survival_checks',
  {
    id: serial().primaryKey(),
    pensionId: integer()
      .notNull()
      .references(() => pensions.id, { onDelete: 'cascade' }),
    checkDate: day().notNull(),
    method: text({ enum: ['PRESENCIAL', 'ACTA_NOTARIAL', 'RENAP'] }).notNull(),
    /** The due birthday this check covered. */
    coversDue: day().notNull(),
    attachmentFileId: integer().references(() => storedFiles.id),
    notes: text(),
    reactivated: boolean().notNull().default(false),
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdByEmail: text(),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [index('survival_checks_pension_idx').on(t.pensionId, t.checkDate), index('survival_checks_date_idx').on(t.checkDate)],
);

/** A RENAP death record on a pensioner: the pension is suspended and someone decides. */
export const pensionReviews = pgTable(
  'pension_reviews',
  {
    id: serial().primaryKey(),
    pensionId: integer()
      .notNull()
      .references(() => pensions.id, { onDelete: 'cascade' }),
    deathDate: day().notNull(),
    state: text({ enum: ['ABIERTA', 'CONFIRMADA', 'DESCARTADA'] })
      .notNull()
      .default('ABIERTA'),
    resolution: text(),
    openedAt: ts().notNull().defaultNow(),
    closedAt: ts(),
    closedBy: text(),
  },
  (t) => [
    uniqueIndex('pension_reviews_one_open').on(t.pensionId).where(sql`state = 'ABIERTA'`),
    index('pension_reviews_state_idx').on(t.state, t.openedAt),
  ],
);

/** The monthly pension payroll; once CERRADA it and its lines never change (a trigger refuses it). */
export const pensionPayrolls = pgTable('pension_payrolls', {
  id: serial().primaryKey(),
  period: text().notNull().unique(),
  state: text({ enum: ['BORRADOR', 'CERRADA'] })
    .notNull()
    .default('BORRADOR'),
  lines: integer().notNull().default(0),
  pensions: integer().notNull().default(0),
  total: money().notNull(),
  owedTotal: money().notNull(),
  excludedSuspended: integer().notNull().default(0),
  generatedAt: ts().notNull().defaultNow(),
  generatedBy: text(),
  closedAt: ts(),
  closedBy: text(),
});

export const pensionPayrollLines = pgTable(
  'pension_payroll_lines',
  {
    id: serial().primaryKey(),
    payrollId: integer()
      .notNull()
      .references(() => pensionPayrolls.id, { onDelete: 'cascade' }),
    pensionId: integer()
      .notNull()
      .references(() => pensions.id),
    kind: text({ enum: ['MENSUAL', 'ATRASO'] }).notNull(),
    forPeriod: text().notNull(),
    days: integer().notNull(),
    amount: money().notNull(),
    bankAccount: text().notNull(),
    cui: text().notNull(),
    fullName: text().notNull(),
    type: text({ enum: ['JUBILACION', 'INVALIDEZ', 'VIUDEZ', 'ORFANDAD'] }).notNull(),
    entityId: integer(),
  },
  (t) => [
    index('pension_payroll_lines_payroll_idx').on(t.payrollId, t.id),
    index('pension_payroll_lines_pension_idx').on(t.pensionId, t.forPeriod),
  ],
);

/**
 * What a payroll left out (EXCLUIDA: a suspended or dead pensioner, not paid) or pointed out
 * (OBSERVADA: paid, but the pensioner is on a recent planilla as an employee), with the reason as a
 * message key and its parameters. Rebuilt with the payroll's lines; issue 28.
 */
export const pensionPayrollExceptions = pgTable(
  'pension_payroll_exceptions',
  {
    id: serial().primaryKey(),
    payrollId: integer()
      .notNull()
      .references(() => pensionPayrolls.id, { onDelete: 'cascade' }),
    pensionId: integer()
      .notNull()
      .references(() => pensions.id),
    kind: text({ enum: ['EXCLUIDA', 'OBSERVADA'] }).notNull(),
    reason: text({ enum: ['FALLECIMIENTO', 'SUPERVIVENCIA', 'MANUAL', 'EMPLEO_ACTIVO'] }).notNull(),
    cui: text().notNull(),
    fullName: text().notNull(),
    type: text({ enum: ['JUBILACION', 'INVALIDEZ', 'VIUDEZ', 'ORFANDAD'] }).notNull(),
    messageKey: text().notNull(),
    messageParams: jsonb().$type<Record<string, string | number>>().notNull(),
  },
  (t) => [index('pension_payroll_exceptions_payroll_idx').on(t.payrollId, t.id)],
);
