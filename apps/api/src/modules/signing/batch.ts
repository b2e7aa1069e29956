import { AppError, type BatchSeal, msg } from '@aporta/domain';
import { and, asc, count, eq, gt, inArray } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import { documents, documentVersions } from '../../db/schema/index.ts';
import { getBlob, putBlob } from '../../platform/blobs.ts';
import { type RequestContext, withPermission } from '../../platform/context.ts';
import { defineJob, enqueueJob } from '../../platform/jobs.ts';
import { signPdf } from '../../platform/pades.ts';
import { appendVersion } from '../documents/filing.ts';
import { currentVersion, documentWhere } from '../documents/library.ts';
import { sealName, sealSigner } from './authority.ts';
import { appearanceMaker, timestampUrlOf } from './settings.ts';

/**
 * Batch sealing (firmaAutomatica): the documents a filter picks are sealed with the institution's seal
 * as a job, one document per short transaction, each sealed copy a new version of its document. Memory
 * stays bounded: one PDF at a time, ids read in keyset pages. A document that fails is reported with
 * its reason and the batch goes on.
 */

let configRef: Config | null = null;
/** The job runs outside a request: the routes plugin hands it the configuration once. */
export const setBatchConfig = (c: Config) => {
  configRef = c;
};

export interface BatchPayload {
  filter: BatchSeal;
}

export interface BatchResult {
  sealed: number;
  failed: { id: number; title: string; reason: string }[];
}

const PAGE = 200;

async function* pickIds(ctx: RequestContext, filter: BatchSeal) {
  let last = 0;
  for (;;) {
    const where = and(
      documentWhere(ctx, { folderId: filter.folderId, docType: filter.docType, q: filter.q }),
      filter.documentIds ? inArray(documents.id, filter.documentIds) : undefined,
      gt(documents.id, last),
    );
    const rows = await ctx.db
      .select({ id: documents.id })
      .from(documents)
      .innerJoin(documentVersions, currentVersion())
      .where(and(where, eq(documentVersions.contentType, 'application/pdf')))
      .orderBy(asc(documents.id))
      .limit(PAGE);
    if (!rows.length) return;
    yield rows.map((r) => r.id);
    last = rows[rows.length - 1].id;
  }
}

export async function countBatch(ctx: RequestContext, filter: BatchSeal): Promise<number> {
  const [{ n }] = await ctx.db
    .select({ n: count() })
    .from(documents)
    .innerJoin(documentVersions, currentVersion())
    .where(
      and(
        documentWhere(ctx, { folderId: filter.folderId, docType: filter.docType, q: filter.q }),
        filter.documentIds ? inArray(documents.id, filter.documentIds) : undefined,
        eq(documentVersions.contentType, 'application/pdf'),
      ),
    );
  return n;
}

export const batchSealJob = defineJob<BatchPayload, BatchResult>({
  kind: 'signing.batch-seal',
  title: 'Sellado de documentos en lote',
  permission: { resource: 'auto-signature', action: 'SIGN' },
  maxAttempts: 2,
  async run({ ctx, payload, progress, files, jobId }) {
    if (!configRef) throw new Error('batch sealing is not configured');
    // The sealed version names its job: a retry after a crash (or a lost lease) skips what this job already
    // sealed instead of sealing it a second time.
    const note = `Sellado en lote (proceso ${jobId})`;
    const config = configRef;
    // The documents reached are those of the caller's `documents` grant.
    const docs = withPermission(ctx, 'documents', 'READ');
    const total = await countBatch(docs, payload.filter);
    const signer = await sealSigner(ctx.db, config);
    const timestampUrl = await timestampUrlOf(ctx.db);
    const appearance = await appearanceMaker(ctx.db, files);
    const seal = { name: await sealName(ctx.db, config), seal: true };
    const result: BatchResult = { sealed: 0, failed: [] };
    let done = 0;
    await progress({ done, total, phase: 'Sellando documentos' });
    for await (const ids of pickIds(docs, payload.filter)) {
      for (const id of ids) {
        const [row] = await ctx.db
          .select({ d: documents, v: documentVersions })
          .from(documents)
          .innerJoin(documentVersions, currentVersion())
          .where(eq(documents.id, id));
        try {
          if (!row) throw new AppError('NOT_FOUND', msg('signing.batchDocumentGone'));
          if (row.v.note === note) {
            result.sealed += 1;
            done += 1;
            continue;
          }
          const bytes = await getBlob(files, row.v.sha256);
          const sealed = await signPdf(new Uint8Array(bytes), signer, {
            reason: 'Sello institucional',
            location: 'Guatemala',
            timestampUrl,
            appearance: appearance(seal),
          });
          const sha256 = await putBlob(ctx.db, files, sealed, 'application/pdf');
          await ctx.db.transaction(async (tx) => {
            await appendVersion(
              tx,
              { id, currentVersion: row.d.currentVersion },
              {
                sha256,
                filename: row.v.filename,
                contentType: 'application/pdf',
                size: sealed.length,
                pages: row.v.pages,
                note,
                createdBy: ctx.user.id,
              },
              msg('signing.batchDocumentChanged'),
            );
            await ctx.audit(
              {
                action: 'SIGN',
                entityType: 'document',
                entityId: id,
                before: { sha256: row.v.sha256 },
                after: { sha256 },
                scopeEntityId: row.d.entityId,
              },
              tx,
            );
          });
          result.sealed += 1;
        } catch (err) {
          const reason =
            err instanceof AppError
              ? err.message
              : /pdf|parse|xref|trailer/i.test(String((err as Error)?.message))
                ? 'El PDF está dañado o no se puede leer.'
                : 'Error inesperado al sellar.';
          result.failed.push({ id, title: row?.d.title ?? `#${id}`, reason });
        }
        done += 1;
        if (done % 10 === 0 || done === total) await progress({ done, total, phase: 'Sellando documentos' });
      }
    }
    await progress({ done, total, phase: result.failed.length ? `Terminado: ${result.failed.length} con error` : 'Terminado' });
    return result;
  },
});

export async function startBatchSeal(ctx: RequestContext, filter: BatchSeal) {
  const total = await countBatch(withPermission(ctx, 'documents', 'READ'), filter);
  if (total === 0) throw new AppError('VALIDATION', msg('signing.batchNoMatch'));
  const { id } = await enqueueJob(ctx, batchSealJob, { filter });
  return { jobId: id, total };
}
