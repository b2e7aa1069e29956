import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import {
  AppError,
  CONTROL_CHARACTERS,
  checkHeaders,
  columnLetter,
  detail,
  IMPORT_EXCEPTION_COLUMNS,
  type ImportBatch,
  type ImportIssue,
  type Message,
  msg,
  numberCellText,
  OUTSIDE_TEMPLATE_COLUMN,
  text,
} from '@aporta/domain';
import { and, asc, count, desc, eq, inArray, isNotNull, notInArray, or, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { importBatches, importChunks, importRows, jobs as jobsTable } from '../../db/schema/index.ts';
import type { RequestContext } from '../context.ts';
import type { ExportColumn } from '../export.ts';
import { contextFromRequest, defineJob, enqueueJob, JobCancelledError, type JobRun, jobMessages } from '../jobs.ts';
import { keysetBatches } from '../list.ts';
import { type BatchRecord, type ImportKind, importKind, type RowInput, type RowOutcome } from './kind.ts';
import { type Cell, csvRows, type FileKind, guardXlsx, IMPORT_LIMITS, type SheetRow, sniffFile, xlsxRows } from './reader.ts';

/**
 * Rows per staging insert and per validation chunk. Each chunk is one short transaction: the embedded
 * database has one connection, and requests run between chunks (bench/README.md).
 */
export const IMPORT_CHUNK_ROWS = 2000;

/** A staged cell: text, or a number for a number cell (so the validator can tell `1980` typed from a number). */
type RawValue = string | number;
type RawRow = Record<string, RawValue>;
/** A row as read, waiting in import_chunks: its number, cells, and what the reader alone saw. */
interface StagedRow {
  n: number;
  raw: RawRow;
  errors?: ImportIssue[];
}

export const toBatch = (r: BatchRecord): ImportBatch => ({
  id: r.id,
  kind: r.kind,
  fileName: r.fileName,
  format: r.format,
  status: r.status,
  phase: r.status === 'VALIDANDO' ? (r.phase ?? 'LECTURA') : null,
  jobId: r.jobId,
  totalRows: r.totalRows,
  processedRows: r.processedRows,
  validRows: r.validRows,
  errorRows: r.errorRows,
  warningRows: r.warningRows,
  message: r.message,
  createdAt: r.createdAt.toISOString(),
  committedAt: r.committedAt?.toISOString() ?? null,
  committedRows: r.committedRows,
});

// ---------------------------------------------------------------------------------------------------
// Upload: sniffing, guards, header, staging

/**
 * Reads an uploaded file (already on disk, within the size limit) into the batch's staged rows, then
 * starts its validation as a background run and answers the batch (VALIDANDO, phase VALIDACION).
 * Refuses the whole file (nothing stored) for what no row can fix: not a spreadsheet, a zip bomb, no or
 * wrong header, too many rows; everything else is a row exception found by the validation.
 * Callers: a module's upload route (its CREATE permission), with the route's context.
 */
export async function stageUpload(
  ctx: RequestContext,
  kind: ImportKind,
  opts: {
    id?: string;
    fileName: string;
    path: string;
    scopeEntityId?: number | null;
    params?: unknown;
  },
): Promise<ImportBatch> {
  const { db, actor } = ctx;
  const format: FileKind = await sniffFile(opts.path, opts.fileName);
  if (format === 'xlsx') await guardXlsx(opts.path);
  if (opts.scopeEntityId != null) await assertEntityInScope(ctx, opts.scopeEntityId);
  const id = opts.id ?? randomUUID();
  const [existing] = await db.select({ id: importBatches.id }).from(importBatches).where(eq(importBatches.id, id));
  if (existing) throw new AppError('DUPLICATE', msg('platform.importDuplicateId'));
  await db.insert(importBatches).values({
    id,
    kind: kind.kind,
    fileName: opts.fileName.slice(0, 200),
    format,
    status: 'VALIDANDO',
    phase: 'LECTURA',
    scopeEntityId: opts.scopeEntityId ?? null,
    params: opts.params ?? null,
    createdBy: actor.id,
  });
  try {
    const isDataSheet = (cells: Cell[]) =>
      checkHeaders(
        kind.columns,
        cells.map((c) => cellText(c).trim()),
      ).missing.length === 0;
    const rows = format === 'xlsx' ? xlsxRows(opts.path, { isDataSheet }) : csvRows(opts.path);
    const { totalRows, layout } = await stageRows(db, kind, id, rows);
    // The batch moves to its validation and the job exists together, or neither does.
    const staged = await db.transaction(async (tx) => {
      const job = await enqueueJob(ctx, validateImportJob, { batchId: id }, { tx });
      const [b] = await tx
        .update(importBatches)
        .set({ phase: 'VALIDACION', jobId: job.id, totalRows, processedRows: 0, layout, updatedAt: new Date() })
        .where(eq(importBatches.id, id))
        .returning();
      return b;
    });
    return toBatch(staged);
  } catch (err) {
    const message = err instanceof AppError ? err.message : text('platform.importUnreadable');
    await failBatch(db, id, message);
    if (err instanceof AppError) throw err;
    throw new AppError('VALIDATION', msg('platform.importUnreadableFormat'), undefined, { cause: err });
  }
}

async function assertEntityInScope(ctx: RequestContext, entityId: number) {
  const cond = ctx.inScope(sql`${entityId}::int`);
  if (!cond) return;
  const ok = rowsOf(await ctx.db.execute(sql`select 1 as ok where ${cond}`)).length > 0;
  if (!ok) throw new AppError('FORBIDDEN', msg('platform.importEntityForbidden'));
}

/**
 * A cell as the text a validator reads: a number as Excel shows it (15 significant digits, no
 * exponent: numberCellText), a real date cell as its ISO day. A number is never turned into a date.
 */
function cellText(c: Cell | RawValue | undefined): string {
  if (c == null) return '';
  if (typeof c === 'string') return c;
  if (typeof c === 'number') return numberCellText(c);
  if (c instanceof Date) return c.toISOString().slice(0, 10);
  return '';
}

const isFormula = (c: Cell): c is { formula: true } => c !== null && typeof c === 'object' && !(c instanceof Date);

/** Header row checks (whole-file refusals) and the staging of every data row, in chunks. */
async function stageRows(db: Db, kind: ImportKind, id: string, rows: AsyncGenerator<SheetRow>) {
  let map: (string | null)[] | null = null;
  const layout: Record<string, string> = {};
  let pending: StagedRow[] = [];
  let chunk = 0;
  let totalRows = 0;
  const headerOf = new Map(kind.columns.map((c) => [c.key, c.header]));

  const flush = async () => {
    if (!pending.length) return;
    chunk += 1;
    await db.insert(importChunks).values({ batchId: id, chunk, rows: JSON.stringify(pending) });
    pending = [];
    await db.update(importBatches).set({ processedRows: totalRows, updatedAt: new Date() }).where(eq(importBatches.id, id));
    await yieldToEventLoop();
  };

  for await (const row of rows) {
    if (!map) {
      map = checkHeaderRow(kind, row);
      map.forEach((key, i) => {
        if (key) layout[key] = columnLetter(i);
      });
      continue;
    }
    if (row.cells.every((c) => c == null || (typeof c === 'string' && c.trim() === ''))) continue;
    totalRows += 1;
    if (totalRows > IMPORT_LIMITS.maxRows) {
      throw new AppError('PAYLOAD_TOO_LARGE', msg('platform.importTooManyRows', { max: IMPORT_LIMITS.maxRows }));
    }
    // Problems the reader alone sees (a formula, data outside the template) are staged with the row;
    // the validator's own issues join them.
    const raw: RawRow = {};
    const errors: ImportIssue[] = [];
    for (let i = 0; i < map.length; i++) {
      const key = map[i];
      if (!key) continue;
      const c = row.cells[i] ?? null;
      if (isFormula(c)) {
        errors.push({ column: headerOf.get(key)!, ...detail(msg('platform.importCellFormula')) });
        raw[key] = '';
      } else if (typeof c === 'number') raw[key] = c;
      else raw[key] = cellText(c);
      // The rule of every text that enters (packages/domain fields.ts): no control or bidi override
      // characters. Staged with them shown as `?` (a NUL cannot be stored in jsonb).
      const text = raw[key];
      if (typeof text === 'string' && CONTROL_CHARACTERS.test(text)) {
        errors.push({ column: headerOf.get(key)!, ...detail(msg('platform.importCellControlCharacters')) });
        raw[key] = text.replace(new RegExp(CONTROL_CHARACTERS.source, 'g'), '?');
      }
    }
    const extra = row.cells.slice(map.length).some((c) => c != null && cellText(c).trim() !== '');
    if (extra) errors.push({ column: OUTSIDE_TEMPLATE_COLUMN, ...detail(msg('platform.importDataOutsideColumns')) });
    pending.push(errors.length ? { n: row.rowNumber, raw, errors } : { n: row.rowNumber, raw });
    if (pending.length >= IMPORT_CHUNK_ROWS) await flush();
  }
  if (!map) throw new AppError('VALIDATION', msg('platform.importNoRows'));
  // Only the headers (or blank lines below them): nothing to load, said now rather than as a load of 0 rows.
  if (totalRows === 0)
    throw new AppError('VALIDATION', msg('platform.importNoDataRows'), [
      { path: 'archivo', ...detail(msg('platform.importOnlyHeaderRow')) },
    ]);
  await flush();
  return { totalRows, layout };
}

/** The header row against the kind's columns: refuses an empty, merged, formula or mismatched header. */
function checkHeaderRow(kind: ImportKind, row: SheetRow): (string | null)[] {
  const headers = row.cells.map((c) => cellText(c).trim());
  const lastNamed = headers.reduce((last, h, i) => (h ? i : last), -1);
  if (lastNamed < 0) {
    throw new AppError('VALIDATION', msg('platform.importHeaderRowEmpty'), [
      { path: 'archivo', row: row.rowNumber, ...detail(msg('platform.importHeaderRowEmptyDetail')) },
    ]);
  }
  if (row.cells.some(isFormula)) {
    throw new AppError('VALIDATION', msg('platform.importHeaderFormulas'));
  }
  const gaps = headers.slice(0, lastNamed + 1).flatMap((h, i) => (h ? [] : [columnLetter(i)]));
  if (gaps.length) {
    const columns = gaps.join(', ');
    throw new AppError('VALIDATION', msg('platform.importHeaderGaps', { columns }), [
      { path: 'encabezados', row: row.rowNumber, ...detail(msg('platform.importHeaderGapsDetail', { columns })) },
    ]);
  }
  const check = checkHeaders(kind.columns, headers.slice(0, lastNamed + 1));
  if (check.missing.length || check.unknown.length || check.duplicated.length) {
    // The parts are Spanish fragments of one sentence; each column is also named by its own detail.
    const parts = [
      check.missing.length ? msg('platform.importColumnsMissingPart', { columns: check.missing.join(', ') }).text : '',
      check.unknown.length ? msg('platform.importColumnsUnknownPart', { columns: check.unknown.join(', ') }).text : '',
      check.duplicated.length ? msg('platform.importColumnsDuplicatedPart', { columns: check.duplicated.join(', ') }).text : '',
    ].filter(Boolean);
    throw new AppError('VALIDATION', msg('platform.importColumnsMismatch', { problems: parts.join('; ') }), [
      ...check.missing.map((c) => ({ path: c, ...detail(msg('platform.importColumnMissing')) })),
      ...check.unknown.map((c) => ({ path: c, ...detail(msg('platform.importColumnUnknown')) })),
      ...check.duplicated.map((c) => ({ path: c, ...detail(msg('platform.importColumnDuplicated')) })),
    ]);
  }
  return check.map;
}

async function failBatch(db: Db, id: string, message: string) {
  await db.transaction(async (tx) => {
    await tx.delete(importChunks).where(eq(importChunks.batchId, id));
    await tx.delete(importRows).where(eq(importRows.batchId, id));
    await tx
      .update(importBatches)
      .set({ status: 'FALLIDO', phase: null, message, updatedAt: new Date() })
      .where(eq(importBatches.id, id));
  });
}

// ---------------------------------------------------------------------------------------------------
// Validation: a job over the staged rows, in chunks, resumable

/**
 * Why a batch's job stopped with `err`: `stopped` (a shutdown or a lost lease: the job runs again),
 * `cancelled` (by its user), or null (an error of the work itself).
 */
function stopOf(job: JobRun<unknown>, err: unknown): 'stopped' | 'cancelled' | null {
  const { signal } = job;
  if (signal.aborted && signal.reason !== 'cancelled') return 'stopped';
  if (err instanceof JobCancelledError || signal.reason === 'cancelled') return 'cancelled';
  return null;
}

/** What a batch whose validation job was cancelled says. */
export const CANCELLED_IMPORT_MESSAGE = text('platform.importCancelled');

/**
 * Validates the staged rows of a batch, chunk by chunk: each chunk's rows, its removal from the staging
 * and the batch's counts are written in one short transaction, so a run stopped anywhere (shutdown, a
 * killed process) resumes at the first chunk left when the job runs again and never counts a row twice.
 * A failure or a cancel marks the batch FALLIDO with the reason. The job `stageUpload` enqueues.
 */
export async function validateBatch(job: JobRun<{ batchId: string }>): Promise<{ validRows: number; errorRows: number }> {
  const { ctx } = job;
  const { db } = ctx;
  const id = job.payload.batchId;
  const [batch] = await db.select().from(importBatches).where(eq(importBatches.id, id));
  if (batch?.status !== 'VALIDANDO' || batch.phase !== 'VALIDACION') {
    return { validRows: batch?.validRows ?? 0, errorRows: batch?.errorRows ?? 0 };
  }
  const kind = importKind(batch.kind);
  try {
    if (!kind) throw new AppError('INTERNAL', msg('platform.importKindUnknown', { kind: batch.kind }));
    await validateChunks(job, kind, batch);
    await job.progress({ done: batch.totalRows, total: batch.totalRows, phase: 'Cerrando la validación' });
    const done = await db.transaction(async (tx) => {
      if (kind.afterValidation) await kind.afterValidation(ctx, tx, batch);
      const [b] = await tx
        .update(importBatches)
        .set({ status: 'VALIDADO', phase: null, updatedAt: new Date() })
        .where(and(eq(importBatches.id, id), eq(importBatches.status, 'VALIDANDO')))
        .returning();
      if (b) {
        await ctx.audit(
          {
            action: 'IMPORT_VALIDATE',
            entityType: kind.auditEntityType,
            entityId: id,
            after: { fileName: b.fileName, totalRows: b.totalRows, validRows: b.validRows, errorRows: b.errorRows },
            scopeEntityId: b.scopeEntityId,
          },
          tx,
        );
      }
      return b;
    });
    return { validRows: done?.validRows ?? 0, errorRows: done?.errorRows ?? 0 };
  } catch (err) {
    const stop = stopOf(job, err);
    // A shutdown or a lost lease: the job runs again and resumes at the first chunk left.
    if (stop === 'stopped') throw err;
    if (stop === 'cancelled') {
      await failBatch(db, id, CANCELLED_IMPORT_MESSAGE);
      throw err;
    }
    const known = err instanceof AppError && err.code !== 'INTERNAL';
    const message = known ? err.message : text('platform.importValidationFailed');
    await failBatch(db, id, message);
    // An AppError fails the job with this message at once: retrying a batch already failed is pointless.
    throw known ? err : new AppError('VALIDATION', msg('platform.importValidationFailed'), undefined, { cause: err });
  }
}

/** The validation of an import batch, as a background job (Procesos shows it with its progress). */
export const validateImportJob = defineJob<{ batchId: string }, { validRows: number; errorRows: number }>({
  kind: 'imports.validate',
  title: 'Validación de carga masiva',
  run: validateBatch,
});

async function validateChunks(job: JobRun<{ batchId: string }>, kind: ImportKind, batch: BatchRecord) {
  const { ctx } = job;
  const { db } = ctx;
  const id = batch.id;
  const layout = batch.layout ?? {};
  const headerToKey = new Map(kind.columns.map((c) => [c.header, c.key]));
  const cellOf = (column: string, rowNumber: number) => {
    const key = headerToKey.get(column);
    const letter = key ? layout[key] : undefined;
    return letter ? `${letter}${rowNumber}` : undefined;
  };
  const lookups = await kind.prepare(ctx, batch);
  // The first valid row of every key so far: rebuilt from the rows already validated when resuming.
  const seen = new Map<string, number>();
  if (kind.uniqueKey) {
    const done = await db
      .select({ key: importRows.key, first: sql<number>`min(${importRows.rowNumber})` })
      .from(importRows)
      .where(and(eq(importRows.batchId, id), eq(importRows.isValid, true), isNotNull(importRows.key)))
      .groupBy(importRows.key);
    for (const d of done) seen.set(d.key!, Number(d.first));
  }
  const uniqueHeader = kind.uniqueKey ? kind.columns.find((c) => c.key === kind.uniqueKey!.column)!.header : '';
  let processed = batch.processedRows;
  for (;;) {
    // Also where a cancel or a shutdown is noticed (it throws): always between two chunks.
    await job.progress({ done: processed, total: batch.totalRows, phase: 'Validando filas' });
    const [next] = await db
      .select()
      .from(importChunks)
      .where(eq(importChunks.batchId, id))
      .orderBy(asc(importChunks.chunk))
      .limit(1);
    if (!next) return;
    const staged = JSON.parse(next.rows) as StagedRow[];
    const inputs: RowInput[] = staged.map((s) => {
      const values: Record<string, string> = {};
      const numberCells = new Set<string>();
      for (const [k, v] of Object.entries(s.raw)) {
        values[k] = cellText(v);
        if (typeof v === 'number') numberCells.add(k);
      }
      return { rowNumber: s.n, values, numberCells };
    });
    const chunk = kind.prefetch ? await kind.prefetch(ctx, inputs, lookups) : undefined;
    let valid = 0;
    let warned = 0;
    const results = inputs.map((input, i) => {
      const read = staged[i].errors ?? [];
      const out: RowOutcome<unknown> = kind.validateRow(input, lookups, chunk);
      const errors = [
        ...read.filter((e) => e.column !== OUTSIDE_TEMPLATE_COLUMN),
        ...out.errors,
        ...read.filter((e) => e.column === OUTSIDE_TEMPLATE_COLUMN),
      ];
      const key = out.key ? out.key.slice(0, 100) : null;
      if (!errors.length && kind.uniqueKey && key) {
        const first = seen.get(key);
        if (first !== undefined) errors.push({ column: uniqueHeader, message: kind.uniqueKey.message(first) });
        else seen.set(key, input.rowNumber);
      }
      for (const e of errors) e.cell ??= cellOf(e.column, input.rowNumber);
      const warnings = out.warnings ?? [];
      for (const w of warnings) w.cell ??= cellOf(w.column, input.rowNumber);
      const isValid = errors.length === 0 && out.data !== undefined;
      if (isValid) valid += 1;
      if (isValid && warnings.length) warned += 1;
      // Valid rows keep only their normalised value; exceptions keep their cells for the exceptions file.
      return {
        row_number: input.rowNumber,
        is_valid: isValid,
        key,
        entity_id: out.entityId ?? null,
        data: isValid ? out.data : null,
        raw: isValid ? null : staged[i].raw,
        errors: errors.length ? errors : isValid ? null : [{ column: '', ...detail(msg('platform.importRowInvalid')) }],
        warnings: warnings.length ? warnings : null,
      };
    });
    processed += results.length;
    // The chunk's rows, the chunk's removal and the counts commit together: a stop between two chunks
    // (or a killed process) resumes at the first chunk left, no row validated twice or lost.
    await db.transaction(async (tx) => {
      // Taking the chunk first makes a second run of the same job (a lease taken back while the first was
      // still alive) skip it instead of writing its rows twice.
      const taken = await tx
        .delete(importChunks)
        .where(and(eq(importChunks.batchId, id), eq(importChunks.chunk, next.chunk)))
        .returning({ chunk: importChunks.chunk });
      if (!taken.length) return;
      await tx.execute(sql`
        insert into ${importRows} (batch_id, row_number, is_valid, key, entity_id, data, raw, errors, warnings)
        select ${id}::uuid, x.row_number, x.is_valid, x.key, x.entity_id, x.data, x.raw, x.errors, x.warnings
        from jsonb_to_recordset(${JSON.stringify(results)}::jsonb)
          as x(row_number int, is_valid boolean, key text, entity_id int, data jsonb, raw jsonb, errors jsonb, warnings jsonb)`);
      await tx
        .update(importBatches)
        .set({
          processedRows: sql`${importBatches.processedRows} + ${results.length}`,
          validRows: sql`${importBatches.validRows} + ${valid}`,
          errorRows: sql`${importBatches.errorRows} + ${results.length - valid}`,
          warningRows: sql`${importBatches.warningRows} + ${warned}`,
          updatedAt: new Date(),
        })
        .where(eq(importBatches.id, id));
    });
    await yieldToEventLoop();
  }
}

// ---------------------------------------------------------------------------------------------------
// Reading a batch: status, open batches, preview, exceptions

/**
 * A batch is private to its uploader (it may hold people of several entities) and, when it is for one
 * entity, only while that entity is in the caller's scope. Anything else is 404.
 */
function visible(ctx: RequestContext, kind: ImportKind): SQL {
  if (ctx.actor.id == null) return sql`false`;
  const inScope = ctx.inScope(importBatches.scopeEntityId);
  return and(
    eq(importBatches.kind, kind.kind),
    eq(importBatches.createdBy, ctx.actor.id),
    inScope ? or(sql`${importBatches.scopeEntityId} is null`, inScope) : undefined,
  )!;
}

export async function loadBatch(ctx: RequestContext, kind: ImportKind, id: string): Promise<BatchRecord> {
  const [b] = await ctx.db
    .select()
    .from(importBatches)
    .where(and(eq(importBatches.id, id), visible(ctx, kind)));
  if (!b) throw new AppError('NOT_FOUND', msg('platform.importNotFound'));
  return b;
}

/** Status and progress of a batch (polled while it validates). */
export async function getBatch(ctx: RequestContext, kind: ImportKind, id: string): Promise<ImportBatch> {
  const b = await loadBatch(ctx, kind, id);
  if (
    (b.status !== 'VALIDANDO' && b.status !== 'CONFIRMANDO') ||
    !(await settleStalledImports(ctx.db, { createdBy: b.createdBy ?? undefined })).includes(id)
  ) {
    return toBatch(b);
  }
  return toBatch(await loadBatch(ctx, kind, id));
}

/**
 * The caller's unfinished batches of a kind (validating, waiting for a decision, or failed), newest
 * first: what an upload screen offers to open or discard when the user comes back.
 */
export async function findOpenBatches(ctx: RequestContext, kind: ImportKind): Promise<ImportBatch[]> {
  if (ctx.actor.id != null) await settleStalledImports(ctx.db, { createdBy: ctx.actor.id });
  const rows = await ctx.db
    .select()
    .from(importBatches)
    .where(and(visible(ctx, kind), inArray(importBatches.status, ['VALIDANDO', 'VALIDADO', 'CONFIRMANDO', 'FALLIDO'])))
    .orderBy(desc(importBatches.createdAt))
    .limit(20);
  return rows.map(toBatch);
}

export interface PreviewRow {
  rowNumber: number;
  key: string | null;
  /** The normalised value (valid rows) or the cells as read (exceptions). */
  values: Record<string, unknown>;
  errors: ImportIssue[];
  warnings: ImportIssue[];
}

/**
 * One page of a batch's valid rows or exceptions, by row number. Valid rows are limited to entities in
 * the caller's scope (a scope narrowed since the upload hides them; the commit refuses them).
 */
export async function findBatchRows(
  ctx: RequestContext,
  kind: ImportKind,
  id: string,
  query: { kind: 'valid' | 'error'; page: number; pageSize: number },
): Promise<{ items: PreviewRow[]; total: number }> {
  const { db } = ctx;
  await loadBatch(ctx, kind, id);
  const valid = query.kind === 'valid';
  const scope = valid ? ctx.inScope(importRows.entityId) : undefined;
  const cond = and(
    eq(importRows.batchId, id),
    eq(importRows.isValid, valid),
    scope ? or(sql`${importRows.entityId} is null`, scope) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(importRows)
      .where(cond)
      .orderBy(asc(importRows.rowNumber))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ total: count() }).from(importRows).where(cond),
  ]);
  return {
    items: rows.map((r) => ({
      rowNumber: r.rowNumber,
      key: r.key,
      values: ((r.data ?? r.raw ?? {}) as Record<string, unknown>) ?? {},
      errors: (r.errors as ImportIssue[] | null) ?? [],
      warnings: (r.warnings as ImportIssue[] | null) ?? [],
    })),
    total,
  };
}

interface ExceptionRow {
  rowNumber: number;
  raw: RawRow;
  errors: ImportIssue[];
}

/**
 * The exceptions file of a batch: the template's columns as they were read, the row number and the
 * reasons (column, cell, Spanish message), read in keyset chunks for `sendExport`. The two extra columns
 * are accepted on upload, so the corrected file goes back as it is.
 */
export async function exceptionsExport(ctx: RequestContext, kind: ImportKind, id: string) {
  const batch = await loadBatch(ctx, kind, id);
  const byRow = { column: importRows.rowNumber, id: importRows.rowNumber, descending: false };
  const batches = keysetBatches<ExceptionRow>(
    byRow,
    async (c) => {
      const rows = await ctx.db
        .select({ rowNumber: importRows.rowNumber, raw: importRows.raw, errors: importRows.errors })
        .from(importRows)
        .where(and(eq(importRows.batchId, batch.id), eq(importRows.isValid, false), c.after))
        .orderBy(...c.order)
        .limit(c.limit);
      return rows.map((r) => ({
        rowNumber: r.rowNumber,
        raw: (r.raw ?? {}) as RawRow,
        errors: (r.errors ?? []) as ImportIssue[],
      }));
    },
    (r) => r.rowNumber,
  );
  const columns: ExportColumn<ExceptionRow>[] = [
    ...kind.columns.map((c) => ({
      header: c.header,
      // Text as the uploader saw it: a 13-digit CUI typed as a number stays 13 digits, not 1.58756E+12.
      value: (r: ExceptionRow) => (r.raw[c.key] === undefined ? null : cellText(r.raw[c.key])),
      width: Math.max(14, c.header.length + 4),
    })),
    { header: IMPORT_EXCEPTION_COLUMNS.row, value: (r: ExceptionRow) => r.rowNumber },
    {
      header: IMPORT_EXCEPTION_COLUMNS.errors,
      value: (r: ExceptionRow) => r.errors.map((e) => `${e.column}${e.cell ? ` (${e.cell})` : ''}: ${e.message}`).join(' | '),
      width: 80,
    },
  ];
  return { batch, columns, batches };
}

// ---------------------------------------------------------------------------------------------------
// Commit, discard

/** What a batch whose commit was cancelled before it wrote anything says. */
export const CANCELLED_COMMIT_MESSAGE = text('platform.importCommitCancelled');

/** What a batch whose commit job ended without committing says (after a crash, its attempts spent). */
export const INTERRUPTED_COMMIT_MESSAGE = text('platform.importCommitInterrupted');

/** What a batch whose commit failed by an unexpected error, its attempts spent, says. */
export const FAILED_COMMIT_MESSAGE = text('platform.importCommitFailed');

/**
 * What must hold for `ctx` to commit batch `b` now, or a 409 naming the rows: the batch in `status`,
 * valid rows, every valid row's entity still in the caller's scope, and the kind's own check (a CUI
 * registered since the validation). Run when the commit is asked for (so a refusal is immediate) and
 * again inside the commit's transaction (nothing changed in between).
 */
async function assertCommittable(
  ctx: RequestContext,
  kind: ImportKind,
  db: Db,
  b: BatchRecord,
  status: 'VALIDADO' | 'CONFIRMANDO',
) {
  if (b.status !== status) {
    throw new AppError(
      'CONFLICT',
      msg(
        b.status === 'CONFIRMADO'
          ? 'platform.importAlreadyCommitted'
          : b.status === 'CONFIRMANDO'
            ? 'platform.importAlreadyCommitting'
            : b.status === 'VALIDANDO'
              ? 'platform.importStillValidating'
              : 'platform.importNotReady',
      ),
    );
  }
  if (b.validRows === 0) throw new AppError('CONFLICT', msg('platform.importNoValidRows'));
  const inScope = ctx.inScope(importRows.entityId);
  if (inScope) {
    const outside = await db
      .select({ rowNumber: importRows.rowNumber })
      .from(importRows)
      .where(
        and(eq(importRows.batchId, b.id), eq(importRows.isValid, true), isNotNull(importRows.entityId), sql`not (${inScope})`),
      )
      .orderBy(asc(importRows.rowNumber))
      .limit(20);
    if (outside.length) {
      throw new AppError(
        'CONFLICT',
        msg('platform.importEntityOutOfScope'),
        outside.map((r) => ({ path: 'entidad', row: r.rowNumber, ...detail(msg('platform.importEntityOutOfScopeDetail')) })),
      );
    }
  }
  if (kind.checkCommit) await kind.checkCommit(ctx, db, b);
}

/**
 * Asks for the commit of a validated batch: checks it can be committed (409 naming the rows otherwise),
 * then queues the commit job and moves the batch to CONFIRMANDO together, and answers at once; the
 * screen follows the job's progress. Callers: the module's commit route (CREATE), `ip` for the audit rows.
 */
export async function commitBatch(ctx: RequestContext, kind: ImportKind, id: string): Promise<ImportBatch> {
  const b = await loadBatch(ctx, kind, id);
  await assertCommittable(ctx, kind, ctx.db, b, 'VALIDADO');
  const queued = await ctx.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(importBatches).where(eq(importBatches.id, id)).for('update');
    if (locked.status !== 'VALIDADO') await assertCommittable(ctx, kind, tx, locked, 'VALIDADO');
    const job = await enqueueJob(ctx, commitImportJob, { batchId: id, ip: ctx.actor.ip ?? null }, { tx });
    const [q] = await tx
      .update(importBatches)
      .set({ status: 'CONFIRMANDO', phase: null, jobId: job.id, message: null, updatedAt: new Date() })
      .where(eq(importBatches.id, id))
      .returning();
    return q;
  });
  return toBatch(queued);
}

/**
 * A refusal as one line a batch can keep: the message and its first rows. Keyed when it names rows
 * (its parameters are the Spanish message and rows, the fallback words); otherwise the refusal's own.
 */
const refusal = (err: AppError): Message | string => {
  const rows = (err.details ?? [])
    .slice(0, 10)
    .map((d) =>
      d.row == null ? `fila ?: ${d.message}` : msg('platform.importRefusalRow', { row: d.row, message: d.message }).text,
    )
    .join('; ');
  if (!rows) return err.key ? { key: err.key, ...(err.params ? { params: err.params } : {}), text: err.message } : err.message;
  return msg('platform.importRefusalRows', {
    message: err.message,
    rows: `${rows}${(err.details?.length ?? 0) > 10 ? '; …' : ''}`,
  });
};
const refusalText = (err: AppError) => {
  const r = refusal(err);
  return typeof r === 'string' ? r : r.text;
};

/**
 * The commit job: writes the valid rows of a CONFIRMANDO batch in ONE transaction through the kind's
 * set-based SQL (every row or none) and marks it CONFIRMADO with its audit row; then the kind's
 * maintenance (ANALYZE). Progress: the phase and rows (0 of n while the transaction runs, n of n after).
 * A stop mid-transaction rolls it back, and the job's next run commits again (the batch is still
 * CONFIRMANDO); a run that finds it CONFIRMADO does nothing. A refusal found now (a CUI registered since)
 * fails the batch with the rows named; a cancel before the transaction gives it back (VALIDADO).
 */
export async function commitBatchJob(job: JobRun<{ batchId: string; ip?: string | null }>): Promise<{ committedRows: number }> {
  const { db } = job.ctx;
  const ctx = contextFromRequest(job);
  const id = job.payload.batchId;
  const [batch] = await db.select().from(importBatches).where(eq(importBatches.id, id));
  if (batch?.status !== 'CONFIRMANDO') return { committedRows: batch?.committedRows ?? 0 };
  const total = batch.validRows;
  try {
    const kind = importKind(batch.kind);
    if (!kind) throw new AppError('INTERNAL', msg('platform.importKindUnknown', { kind: batch.kind }));
    // Also where a cancel or a shutdown asked before the transaction is noticed (it throws).
    await job.progress({ done: 0, total, phase: `Guardando ${total} filas (todas o ninguna)` });
    const done = await db.transaction(async (tx) => {
      const [b] = await tx.select().from(importBatches).where(eq(importBatches.id, id)).for('update');
      if (b.status !== 'CONFIRMANDO') return null;
      await assertCommittable(ctx, kind, tx, b, 'CONFIRMANDO');
      const n = await kind.commit(ctx, tx, b);
      const [d] = await tx
        .update(importBatches)
        .set({
          status: 'CONFIRMADO',
          committedRows: n,
          committedAt: new Date(),
          committedBy: ctx.actor.id,
          updatedAt: new Date(),
        })
        .where(eq(importBatches.id, id))
        .returning();
      await ctx.audit(
        {
          action: 'IMPORT_COMMIT',
          entityType: kind.auditEntityType,
          entityId: id,
          after: { committedRows: n },
          scopeEntityId: b.scopeEntityId,
        },
        tx,
      );
      return d;
    });
    if (!done) {
      const [now] = await db.select().from(importBatches).where(eq(importBatches.id, id));
      return { committedRows: now?.committedRows ?? 0 };
    }
    // Committed: what follows is maintenance; a cancel or a stop now changes nothing that was saved.
    try {
      await job.progress({ done: done.committedRows, total: done.committedRows, phase: 'Actualizando estadísticas' });
      if (kind.afterCommit) await kind.afterCommit(ctx, done);
    } catch {
      // ANALYZE lost to a stop or an error costs nothing: the next one catches up.
    }
    return { committedRows: done.committedRows };
  } catch (err) {
    const stop = stopOf(job, err);
    // A shutdown or a lost lease: the transaction was rolled back, the job runs again and commits.
    if (stop === 'stopped') throw err;
    if (stop === 'cancelled') {
      await reopenBatch(db, id, CANCELLED_COMMIT_MESSAGE);
      throw err;
    }
    if (err instanceof AppError && err.code !== 'INTERNAL') {
      // Refused now (rows taken or out of scope since the request): the batch cannot be committed as it is.
      await failBatch(db, id, refusalText(err));
      throw new AppError(err.code, refusal(err), err.details, { cause: err });
    }
    // Unexpected: retried by the queue; once its attempts are spent `settleStalledImports` reopens the batch.
    throw err;
  }
}

/** The commit of an import batch, as a background job (Procesos shows it with its progress). */
export const commitImportJob = defineJob<{ batchId: string; ip?: string | null }, { committedRows: number }>({
  kind: 'imports.commit',
  title: 'Confirmación de carga masiva',
  run: commitBatchJob,
});

/** A CONFIRMANDO batch back to VALIDADO (nothing was written), with the reason: it can be committed again. */
async function reopenBatch(db: Db, id: string, message: string) {
  await db
    .update(importBatches)
    .set({ status: 'VALIDADO', phase: null, message, updatedAt: new Date() })
    .where(and(eq(importBatches.id, id), eq(importBatches.status, 'CONFIRMANDO')));
}

/** Discards a validated or failed batch: its staged rows are deleted, nothing was committed. */
export async function discardBatch(ctx: RequestContext, kind: ImportKind, id: string): Promise<ImportBatch> {
  const b = await loadBatch(ctx, kind, id);
  if (b.status === 'CONFIRMADO') throw new AppError('CONFLICT', msg('platform.importAlreadyCommitted'));
  if (b.status === 'DESCARTADO') throw new AppError('CONFLICT', msg('platform.importAlreadyDiscarded'));
  if (b.status === 'VALIDANDO') throw new AppError('CONFLICT', msg('platform.importStillValidating'));
  if (b.status === 'CONFIRMANDO') throw new AppError('CONFLICT', msg('platform.importCommitting'));
  const done = await ctx.db.transaction(async (tx) => {
    await tx.delete(importChunks).where(eq(importChunks.batchId, id));
    await tx.delete(importRows).where(eq(importRows.batchId, id));
    const [d] = await tx
      .update(importBatches)
      .set({ status: 'DESCARTADO', phase: null, updatedAt: new Date() })
      .where(and(eq(importBatches.id, id), notInArray(importBatches.status, ['VALIDANDO', 'CONFIRMANDO'])))
      .returning();
    await ctx.audit(
      {
        action: 'IMPORT_DISCARD',
        entityType: kind.auditEntityType,
        entityId: id,
        before: { status: b.status },
        scopeEntityId: b.scopeEntityId,
      },
      tx,
    );
    return d;
  });
  return toBatch(done);
}

// ---------------------------------------------------------------------------------------------------
// Restart

/** What a batch cut by a restart says: its file is gone. */
export const INTERRUPTED_IMPORT_MESSAGE = text('platform.importInterrupted');

/**
 * Batches left VALIDANDO that can never finish, marked FALLIDO with the reason (their staged rows
 * deleted) so their uploader can discard them: still reading their file when the process stopped (the
 * upload request died with it, and the file with the request), or whose validation job has ended
 * without validating them (failed after its attempts, cancelled, gone). A validation whose job is
 * queued or running is left alone: the job resumes it. Runs at start-up (before listening) and when an
 * uploader looks at their batches, so none is ever shown stuck.
 */
export async function settleStalledImports(db: Db, opts: { startup?: boolean; createdBy?: number } = {}): Promise<string[]> {
  const mine = opts.createdBy != null ? sql`and b.created_by = ${opts.createdBy}` : sql``;
  // Only at start-up is a batch still reading known to be orphaned: in a running server its request may be live.
  const reading = opts.startup ? sql`or b.phase is null or b.phase <> 'VALIDACION'` : sql``;
  const stalled = rowsOf<{ id: string; message: string }>(
    await db.execute(sql`
      select b.id, case
          when b.phase is distinct from 'VALIDACION' then ${INTERRUPTED_IMPORT_MESSAGE}
          when j.state = 'CANCELLED' then ${CANCELLED_IMPORT_MESSAGE}
          when j.state = 'FAILED' and j.error is not null then j.error
          else ${INTERRUPTED_IMPORT_MESSAGE} end as message
      from ${importBatches} b left join ${jobsTable} j on j.id = b.job_id
      where b.status = 'VALIDANDO' ${mine}
        and ((b.phase = 'VALIDACION' and (j.id is null or j.state in ('DONE', 'FAILED', 'CANCELLED'))) ${reading})`),
  );
  for (const s of stalled) await failBatch(db, s.id, s.message);
  // A commit whose job ended without committing (its transaction rolled back): nothing was written, so
  // the batch is committable again, with the reason. One whose job is queued or running is left to it.
  const reopened = rowsOf<{ id: string; message: string }>(
    await db.execute(sql`
      select b.id, case
          when j.state = 'CANCELLED' then ${CANCELLED_COMMIT_MESSAGE}
          when j.state = 'FAILED' and j.error = ${jobMessages.unexpected} then ${FAILED_COMMIT_MESSAGE}
          else ${INTERRUPTED_COMMIT_MESSAGE} end as message
      from ${importBatches} b left join ${jobsTable} j on j.id = b.job_id
      where b.status = 'CONFIRMANDO' ${mine} and (j.id is null or j.state in ('DONE', 'FAILED', 'CANCELLED'))`),
  );
  for (const r of reopened) await reopenBatch(db, r.id, r.message);
  return [...stalled, ...reopened].map((s) => s.id);
}

/** At start-up: see `settleStalledImports`. Returns the ids marked FALLIDO or reopened. */
export const recoverImports = (db: Db) => settleStalledImports(db, { startup: true });
