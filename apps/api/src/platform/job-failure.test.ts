import { AppError } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, users } from '../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../test/harness.ts';
import { createContext, type RequestContext } from './context.ts';
import { defineJob, type EndedJob, enqueueJob, JobWorker, jobMessages, recoverJobs, requestCancel } from './jobs.ts';
import { loadCurrentUser } from './session.ts';

/**
 * The failure hook of the job platform (issue 25, item 6): a job that will not run again — failed after
 * its last attempt by an error, by an AppError, by a lease that ran out, or cancelled (queued or running) —
 * runs its kind's `onFailedForGood` once, in the transaction that records the end; a hook that throws does
 * not keep the job from ending; a job that succeeds never runs it; `recoverJobs` runs every kind's `recover`.
 */

let t: TestApp;
let user: TestUser;
let ctx: RequestContext;
const ended = new Map<number, EndedJob<{ mode: string }>[]>();
let recovered = 0;

const hooked = defineJob<{ mode: 'crash' | 'refuse' | 'ok' | 'wait' | 'hook-throws' }>({
  kind: 'test.failure-hook',
  maxAttempts: 3,
  async run(job) {
    if (job.payload.mode === 'crash' || job.payload.mode === 'hook-throws') throw new Error('boom');
    if (job.payload.mode === 'refuse') throw new AppError('CONFLICT', 'Rechazado por la prueba.');
    if (job.payload.mode === 'wait')
      for (;;) {
        await job.progress({ done: 0, total: null, phase: 'Esperando' });
        await new Promise((r) => setTimeout(r, 10));
      }
    return { ok: true };
  },
  async onFailedForGood(db, job) {
    // Proves it runs in the transaction that ended the job: the row already shows the end.
    const [row] = await db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(row.state).toBe(job.state);
    ended.set(job.id, [...(ended.get(job.id) ?? []), job]);
    if (job.payload.mode === 'hook-throws') throw new Error('hook failed');
  },
  async recover() {
    recovered += 1;
    return 7;
  },
});

beforeAll(async () => {
  t = await createTestApp();
  user = await t.createUser({ system: true });
  const db = t.database.db;
  const [row] = await db.select().from(users).where(eq(users.id, user.id));
  const u = await loadCurrentUser(db, row);
  ctx = createContext({ db, user: u, actor: { id: u.id, email: u.email }, scope: 'ALL' });
  // The machine may be busy: opening a cloned database can take longer than the default hook timeout.
}, 180_000);
afterAll(() => t.close());

async function runToEnd(mode: 'crash' | 'refuse' | 'ok' | 'hook-throws') {
  const { id } = await enqueueJob(ctx, hooked, { mode });
  const worker = new JobWorker({ db: t.database.db, files: t.app.files, concurrency: 1, pollMs: 10, retryDelayMs: 5 });
  await worker.start();
  for (let i = 0; ; i++) {
    const [row] = await t.database.db.select().from(jobs).where(eq(jobs.id, id));
    if (['DONE', 'FAILED', 'CANCELLED'].includes(row.state)) {
      await worker.stop();
      return row;
    }
    expect(i).toBeLessThan(2000);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('onFailedForGood', () => {
  it('runs once after the last attempt of an unexpected error, with the job’s reason', async () => {
    const row = await runToEnd('crash');
    expect(row).toMatchObject({ state: 'FAILED', attempts: 3 });
    expect(ended.get(row.id)).toEqual([
      expect.objectContaining({ state: 'FAILED', error: jobMessages.unexpected, payload: { mode: 'crash' }, userId: user.id }),
    ]);
  });

  it('runs on a refusal (AppError, no retry) with its message, and never for a job that succeeds', async () => {
    const refused = await runToEnd('refuse');
    expect(ended.get(refused.id)).toEqual([expect.objectContaining({ state: 'FAILED', error: 'Rechazado por la prueba.' })]);
    const ok = await runToEnd('ok');
    expect(ok.state).toBe('DONE');
    expect(ended.get(ok.id)).toBeUndefined();
  });

  it('runs when a job is cancelled while queued, and when a running one stops on its cancel', async () => {
    const queued = await enqueueJob(ctx, hooked, { mode: 'ok' });
    const row = await requestCancel(t.database.db, queued.id);
    expect(row?.state).toBe('CANCELLED');
    expect(ended.get(queued.id)).toEqual([expect.objectContaining({ state: 'CANCELLED', error: null })]);

    const running = await enqueueJob(ctx, hooked, { mode: 'wait' });
    const worker = new JobWorker({ db: t.database.db, files: t.app.files, concurrency: 1, pollMs: 10 });
    await worker.start();
    for (let i = 0; (await t.database.db.select().from(jobs).where(eq(jobs.id, running.id)))[0].state !== 'RUNNING'; i++) {
      expect(i).toBeLessThan(2000);
      await new Promise((r) => setTimeout(r, 10));
    }
    await requestCancel(t.database.db, running.id);
    for (let i = 0; (await t.database.db.select().from(jobs).where(eq(jobs.id, running.id)))[0].state !== 'CANCELLED'; i++) {
      expect(i).toBeLessThan(2000);
      await new Promise((r) => setTimeout(r, 10));
    }
    await worker.stop();
    expect(ended.get(running.id)).toEqual([expect.objectContaining({ state: 'CANCELLED' })]);
  });

  it('runs when the reaper fails a job whose lease ran out on its last attempt (crashed processes)', async () => {
    const { id } = await enqueueJob(ctx, hooked, { mode: 'ok' });
    await t.database.db
      .update(jobs)
      .set({ state: 'RUNNING', attempts: 3, leaseOwner: 'gone', leaseExpiresAt: new Date(Date.now() - 60_000) })
      .where(eq(jobs.id, id));
    await new JobWorker({ db: t.database.db, files: t.app.files, concurrency: 1 }).reap(false);
    expect(ended.get(id)).toEqual([expect.objectContaining({ state: 'FAILED', error: jobMessages.interrupted })]);
  });

  it('a hook that throws is rolled back and logged: the job still ends FAILED', async () => {
    const row = await runToEnd('hook-throws');
    expect(row.state).toBe('FAILED');
    expect(ended.get(row.id)?.length).toBe(1);
  });
});

describe('recoverJobs', () => {
  it('runs every kind’s recover once and reports what each settled', async () => {
    const before = recovered;
    const settled = await recoverJobs(t.database.db);
    expect(recovered).toBe(before + 1);
    expect(settled['test.failure-hook']).toBe(7);
  });
});
