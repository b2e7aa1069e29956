/**
 * A job finished, told to its starter (issue 29): the bell and a mail with the link to Procesos, where its result
 * is read and its file downloaded. Only for work that took a while — queued at least `JOB_MAIL_AFTER_SECONDS`
 * before it ended — so an export the user waits for on screen sends nothing; a job the user cancelled, or one
 * of the system (the daily sweeps, no starter), sends nothing either.
 */
import type { Db } from '../../db/client.ts';
import { type JobRow, jobTitle, onJobEnded } from '../../platform/jobs.ts';
import { notifyUsers } from '../notifications/service.ts';

export const JOB_MAIL_AFTER_SECONDS = 60;

/** The end of `job` as its starter hears of it (in the transaction that records the end). */
export async function notifyJobEnded(db: Db, job: JobRow): Promise<void> {
  if (job.userId == null || (job.state !== 'DONE' && job.state !== 'FAILED')) return;
  const finishedAt = job.finishedAt ?? new Date();
  if (finishedAt.getTime() - job.createdAt.getTime() < JOB_MAIL_AFTER_SECONDS * 1000) return;
  const title = jobTitle(job.kind);
  const done = job.state === 'DONE';
  await notifyUsers({
    db,
    userIds: [job.userId],
    type: done ? 'success' : 'warning',
    title: (done ? `Proceso terminado: ${title}` : `Proceso fallido: ${title}`).slice(0, 200),
    body: (done ? 'Su resultado está en Procesos.' : (job.error ?? 'No se completó.')).slice(0, 500),
    link: '/procesos',
    mail: { event: 'job.finished', params: { job: title }, dedupeKey: `job.finished:${job.id}` },
  });
}

/** Registers the listener (idempotent). Called by the module's routes plugin. */
export function registerJobMail(): void {
  onJobEnded(notifyJobEnded);
}
