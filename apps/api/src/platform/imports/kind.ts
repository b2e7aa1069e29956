import type { ImportColumn, ImportIssue, Resource } from '@aporta/domain';
import type { Db } from '../../db/client.ts';
import type { importBatches } from '../../db/schema/index.ts';
import type { RequestContext } from '../context.ts';

export type BatchRecord = typeof importBatches.$inferSelect;

/** One staged row as a validator reads it. */
export interface RowInput<K extends string = string> {
  /** 1-based, as the spreadsheet shows it. */
  rowNumber: number;
  /** Each template cell as text: a number cell as Excel shows it (15 digits), a date cell as its ISO day. */
  values: Partial<Record<K, string>>;
  /** Columns whose cell was a number cell, not text (an amount there is that number, not text to read). */
  numberCells: ReadonlySet<K>;
}

/**
 * What a validator says of one row. The row is valid when `errors` is empty (blocking problems);
 * `warnings` are allowed and shown (DOMAIN.md: a planilla line's CUI unknown to RENAP). Issues name
 * the template column by its header; the pipeline adds the cell (`J5`).
 */
export interface RowOutcome<D> {
  /** The normalised value the commit writes (only kept when the row is valid). */
  data?: D;
  /** The row's identity within the file (a CUI), for the repeated-key rule and the preview. */
  key?: string | null;
  /** The municipal entity the row writes to: the commit re-checks it against the uploader's scope. */
  entityId?: number | null;
  errors: ImportIssue[];
  warnings?: ImportIssue[];
}

/**
 * The seam between the one import pipeline and a module. A module supplies only its columns, a row
 * validator (pure, fed by set-based look-ups) and its commit (SQL from the staged rows); the pipeline
 * does the rest: upload, sniffing and guards, staging, validation as a job with progress, preview,
 * exceptions file, all-or-nothing commit, discard, recovery after a restart, scope and audit.
 *
 * Planillas (the next user) map onto it as: `columns` CUI, name, budget line, salary; `params` and
 * `scopeEntityId` on the batch for the entity and period; `prepare` loads budget lines, rates and the
 * previous period; `prefetch` the RENAP names of the chunk's CUIs; `validateRow` gives blocking errors
 * (bad CUI, salary ≤ 0, unknown budget line) and warnings (unknown to RENAP, name differs, salary changed
 * > 20 %, new employee); `uniqueKey` the CUI (duplicate CUI is blocking); `afterValidation` the missing
 * employees of the previous period; `commit` inserts the planilla and its lines.
 */
export interface ImportKind<K extends string = string, D = unknown, L = unknown, C = unknown> {
  /** Stored in import_batches.kind. */
  kind: string;
  /** The permission resource whose CREATE scope limits what the upload may write. */
  resource: Resource;
  /** The audit log's entity type of a batch (validate, commit, discard). */
  auditEntityType: string;
  columns: readonly ImportColumn<K>[];
  /** Look-ups loaded once per validation run: catalogues, the uploader's writable entities. */
  prepare(ctx: RequestContext, batch: BatchRecord): Promise<L>;
  /** Set-based look-ups for one chunk (which of these CUIs exist): one query per chunk, never per row. */
  prefetch?(ctx: RequestContext, rows: readonly RowInput<K>[], lookups: L): Promise<C>;
  /** One row → its normalised value, or its blocking errors; warnings either way. No I/O. */
  validateRow(row: RowInput<K>, lookups: L, chunk: C): RowOutcome<D>;
  /** Rows whose `key` repeats an earlier valid row become exceptions on this column with this message. */
  uniqueKey?: { column: K; message(firstRow: number): string };
  /** A set-based pass once every row is validated (e.g. employees of the previous period missing now). */
  afterValidation?(ctx: RequestContext, tx: Db, batch: BatchRecord): Promise<void>;
  /**
   * Refusals the commit must make (409 naming the rows; e.g. a CUI registered since the validation), run
   * when the commit is asked for and again inside the commit's transaction. Set-based, no writes.
   */
  checkCommit?(ctx: RequestContext, db: Db, batch: BatchRecord): Promise<void>;
  /**
   * Writes the valid rows of the batch (`import_rows.data` where `is_valid`) inside the commit's
   * transaction (run by the commit job), set-based (INSERT … SELECT), with their audit rows; returns how
   * many it wrote. Throws an AppError (409) to refuse, and then nothing is written.
   */
  commit(ctx: RequestContext, tx: Db, batch: BatchRecord): Promise<number>;
  /** After the commit's transaction, in the commit job (e.g. ANALYZE of the written table). */
  afterCommit?(ctx: RequestContext, batch: BatchRecord): Promise<void>;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds kinds of every row and look-up type.
type AnyKind = ImportKind<string, any, any, any>;
const kinds = new Map<string, AnyKind>();

/** Registers an import kind (once, at module load) so a validation resumed after a restart finds it. */
export function defineImportKind<K extends string, D, L, C>(def: ImportKind<K, D, L, C>): ImportKind<K, D, L, C> {
  const existing = kinds.get(def.kind);
  if (existing && existing !== def) throw new Error(`import kind ${def.kind} defined twice`);
  kinds.set(def.kind, def as unknown as AnyKind);
  return def;
}

export const importKind = (kind: string): AnyKind | undefined => kinds.get(kind);
