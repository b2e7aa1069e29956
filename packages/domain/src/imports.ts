import { z } from 'zod';

// ---------------------------------------------------------------------------------------------------
// The one import pipeline (issue 10): what every spreadsheet import shares. A module (contributors,
// planillas…) declares its columns here-in-the-domain; the API's platform/imports stages, validates,
// previews and commits any kind the same way.

/** One column of an import template. Headers match ignoring case, accents, spaces and dashes. */
export interface ImportColumn<K extends string = string> {
  key: K;
  /** The header the template writes (upper case, underscores). */
  header: string;
  required: boolean;
  /** Other headers accepted for this column (e.g. `DPI` for `CUI`). */
  aliases?: readonly string[];
}

/**
 * A problem with one row: the template column it belongs to, the cell (`U5`) when there is one, the
 * Spanish text and, when it has one, its key and parameters (messages.ts) for the web to translate.
 */
export interface ImportIssue {
  column: string;
  cell?: string;
  message: string;
  key?: string;
  params?: Record<string, string | number>;
}

export const importIssueSchema = z.object({
  column: z.string(),
  cell: z.string().optional(),
  message: z.string(),
  key: z.string().optional(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});

/**
 * Columns the exceptions file adds after the template's (row number, reasons): accepted and ignored on
 * upload, so the exceptions file can be corrected and uploaded as it is.
 */
export const IMPORT_EXCEPTION_COLUMNS = { row: 'FILA_ORIGINAL', errors: 'ERRORES' } as const;

/** The column of issues about cells outside the template (data beyond the last header). */
export const OUTSIDE_TEMPLATE_COLUMN = '(fuera de la plantilla)';

/** Header text as compared: upper case, no accents, spaces and dashes as underscores. */
export const normalizeHeader = (h: string): string =>
  h
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');

export interface HeaderCheck<K extends string> {
  missing: string[];
  unknown: string[];
  duplicated: string[];
  /** The column key of each header position; null for an unknown or ignored header. */
  map: (K | null)[];
}

/** Which template columns a header row lacks, which it has that the template does not, and which repeat. */
export function checkHeaders<K extends string>(columns: readonly ImportColumn<K>[], headers: string[]): HeaderCheck<K> {
  const byHeader = new Map<string, K>();
  for (const c of columns) {
    byHeader.set(normalizeHeader(c.header), c.key);
    for (const a of c.aliases ?? []) byHeader.set(normalizeHeader(a), c.key);
  }
  const ignored = new Set(Object.values(IMPORT_EXCEPTION_COLUMNS));
  const seen = new Set<K>();
  const unknown: string[] = [];
  const duplicated: string[] = [];
  const map = headers.map((h) => {
    const n = normalizeHeader(h);
    const key = byHeader.get(n) ?? null;
    if (!key && !ignored.has(n as never)) unknown.push(h);
    else if (key && seen.has(key)) duplicated.push(h);
    if (key) seen.add(key);
    return key;
  });
  const missing = columns.filter((c) => c.required && !seen.has(c.key)).map((c) => c.header);
  return { missing, unknown, duplicated, map };
}

/** Spreadsheet column letter of a 0-based index: 0 → A, 26 → AA. */
export const columnLetter = (i: number): string =>
  i < 26 ? String.fromCharCode(65 + i) : columnLetter(Math.floor(i / 26) - 1) + String.fromCharCode(65 + (i % 26));

/**
 * Where a batch is: VALIDANDO (reading the file, then validating as a job), VALIDADO (waiting for the
 * uploader's decision), CONFIRMANDO (its commit runs as a job: every row or none), CONFIRMADO, FALLIDO
 * (with its reason; can be discarded), DESCARTADO.
 */
export const importStatuses = ['VALIDANDO', 'VALIDADO', 'CONFIRMANDO', 'CONFIRMADO', 'FALLIDO', 'DESCARTADO'] as const;
export const importStatusSchema = z.enum(importStatuses);
export type ImportStatus = z.infer<typeof importStatusSchema>;

/** What a VALIDANDO batch is doing: reading the upload (in the request) or validating its rows (a job). */
export const importPhases = ['LECTURA', 'VALIDACION'] as const;
export const importPhaseSchema = z.enum(importPhases);
export type ImportPhase = z.infer<typeof importPhaseSchema>;

/** One import batch as the API answers it (every kind). */
export const importBatchSchema = z.object({
  id: z.string(),
  kind: z.string(),
  fileName: z.string(),
  format: z.string(),
  status: importStatusSchema,
  phase: importPhaseSchema.nullable(),
  /** The background job validating the rows, or committing them once asked (GET /api/jobs/:id). */
  jobId: z.number().int().nullable(),
  /** Rows read from the file (known once the reading ends; rows read so far while reading). */
  totalRows: z.number().int(),
  /** Rows read (LECTURA) or validated (VALIDACION) so far: the progress. */
  processedRows: z.number().int(),
  validRows: z.number().int(),
  errorRows: z.number().int(),
  /** Valid rows that carry warnings (allowed, shown to the reviewer). */
  warningRows: z.number().int(),
  message: z.string().nullable(),
  createdAt: z.string(),
  committedAt: z.string().nullable(),
  committedRows: z.number().int(),
});
export type ImportBatch = z.infer<typeof importBatchSchema>;
