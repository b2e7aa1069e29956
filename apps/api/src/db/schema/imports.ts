import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { municipalEntities } from './catalogs.ts';
import { users } from './platform.ts';

const ts = () => timestamp({ withTimezone: true });

/**
 * One upload of any import kind (contributors, planillas…): its file, where it is (status, phase,
 * progress, counts) and who may see it. Its rows wait in import_rows until committed or discarded.
 */
export const importBatches = pgTable(
  'import_batches',
  {
    id: uuid().primaryKey(),
    /** The module's import kind (`contributors`); decides columns, validator and commit. */
    kind: text().notNull(),
    fileName: text().notNull(),
    format: text({ enum: ['xlsx', 'csv'] }).notNull(),
    status: text({ enum: ['VALIDANDO', 'VALIDADO', 'CONFIRMANDO', 'CONFIRMADO', 'FALLIDO', 'DESCARTADO'] }).notNull(),
    /** While VALIDANDO: LECTURA (the upload request reads the file) or VALIDACION (the job validates). */
    phase: text({ enum: ['LECTURA', 'VALIDACION'] }),
    totalRows: integer().notNull().default(0),
    processedRows: integer().notNull().default(0),
    validRows: integer().notNull().default(0),
    errorRows: integer().notNull().default(0),
    warningRows: integer().notNull().default(0),
    committedRows: integer().notNull().default(0),
    message: text(),
    /**
     * The background job validating the rows, then committing them (jobs.id): the batch follows it when it
     * fails or is cancelled.
     */
    jobId: integer(),
    /** Template column key → spreadsheet column letter, as the file had them: the cell of every issue. */
    layout: jsonb().$type<Record<string, string>>(),
    /** What the kind needs besides the rows (e.g. a planilla's period); validated by the kind. */
    params: jsonb(),
    /** The one municipal entity the whole batch is for (a planilla), or null (rows name theirs). */
    scopeEntityId: integer().references(() => municipalEntities.id),
    createdBy: integer().references(() => users.id),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
    committedBy: integer().references(() => users.id),
    committedAt: ts(),
  },
  (t) => [
    index('import_batches_created_by_idx').on(t.createdBy, t.kind, t.createdAt),
    index('import_batches_status_idx').on(t.status),
  ],
);

/**
 * Rows read from the file and not yet validated, a chunk (about a thousand rows) per record: the cells
 * as read (text, or a number for a number cell) and what the reader alone saw (a formula cell). The
 * validation takes a chunk, writes its rows to import_rows and deletes the chunk in one transaction, so
 * a validation stopped anywhere resumes at the first chunk left. One record per chunk, not per row:
 * staging 50 000 rows costs fifty inserts.
 */
export const importChunks = pgTable(
  'import_chunks',
  {
    batchId: uuid()
      .notNull()
      .references(() => importBatches.id, { onDelete: 'cascade' }),
    chunk: integer().notNull(),
    /** The rows as JSON text, not jsonb: nothing queries inside them, and text skips jsonb's parsing both ways. */
    rows: text().notNull(),
  },
  (t) => [primaryKey({ name: 'import_chunks_pkey', columns: [t.batchId, t.chunk] })],
);

/**
 * One validated row of a batch: the normalised value (`data`, valid rows) or the cells as read (`raw`,
 * exceptions, for the exceptions file), the blocking `errors` and the `warnings`.
 */
export const importRows = pgTable(
  'import_rows',
  {
    batchId: uuid()
      .notNull()
      .references(() => importBatches.id, { onDelete: 'cascade' }),
    rowNumber: integer().notNull(),
    isValid: boolean().notNull(),
    /** The row's identity within the file (a CUI): repeated keys are exceptions. */
    key: text(),
    /** The municipal entity the row writes to, when it names one: the scope of the preview and commit. */
    entityId: integer(),
    raw: jsonb(),
    data: jsonb(),
    errors: jsonb(),
    warnings: jsonb(),
  },
  (t) => [
    primaryKey({ name: 'import_rows_pkey', columns: [t.batchId, t.rowNumber] }),
    index('import_rows_valid_idx').on(t.batchId, t.isValid, t.rowNumber),
  ],
);
