import { defineJob } from '../platform/jobs.ts';

/**
 * The job of the two-process test (platform/multi-process.test.ts): records each run in the audit log
 * (so the test counts runs per job) and answers which process ran it.
 */
export const multiProcessJob = defineJob<{ sleepMs: number }, { pid: number }>({
  kind: 'test.multi-process',
  async run(job) {
    await job.progress({ done: 0, total: 1, phase: 'Trabajando' });
    await job.ctx.audit({ action: 'RUN', entityType: 'test-job', entityId: job.jobId, after: { pid: process.pid } });
    await new Promise((r) => setTimeout(r, job.payload.sleepMs));
    await job.progress({ done: 1, total: 1, phase: 'Trabajando' });
    return { pid: process.pid };
  },
});
