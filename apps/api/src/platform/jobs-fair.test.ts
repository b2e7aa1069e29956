import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, users } from '../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../test/harness.ts';
import { createContext, type RequestContext, systemContext } from './context.ts';
import { defineJob, enqueueJob, JobWorker, requestCancel } from './jobs.ts';
import { loadCurrentUser } from './session.ts';

/**
 * A fair share of the job queue (issue 25): one user queued 60 exports and another user's small export
 * waited 94 s behind them. A user may have at most JOBS_PER_USER jobs queued or running (a count in the
 * database, so across processes), and workers take owners in turn.
 */
const QUOTA = 8;
let t: TestApp;
const started: number[] = [];

const fairJob = defineJob<{ ms: number }>({
  kind: 'test.fair',
  async run(job) {
    started.push(job.jobId);
    await new Promise((r) => setTimeout(r, job.payload.ms));
    return null;
  },
});

async function contextOf(u: TestUser): Promise<RequestContext> {
  const [row] = await t.database.db.select().from(users).where(eq(users.id, u.id));
  const user = await loadCurrentUser(t.database.db, row);
  return createContext({ db: t.database.db, user, actor: { id: row.id, email: row.email }, scope: 'ALL' });
}

let ana: TestUser;
let beto: TestUser;
beforeAll(async () => {
  t = await createTestApp({ JOBS_PER_USER: String(QUOTA) });
  ana = await t.createUser({ system: true });
  beto = await t.createUser({ system: true });
});
afterAll(() => t.close());

describe('job quota per user', () => {
  it(`refuses the job beyond ${QUOTA} queued or running, in Spanish, through the API too; others and the system go on`, async () => {
    const a = await contextOf(ana);
    const ids: number[] = [];
    for (let i = 0; i < QUOTA; i++) ids.push((await enqueueJob(a, fairJob, { ms: 1 })).id);
    await expect(enqueueJob(a, fairJob, { ms: 1 })).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      message: `Tiene ${QUOTA} procesos en espera o en curso, el máximo por usuario. Espere a que terminen o cancele alguno en «Procesos» e intente de nuevo.`,
    });
    // A route that queues work answers 429 with the same message, and queues nothing.
    const before = await t.database.db.select({ id: jobs.id }).from(jobs);
    const res = await t.request({ method: 'POST', url: '/api/contributors/export-jobs?format=csv', token: ana.token });
    expect(res.statusCode).toBe(429);
    expect(res.json().error.message).toMatch(/^Tiene 8 procesos en espera o en curso/);
    expect(await t.database.db.select({ id: jobs.id }).from(jobs)).toHaveLength(before.length);
    // In a transaction of the caller: the whole transaction is refused.
    await expect(
      t.database.db.transaction((tx) => enqueueJob(a, fairJob, { ms: 1 }, { tx: tx as unknown as typeof t.database.db })),
    ).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    // Another user and the system's own runs are not counted against her.
    const b = (await enqueueJob(await contextOf(beto), fairJob, { ms: 1 })).id;
    const s = (await enqueueJob(systemContext(t.database.db), fairJob, { ms: 1 })).id;
    // A cancelled job no longer counts.
    await requestCancel(t.database.db, ids[0]);
    const again = (await enqueueJob(a, fairJob, { ms: 1 })).id;
    // Clean up for the next test: nothing of this one stays queued.
    for (const id of [...ids, b, s, again]) await requestCancel(t.database.db, id);
  });

  it('counts under a lock: a burst of enqueues at once never passes the quota', async () => {
    const b = await contextOf(beto);
    const tries = await Promise.allSettled(Array.from({ length: QUOTA + 6 }, () => enqueueJob(b, fairJob, { ms: 1 })));
    expect(tries.filter((r) => r.status === 'fulfilled')).toHaveLength(QUOTA);
    expect(
      tries.filter((r) => r.status === 'rejected').every((r) => (r.reason as { code: string }).code === 'RATE_LIMITED'),
    ).toBe(true);
    const queued = await t.database.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(inArray(jobs.state, ['QUEUED', 'RUNNING']));
    for (const { id } of queued) await requestCancel(t.database.db, id);
  });
});

describe('fair claiming', () => {
  it("starts another user's job (and the system's) before the first user's backlog is done", async () => {
    const a = await contextOf(ana);
    const backlog: number[] = [];
    for (let i = 0; i < QUOTA; i++) backlog.push((await enqueueJob(a, fairJob, { ms: 30 })).id);
    const small = (await enqueueJob(await contextOf(beto), fairJob, { ms: 1 })).id;
    const daily = (await enqueueJob(systemContext(t.database.db), fairJob, { ms: 1 })).id;
    started.length = 0;
    const worker = new JobWorker({ db: t.database.db, files: t.app.files, concurrency: 1, pollMs: 20, leaseMs: 5000 });
    await worker.start();
    try {
      const end = Date.now() + 20_000;
      while (started.length < QUOTA + 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await worker.stop();
    }
    expect(started).toHaveLength(QUOTA + 2);
    // One worker, owners in turn: Ana's oldest, then Beto's and the system's, then the rest of Ana's.
    expect(started.slice(0, 3)).toEqual([backlog[0], small, daily]);
    expect(started.slice(3)).toEqual(backlog.slice(1));
  });
});
