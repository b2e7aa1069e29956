import { randomBytes } from 'node:crypto';
import { AppError, type ContributorListQuery, type ExportFormat, formatCui } from '@aporta/domain';
import { storedFiles } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { type ExportColumn, exportContentType, writeExportFile } from '../../platform/export.ts';
import { defineJob, enqueueJob } from '../../platform/jobs.ts';
import { type ContributorView, countContributors, exportContributorBatches } from './queries.ts';

/** The columns of the contributors export, direct (GET /export) or in the background (the job). */
export const contributorExportColumns: ExportColumn<ContributorView>[] = [
  { header: 'CUI', value: (c) => formatCui(c.cui), width: 18 },
  { header: 'NIT', value: (c) => c.nit },
  { header: 'Nombre completo', value: (c) => c.fullName, width: 36 },
  { header: 'Fecha de nacimiento', value: (c) => c.birthDate },
  { header: 'Sexo', value: (c) => c.sex },
  { header: 'Tipo', value: (c) => c.typeName },
  { header: 'Estado', value: (c) => c.state },
  { header: 'Estado del CUI', value: (c) => c.cuiState },
  { header: 'Entidad', value: (c) => c.entityName, width: 30 },
  { header: 'Municipio', value: (c) => c.municipalityName },
  { header: 'Departamento', value: (c) => c.departmentName },
  { header: 'Renglón', value: (c) => c.budgetLineCode },
  { header: 'Fecha de ingreso', value: (c) => c.hireDate },
  { header: 'Salario', value: (c) => c.salary ?? null, money: true },
];

/** Export files are temporary: kept this long, then removed from storage. */
export const EXPORT_FILE_DAYS = 7;

export interface ContributorExportPayload {
  format: ExportFormat;
  query: Partial<Omit<ContributorListQuery, 'page' | 'pageSize'>>;
}

/**
 * The contributors list export as a background job: up to a million rows written in keyset chunks to
 * the file store, with progress after every chunk (where a cancel is seen), then downloaded from the
 * job. The scope is the starter's current `contributor-list` EXPORT scope.
 */
export const contributorExportJob = defineJob<ContributorExportPayload, { fileId: number; rows: number; filename: string }>({
  kind: 'contributors.export',
  title: 'Exportación de afiliados',
  permission: { resource: 'contributor-list', action: 'EXPORT' },
  // A retry starts the file again; a failure that repeats is not worth more runs.
  maxAttempts: 2,
  async run(job) {
    const { ctx, payload } = job;
    await job.progress({ done: 0, total: null, phase: 'Contando afiliados' });
    const total = await countContributors(ctx, payload.query);
    await job.progress({ done: 0, total, phase: 'Exportando afiliados' });
    const now = new Date();
    const stamp = now.toISOString().slice(0, 10);
    const key = `exports/${stamp.slice(0, 7)}/${job.jobId}-${randomBytes(6).toString('hex')}.${payload.format}`;
    const { size, rows } = await writeExportFile(job.files, key, {
      format: payload.format,
      sheetName: 'Afiliados',
      columns: contributorExportColumns,
      batches: exportContributorBatches(ctx, payload.query),
      onBatch: (done) => job.progress({ done, total: Math.max(total, done), phase: 'Exportando afiliados' }),
    });
    await job.progress({ done: rows, total: Math.max(total, rows), phase: 'Guardando el archivo' });
    const filename = `afiliados-${stamp}.${payload.format}`;
    const [file] = await ctx.db
      .insert(storedFiles)
      .values({
        key,
        filename,
        contentType: exportContentType(payload.format),
        size,
        userId: ctx.user.id,
        expiresAt: new Date(now.getTime() + EXPORT_FILE_DAYS * 86_400_000),
      })
      .returning({ id: storedFiles.id });
    return { fileId: file.id, rows, filename };
  },
});

/**
 * Starts the background export with the list's filters. A bad sort is refused here, before any job
 * exists. Callers: POST /api/contributors/export-jobs (contributor-list EXPORT, with its scope).
 */
export async function startContributorExport(ctx: RequestContext, input: ContributorExportPayload): Promise<{ jobId: number }> {
  if (!ctx.scope) throw new AppError('FORBIDDEN');
  // Builds the keyset (and so checks the sort) without reading a row.
  exportContributorBatches(ctx, input.query);
  const { id } = await enqueueJob(ctx, contributorExportJob, input);
  return { jobId: id };
}
