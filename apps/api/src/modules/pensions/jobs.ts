import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { AppError, msg } from '@aporta/domain';
import { storedFiles } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { defineJob, enqueueJob, scheduleDaily } from '../../platform/jobs.ts';
import { generateReportPdf, verificationPagePath } from '../../platform/pdf.ts';
import { fileDocument } from '../documents/filing.ts';
import type { RenapAdapter } from '../renap/adapter.ts';
import { assertSettingsCover } from '../settings/history.ts';
import { renapSweep } from './deaths.ts';
import { today } from './service.ts';
import { lettersReport, pensionsToWrite } from './survival-letters.ts';
import { suspendOverdue } from './survival-suspension.ts';

/**
 * Set by the routes plugin: the RENAP adapter, the installation's name and its public origin (PUBLIC_URL,
 * where the letters' QR opens the verification page), which jobs cannot read from a request.
 */
export const jobEnv: {
  adapter: ((ctx: RequestContext) => RenapAdapter) | null;
  appTitle: string;
  publicOrigin: string | null;
} = {
  adapter: null,
  appTitle: 'Aporta',
  publicOrigin: null,
};

/**
 * The daily suspension: every active pension whose check is overdue beyond grace on `asOf` is
 * suspended. `asOf` defaults to today; an administrator (supervivencia APPROVE) may give another day
 * to rerun a missed day — the e2e journey uses it to move the clock. Idempotent.
 */
export const survivalSuspensionJob = defineJob<{ asOf?: string }, { asOf: string; suspended: number }>({
  kind: 'pensions.survival-suspension',
  title: 'Suspensión por supervivencia vencida',
  permission: { resource: 'supervivencia', action: 'APPROVE' },
  maxAttempts: 2,
  async run(job) {
    const asOf = job.payload.asOf ?? today();
    await job.progress({ done: 0, total: null, phase: `Buscando supervivencias vencidas al ${asOf}` });
    const r = await suspendOverdue(job.ctx, asOf);
    await job.progress({ done: r.suspended, total: r.suspended, phase: `${r.suspended} pensiones suspendidas` });
    return { asOf, suspended: r.suspended };
  },
});

/** The periodic RENAP check of every open pension, with progress. */
export const renapCheckJob = defineJob<Record<string, never>, { checked: number; deaths: number; reviewsOpened: number }>({
  kind: 'pensions.renap-check',
  title: 'Verificación de pensionados en RENAP',
  permission: { resource: 'supervivencia', action: 'APPROVE' },
  maxAttempts: 2,
  async run(job) {
    if (!jobEnv.adapter) throw new AppError('SERVICE_UNAVAILABLE', msg('pensions.renapNotConfigured'));
    return renapSweep(job.ctx, jobEnv.adapter(job.ctx), (done, total) =>
      job.progress({ done, total, phase: 'Consultando RENAP' }),
    );
  },
});

/** The letters to every pensioner due in the month of `asOf`, one PDF (a page each), downloaded from the job. */
export const survivalLettersJob = defineJob<
  { asOf: string; entityId?: number },
  { fileId: number; rows: number; filename: string; documentId: number | null }
>({
  kind: 'pensions.survival-letters',
  title: 'Avisos de supervivencia',
  permission: { resource: 'supervivencia', action: 'EXPORT' },
  maxAttempts: 2,
  async run(job) {
    const { ctx, payload } = job;
    await job.progress({ done: 0, total: null, phase: 'Buscando pensionados' });
    const rows = await pensionsToWrite(ctx, payload);
    if (!rows.length) throw new AppError('CONFLICT', msg('pensions.noLettersThisMonth'));
    await job.progress({ done: 0, total: rows.length, phase: 'Preparando las cartas' });
    const origin = jobEnv.publicOrigin;
    const { pdf } = await generateReportPdf(ctx, await lettersReport(ctx.db, rows, payload.asOf), {
      fallbackInstitution: jobEnv.appTitle,
      // Without a request there is no origin: the QR is printed when the installation names its PUBLIC_URL.
      verifyUrl: origin ? (code) => `${origin}${verificationPagePath(code)}` : undefined,
    });
    const key = `exports/${payload.asOf.slice(0, 7)}/${job.jobId}-${randomBytes(6).toString('hex')}.pdf`;
    const { size } = await job.files.put(key, Readable.from(pdf), { contentType: 'application/pdf' });
    const filename = `avisos-supervivencia-${payload.asOf.slice(0, 7)}.pdf`;
    const [file] = await ctx.db
      .insert(storedFiles)
      .values({
        key,
        filename,
        contentType: 'application/pdf',
        size,
        userId: ctx.user.id,
        expiresAt: new Date(Date.now() + 7 * 86_400_000),
      })
      .returning({ id: storedFiles.id });
    // A copy goes to Documentos (the entity's folder when the letters are for one entity).
    const filed = await fileDocument(ctx, job.files, {
      folder: ['Avisos de supervivencia'],
      entityId: payload.entityId ?? null,
      title: `Avisos de supervivencia ${payload.asOf.slice(0, 7)}`,
      docType: 'OFICIO',
      sourceType: 'survival_letters',
      sourceId: file.id,
      file: { bytes: new Uint8Array(pdf), filename },
    }).catch(() => null);
    await job.progress({
      done: rows.length,
      total: rows.length,
      phase: filed ? 'Listo' : 'Listo (no se pudo archivar una copia en Documentos)',
    });
    return { fileId: file.id, rows: rows.length, filename, documentId: filed?.id ?? null };
  },
});

/**
 * The routes' schemas refuse a day after today (suspension) or a month beyond the letters' reach; a day
 * before the settings' history is refused here, where the history is read.
 */
export async function startSuspension(ctx: RequestContext, asOf?: string) {
  if (asOf) await assertSettingsCover(ctx.db, asOf, { path: 'asOf', label: 'La fecha de corte' });
  return { jobId: (await enqueueJob(ctx, survivalSuspensionJob, { asOf })).id };
}
export async function startRenapCheck(ctx: RequestContext) {
  return { jobId: (await enqueueJob(ctx, renapCheckJob, {})).id };
}
export async function startLetters(ctx: RequestContext, input: { asOf?: string; entityId?: number }) {
  if (input.asOf) await assertSettingsCover(ctx.db, input.asOf, { path: 'asOf', label: 'El mes de las cartas' });
  return { jobId: (await enqueueJob(ctx, survivalLettersJob, { asOf: input.asOf ?? today(), entityId: input.entityId })).id };
}

// The daily work nobody has to start (platform/jobs.ts scheduleDaily: once a day, once across processes,
// as the system, each day's run a job listed in Procesos with its progress): the suspension of checks
// overdue beyond grace, then the RENAP check of every pensioner.
scheduleDaily({
  key: 'pensions.survival-suspension',
  title: 'Suspensión diaria por supervivencia vencida',
  at: '01:00',
  permission: { resource: 'supervivencia', action: 'APPROVE' },
  async run(ctx, day, progress) {
    await progress({ done: 0, total: null, phase: `Buscando supervivencias vencidas al ${day}` });
    const r = await suspendOverdue(ctx, day);
    await progress({ done: r.suspended, total: r.suspended, phase: `${r.suspended} pensiones suspendidas` });
    return r;
  },
});
scheduleDaily({
  key: 'pensions.renap-check',
  title: 'Verificación diaria de pensionados en RENAP',
  at: '02:00',
  permission: { resource: 'supervivencia', action: 'APPROVE' },
  run: async (ctx, _day, progress) => {
    if (!jobEnv.adapter) throw new AppError('SERVICE_UNAVAILABLE', msg('pensions.renapNotConfigured'));
    return renapSweep(ctx, jobEnv.adapter(ctx), (done, total) => progress({ done, total, phase: 'Consultando RENAP' }));
  },
});
