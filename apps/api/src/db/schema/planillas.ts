import type { LineIssue, SettingsUsed } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { money } from '../columns.ts';
import { municipalEntities } from './catalogs.ts';
import { contributors } from './contributors.ts';
import { importBatches } from './imports.ts';
import { users } from './platform.ts';

const ts = () => timestamp({ withTimezone: true });

/**
 * An entity's declaration for a period (issue 12). Totals are the sums of its lines, recomputed with
 * them; `settings` is the snapshot of the rates it was calculated with.
 */
export const planillas = pgTable(
  'planillas',
  {
    id: serial().primaryKey(),
    entityId: integer()
      .notNull()
      .references(() => municipalEntities.id),
    /** `AAAA-MM`. */
    period: text().notNull(),
    type: text({ enum: ['ORDINARIA', 'COMPLEMENTARIA', 'SALARIOS_CAIDOS'] }).notNull(),
    state: text({
      enum: ['BORRADOR', 'ENVIANDO', 'ENVIADA', 'EN_REVISION', 'OBSERVADA', 'APROBADA', 'RECHAZADA', 'PAGADA', 'ANULADA'],
    })
      .notNull()
      .default('BORRADOR'),
    lineCount: integer().notNull().default(0),
    errorCount: integer().notNull().default(0),
    warningCount: integer().notNull().default(0),
    totalSalary: money().notNull().default(sql`0`),
    totalEmployee: money().notNull().default(sql`0`),
    totalEmployer: money().notNull().default(sql`0`),
    settings: jsonb().$type<SettingsUsed>(),
    calculatedAt: ts(),
    /** The upload it came from, or the planilla it was copied from. */
    importId: uuid().references(() => importBatches.id),
    copiedFromId: integer(),
    /** Back-pay planillas: the resolution that ordered it. */
    backPayResolution: text(),
    createdBy: integer().references(() => users.id),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
    submittedBy: integer().references(() => users.id),
    submittedAt: ts(),
    /** The latest submit's job (`planillas.submit`), followed while ENVIANDO. */
    submitJobId: integer(),
    /** The state the planilla was submitted from (BORRADOR or OBSERVADA): where an unfinished submit puts it back. */
    submitFrom: text({ enum: ['BORRADOR', 'OBSERVADA'] }),
    /** Why the latest submit did not complete; null once it did. */
    submitMessage: text(),
    reviewerId: integer().references(() => users.id),
    decidedAt: ts(),
  },
  (t) => [
    // DOMAIN: one ordinary planilla per entity and period (a voided or rejected one may be declared again).
    uniqueIndex('planillas_one_ordinary')
      .on(t.entityId, t.period)
      .where(sql`type = 'ORDINARIA' and state not in ('ANULADA', 'RECHAZADA')`),
    index('planillas_entity_period_idx').on(t.entityId, t.period),
    index('planillas_period_state_idx').on(t.period, t.state),
    index('planillas_state_submitted_idx').on(t.state, t.submittedAt),
    // Keyset paging (listPage): the default sort and the review queue's, with the id as tiebreak.
    index('planillas_period_id_idx').on(t.period, t.id),
    index('planillas_submitted_id_idx').on(t.submittedAt, t.id),
    check('planillas_period_check', sql`period ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
  ],
);

/**
 * One employee of a planilla. A draft's line may carry blocking errors (a bad CUI or salary read from a
 * file, kept as typed in `salary_text`); submission needs none. `period` and `entity_id` repeat the
 * planilla's so a contributor's history over decades is one index range on (cui, period).
 */
export const planillaLines = pgTable(
  'planilla_lines',
  {
    id: serial().primaryKey(),
    planillaId: integer()
      .notNull()
      .references(() => planillas.id, { onDelete: 'cascade' }),
    rowNumber: integer().notNull(),
    period: text().notNull(),
    entityId: integer().notNull(),
    cui: text().notNull(),
    fullName: text().notNull(),
    budgetLineCode: text().notNull(),
    salary: money(),
    salaryText: text(),
    daysWorked: smallint(),
    movement: text({ enum: ['ALTA', 'BAJA'] }),
    movementDate: date({ mode: 'string' }),
    subject: boolean().notNull().default(false),
    employeeAmount: money().notNull().default(sql`0`),
    employerAmount: money().notNull().default(sql`0`),
    errors: jsonb().$type<LineIssue[]>(),
    warnings: jsonb().$type<LineIssue[]>(),
    hasErrors: boolean().notNull().default(false),
    hasWarnings: boolean().notNull().default(false),
    contributorId: integer().references(() => contributors.id),
  },
  (t) => [
    uniqueIndex('planilla_lines_planilla_row_key').on(t.planillaId, t.rowNumber),
    // Keyset paging of one planilla's lines by each sortable column and the id (row number: the unique key).
    index('planilla_lines_planilla_cui_id_idx').on(t.planillaId, t.cui, t.id),
    index('planilla_lines_planilla_name_id_idx').on(t.planillaId, t.fullName, t.id),
    index('planilla_lines_planilla_salary_id_idx').on(t.planillaId, t.salary, t.id),
    index('planilla_lines_cui_period_idx').on(t.cui, t.period),
    index('planilla_lines_issues_idx').on(t.planillaId, t.rowNumber).where(sql`has_errors or has_warnings`),
  ],
);

/** Comments on a planilla (general or about one line), written with a transition or on their own. */
export const planillaComments = pgTable(
  'planilla_comments',
  {
    id: serial().primaryKey(),
    planillaId: integer()
      .notNull()
      .references(() => planillas.id, { onDelete: 'cascade' }),
    lineId: integer().references(() => planillaLines.id, { onDelete: 'set null' }),
    body: text().notNull(),
    transition: text(),
    authorId: integer().references(() => users.id, { onDelete: 'set null' }),
    authorEmail: text().notNull(),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [index('planilla_comments_planilla_idx').on(t.planillaId, t.createdAt)],
);
