import { guatemalaToday } from '@aporta/domain';
import type { RequestContext } from '../../platform/context.ts';
import { defineJob, enqueueJob, scheduleDaily } from '../../platform/jobs.ts';
import { assertSettingsCover } from '../settings/history.ts';
import { detectAgreements } from './detection.ts';

/**
 * Default and completion of agreements as of a day (today by default). An administrator (convenios
 * APPROVE) may give another day to rerun a missed one — the e2e journey moves the clock with it.
 * Idempotent; acts only on agreements in the starter's scope.
 */
export const agreementDetectionJob = defineJob<{ asOf?: string }, { asOf: string; defaulted: number; completed: number }>({
  kind: 'agreements.detection',
  title: 'Incumplimiento y cumplimiento de convenios',
  permission: { resource: 'payment-agreements', action: 'APPROVE' },
  maxAttempts: 2,
  async run(job) {
    const asOf = job.payload.asOf ?? guatemalaToday();
    await job.progress({ done: 0, total: null, phase: `Revisando convenios al ${asOf}` });
    const r = await detectAgreements(job.ctx, asOf, (done, total) =>
      job.progress({ done, total, phase: 'Actualizando convenios' }),
    );
    await job.progress({
      done: r.defaulted + r.completed,
      total: r.defaulted + r.completed,
      phase: `${r.defaulted} incumplidos, ${r.completed} cumplidos`,
    });
    return r;
  },
});

/** The route's schema refuses a day after today; a day before the settings' history is refused here. */
export async function startDetection(ctx: RequestContext, asOf?: string) {
  if (asOf) await assertSettingsCover(ctx.db, asOf, { path: 'asOf', label: 'La fecha de revisión' });
  return { jobId: (await enqueueJob(ctx, agreementDetectionJob, { asOf })).id };
}

// Every day, as the system: agreements in default or completed are detected and their people notified.
scheduleDaily({
  key: 'agreements.detection',
  title: 'Detección diaria de convenios incumplidos y cumplidos',
  at: '01:30',
  permission: { resource: 'payment-agreements', action: 'APPROVE' },
  async run(ctx, day, progress) {
    await progress({ done: 0, total: null, phase: `Revisando convenios al ${day}` });
    return detectAgreements(ctx, day, (done, total) => progress({ done, total, phase: 'Actualizando convenios' }));
  },
});
