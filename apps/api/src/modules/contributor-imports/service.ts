import { contributorFullName, type ImportBatch, type ImportRow } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import { budgetLines, contributorTypes } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import {
  commitBatch,
  discardBatch,
  exceptionsExport,
  findBatchRows,
  findOpenBatches,
  getBatch,
  stageUpload,
} from '../../platform/imports/pipeline.ts';
import { contributorImportKind as kind } from './kind.ts';

/**
 * Reads an uploaded file (on disk, ≤ 20 MB) into a batch and queues its validation job; answers the
 * batch (VALIDANDO, phase VALIDACION) without waiting for it. File-level refusals are thrown here. Callers:
 * contributor-bulk-upload CREATE.
 */
export function validateImport(
  ctx: RequestContext,
  input: { id?: string; fileName: string; path: string },
): Promise<ImportBatch> {
  return stageUpload(ctx, kind, input);
}

/** The caller's unfinished uploads, newest first. Callers: contributor-bulk-upload READ. */
export const findOpenImports = (ctx: RequestContext) => findOpenBatches(ctx, kind);

/** Status and progress of an upload (its uploader only). Callers: contributor-bulk-upload READ. */
export const getImport = (ctx: RequestContext, input: { id: string }) => getBatch(ctx, kind, input.id);

/** One page of the valid rows or the exceptions of an upload. Callers: contributor-bulk-upload READ. */
export async function findImportRows(
  ctx: RequestContext,
  input: { id: string; query: { kind: 'valid' | 'error'; page: number; pageSize: number } },
): Promise<{ items: ImportRow[]; total: number }> {
  const { items, total } = await findBatchRows(ctx, kind, input.id, input.query);
  return {
    items: items.map((r) => {
      const d = r.values as Record<string, string | null | undefined>;
      const text = (v: unknown) => (v == null ? null : String(v));
      return {
        rowNumber: r.rowNumber,
        cui: r.key ?? '',
        name: contributorFullName({
          firstName: text(d.firstName) ?? '',
          secondName: text(d.secondName),
          thirdName: text(d.thirdName),
          firstSurname: text(d.firstSurname) ?? '',
          secondSurname: text(d.secondSurname),
          marriedSurname: text(d.marriedSurname),
        }),
        errors: r.errors,
        warnings: r.warnings,
      };
    }),
    total,
  };
}

/** The exceptions file's columns and chunks (its uploader only). Callers: contributor-bulk-upload READ. */
export const importExceptions = (ctx: RequestContext, input: { id: string }) => exceptionsExport(ctx, kind, input.id);

/**
 * Queues the commit of a validated upload as a job (answers CONFIRMANDO at once): the job writes every
 * contributor, its CUI approval request and its audit row in ONE transaction, or nothing. Refusals known
 * now are a 409. Callers: contributor-bulk-upload CREATE (the uploader).
 */
export const commitImport = (ctx: RequestContext, input: { id: string }) => commitBatch(ctx, kind, input.id);

/** Discards a validated or failed upload. Callers: contributor-bulk-upload CREATE (the uploader). */
export const discardImport = (ctx: RequestContext, input: { id: string }) => discardBatch(ctx, kind, input.id);

/** Values allowed in the catalogue columns, for the template's instructions sheet. */
export async function templateCatalogues(ctx: RequestContext) {
  const { db } = ctx;
  const [types, lines] = await Promise.all([
    db
      .select({ code: contributorTypes.code, name: contributorTypes.name })
      .from(contributorTypes)
      .where(eq(contributorTypes.isActive, true))
      .orderBy(contributorTypes.sortOrder),
    db
      .select({ code: budgetLines.code, name: budgetLines.name })
      .from(budgetLines)
      .where(eq(budgetLines.isActive, true))
      .orderBy(budgetLines.code),
  ]);
  return { types, lines };
}
