// Planillas from a spreadsheet: the upload, its rows and exceptions, committing or discarding it.
import { AppError, type ImportBatch, type ImportRow, msg, type PlanillaUpload, type PlanillaUploadParams } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import { planillas } from '../../db/schema/index.ts';
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
import { isEntityInScope } from '../../platform/scope.ts';
import { planillaImportKind as kind, type UploadParams } from './kind.ts';
import { assertCanDeclare, editableOrdinary } from './rules.ts';

/**
 * Reads an uploaded planilla file for an entity in scope and period; its rows are validated in the
 * background. When the entity has an editable ordinary planilla for the period, confirming the upload
 * replaces its lines. Refused before reading: a future period, an ordinary one already submitted or
 * approved, a complementary one without an approved ordinary. Callers: planilla-upload CREATE.
 */
export async function uploadPlanilla(
  ctx: RequestContext,
  input: { params: PlanillaUploadParams; fileName: string; path: string; id?: string },
): Promise<PlanillaUpload> {
  const { entityId, period, type } = input.params;
  if (!(await isEntityInScope(ctx, entityId))) throw new AppError('FORBIDDEN', msg('planillas.entityForbidden'));
  const target = type === 'ORDINARIA' ? await editableOrdinary(ctx.db, entityId, period) : null;
  if (!target) await assertCanDeclare(ctx.db, { entityId, period, type });
  const params: UploadParams = { period, type, planillaId: target };
  const batch = await stageUpload(ctx, kind, {
    id: input.id,
    fileName: input.fileName,
    path: input.path,
    scopeEntityId: entityId,
    params,
  });
  return { ...batch, planillaId: null };
}

/** The batch with the planilla its commit wrote (planillas.import_id names the batch once committed). */
async function withPlanilla(ctx: RequestContext, batch: ImportBatch): Promise<PlanillaUpload> {
  if (batch.status !== 'CONFIRMADO') return { ...batch, planillaId: null };
  const [p] = await ctx.db.select({ id: planillas.id }).from(planillas).where(eq(planillas.importId, batch.id));
  return { ...batch, planillaId: p?.id ?? null };
}

export const findOpenPlanillaUploads = async (ctx: RequestContext): Promise<PlanillaUpload[]> =>
  (await findOpenBatches(ctx, kind)).map((b) => ({ ...b, planillaId: null }));
export const getPlanillaUpload = async (ctx: RequestContext, input: { id: string }) =>
  withPlanilla(ctx, await getBatch(ctx, kind, input.id));
export const planillaUploadExceptions = (ctx: RequestContext, input: { id: string }) => exceptionsExport(ctx, kind, input.id);
export const discardPlanillaUpload = async (ctx: RequestContext, input: { id: string }) =>
  withPlanilla(ctx, await discardBatch(ctx, kind, input.id));

/**
 * Queues the commit of a validated upload as a job (answers CONFIRMANDO at once): the job writes the
 * planilla and every line (exceptions marked), or nothing. Once the batch is CONFIRMADO its GET names
 * the planilla.
 */
export const commitPlanillaUpload = async (ctx: RequestContext, input: { id: string }): Promise<PlanillaUpload> => ({
  ...(await commitBatch(ctx, kind, input.id)),
  planillaId: null,
});

export async function findPlanillaUploadRows(
  ctx: RequestContext,
  input: { id: string; query: { kind: 'valid' | 'error'; page: number; pageSize: number } },
): Promise<{ items: ImportRow[]; total: number }> {
  const { items, total } = await findBatchRows(ctx, kind, input.id, input.query);
  return {
    items: items.map((r) => {
      const v = r.values as Record<string, unknown>;
      return {
        rowNumber: r.rowNumber,
        cui: r.key ?? String(v.cui ?? ''),
        name: String(v.fullName ?? ''),
        errors: r.errors,
        warnings: r.warnings,
      };
    }),
    total,
  };
}
