import { AppError } from '@aporta/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, jobSchedules, jobs, roleGrants, userRoles, users } from '../db/schema/index.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { createContext, type RequestContext } from './context.ts';
import {
  defineJob,
  dueDay,
  enqueueJob,
  type JobRow,
  JobWorker,
  jobMessages,
  requestCancel,
  runDueSchedules,
  scheduleDaily,
} from './jobs.ts';
import { loadCurrentUser } from './session.ts';

let t: TestApp;
const runs = new Map<number, number>();
const gates = new Map<number, { release: () => void; promise: Promise<void> }>();

const gate = (id: number) => {
  let entry = gates.get(id);
  if (!entry) {
    let release = () => {};
    const promise = new Promise<void>((r) => {
      release = r;
    });
    entry = { release, promise };
    gates.set(id, entry);
  }
  return entry;
};

const countJob = defineJob<{ n: number }, { doubled: number }>({
  kind: 'test.count',
  async run(job) {
    runs.set(job.jobId, (runs.get(job.jobId) ?? 0) + 1);
    await job.progress({ done: 1, total: 2, phase: 'Contando' });
    await new Promise((r) => setTimeout(r, 5));
    await job.progress({ done: 2, total: 2, phase: 'Contando' });
    return { doubled: job.payload.n * 2 };
  },
});

/** Waits for its gate, reporting progress (and so seeing a cancel) while it waits. */
const slowJob = defineJob<Record<string, never>, { attempt: number }>({
  kind: 'test.slow',
  maxAttempts: 2,
  async run(job) {
    runs.set(job.jobId, (runs.get(job.jobId) ?? 0) + 1);
    const g = gate(job.jobId);
    let open = false;
    void g.promise.then(() => {
      open = true;
    });
    for (let i = 0; !open; i++) {
      if (job.signal.aborted && job.signal.reason === 'abandoned') throw new Error('abandoned');
      await job.progress({ done: i, total: null, phase: 'Esperando' });
      await new Promise((r) => setTimeout(r, 20));
    }
    return { attempt: job.attempt };
  },
});

const onceJob = defineJob<Record<string, never>>({
  kind: 'test.once',
  maxAttempts: 1,
  async run(job) {
    await job.progress({ done: 0, total: 1, phase: 'Trabajando' });
    await new Promise((r) => setTimeout(r, 10_000));
  },
});

const failingJob = defineJob<{ app: boolean }>({
  kind: 'test.failing',
  maxAttempts: 2,
  async run(job) {
    runs.set(job.jobId, (runs.get(job.jobId) ?? 0) + 1);
    if (job.payload.app) throw new AppError('VALIDATION', 'La fila 3 no tiene CUI.');
    throw new Error('disco lleno');
  },
});

const guardedJob = defineJob<Record<string, never>, { scope: string | null }>({
  kind: 'test.guarded',
  permission: { resource: 'contributor-list', action: 'EXPORT' },
  async run(job) {
    return { scope: job.ctx.scope };
  },
});

async function contextOf(userId: number): Promise<RequestContext> {
  const [u] = await t.database.db.select().from(users).where(eq(users.id, userId));
  const user = await loadCurrentUser(t.database.db, u);
  return createContext({ db: t.database.db, user, actor: { id: u.id, email: u.email }, scope: 'ALL' });
}

async function jobRow(id: number): Promise<JobRow> {
  const [row] = await t.database.db.select().from(jobs).where(eq(jobs.id, id));
  return row;
}

async function waitFor(id: number, pred: (r: JobRow) => boolean, timeoutMs = 15_000): Promise<JobRow> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const row = await jobRow(id);
    if (pred(row)) return row;
    if (Date.now() > end) throw new Error(`job ${id} stuck: ${JSON.stringify(row)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
const finished = (r: JobRow) => !['QUEUED', 'RUNNING'].includes(r.state);

let ctx: RequestContext;
const workers: JobWorker[] = [];
const worker = (opts: Partial<ConstructorParameters<typeof JobWorker>[0]> = {}) => {
  const w = new JobWorker({
    db: t.database.db,
    files: t.app.files,
    concurrency: 4,
    pollMs: 50,
    leaseMs: 2000,
    retryDelayMs: 50,
    ...opts,
  });
  workers.push(w);
  return w;
};

beforeAll(async () => {
  t = await createTestApp();
  const u = await t.createUser({ system: true });
  ctx = await contextOf(u.id);
});
afterAll(async () => {
  for (const w of workers) await w.stop();
  await t.close();
});

describe('job queue', () => {
  it('runs a job to DONE with its result and last progress, and audits the enqueue', async () => {
    const w = worker();
    await w.start();
    const { id } = await enqueueJob(ctx, countJob, { n: 21 });
    const row = await waitFor(id, finished);
    expect(row).toMatchObject({ state: 'DONE', result: { doubled: 42 }, done: 2, total: 2, attempts: 1, error: null });
    expect(row.startedAt).not.toBeNull();
    expect(row.finishedAt).not.toBeNull();
    expect(row.leaseOwner).toBeNull();
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'job'), eq(auditLog.entityId, String(id))));
    expect(audits).toMatchObject([{ action: 'CREATE', actorId: ctx.user.id, after: { kind: 'test.count' } }]);
    await w.stop();
  });

  it('two workers on one queue run each of many jobs exactly once', async () => {
    const a = worker({ concurrency: 3 });
    const b = worker({ concurrency: 3 });
    const ids: number[] = [];
    for (let i = 0; i < 40; i++) ids.push((await enqueueJob(ctx, countJob, { n: i })).id);
    await Promise.all([a.start(), b.start()]);
    for (const id of ids) await waitFor(id, finished);
    for (const id of ids) {
      expect(runs.get(id)).toBe(1);
      expect((await jobRow(id)).state).toBe('DONE');
    }
    await Promise.all([a.stop(), b.stop()]);
  });

  it('cancels a queued job at once and a running one at its next progress report', async () => {
    const queued = await enqueueJob(ctx, countJob, { n: 1 });
    const cancelled = await requestCancel(t.database.db, queued.id);
    expect(cancelled?.state).toBe('CANCELLED');

    const w = worker();
    await w.start();
    const { id } = await enqueueJob(ctx, slowJob, {});
    await waitFor(id, (r) => r.state === 'RUNNING' && r.phase === 'Esperando');
    await requestCancel(t.database.db, id);
    const row = await waitFor(id, finished);
    expect(row.state).toBe('CANCELLED');
    expect(runs.get(id)).toBe(1);
    // A finished job stays as it is.
    expect((await requestCancel(t.database.db, id))?.state).toBe('CANCELLED');
    await w.stop();
  });

  it('a crashed worker: the lease runs out, the job is retried and finishes (attempt 2)', async () => {
    const crashed = worker({ leaseMs: 300 });
    await crashed.start();
    const { id } = await enqueueJob(ctx, slowJob, {});
    await waitFor(id, (r) => r.state === 'RUNNING');
    await crashed.abandon();
    const survivor = worker({ leaseMs: 300 });
    await survivor.start();
    await waitFor(id, (r) => r.state === 'RUNNING' && r.attempts === 2);
    gate(id).release();
    const row = await waitFor(id, finished);
    expect(row).toMatchObject({ state: 'DONE', attempts: 2, result: { attempt: 2 } });
    await survivor.stop();
  });

  it('a crash with no attempt left fails the job with a Spanish message — never stuck RUNNING', async () => {
    const crashed = worker({ leaseMs: 300 });
    await crashed.start();
    const { id } = await enqueueJob(ctx, onceJob, {});
    await waitFor(id, (r) => r.state === 'RUNNING');
    await crashed.abandon();
    const survivor = worker({ leaseMs: 300 });
    await survivor.start();
    const row = await waitFor(id, finished);
    expect(row).toMatchObject({ state: 'FAILED', error: jobMessages.interrupted });
    await survivor.stop();
  });

  it('on start after a restart of the embedded database, jobs left RUNNING are taken back at once', async () => {
    const crashed = worker({ leaseMs: 60_000 });
    await crashed.start();
    const { id } = await enqueueJob(ctx, slowJob, {});
    await waitFor(id, (r) => r.state === 'RUNNING');
    await crashed.abandon();
    // The lease would last a minute; a restarted single process does not wait for it.
    const restarted = worker({ leaseMs: 60_000, reclaimAllOnStart: true });
    await restarted.start();
    await waitFor(id, (r) => r.state === 'RUNNING' && r.attempts === 2);
    gate(id).release();
    expect(await waitFor(id, finished)).toMatchObject({ state: 'DONE', attempts: 2 });
    await restarted.stop();
  });

  it('a clean shutdown gives the running job back without spending an attempt', async () => {
    const w = worker({ shutdownGraceMs: 2000 });
    await w.start();
    const { id } = await enqueueJob(ctx, slowJob, {});
    await waitFor(id, (r) => r.state === 'RUNNING' && r.phase === 'Esperando');
    await w.stop();
    const row = await jobRow(id);
    expect(row).toMatchObject({ state: 'QUEUED', attempts: 0, leaseOwner: null });
    const next = worker();
    await next.start();
    await waitFor(id, (r) => r.state === 'RUNNING');
    gate(id).release();
    expect(await waitFor(id, finished)).toMatchObject({ state: 'DONE', attempts: 1 });
    await next.stop();
  });

  it('an AppError fails at once with its message; an unexpected error is retried, then failed', async () => {
    const w = worker();
    await w.start();
    const bad = await enqueueJob(ctx, failingJob, { app: true });
    const unexpected = await enqueueJob(ctx, failingJob, { app: false });
    expect(await waitFor(bad.id, finished)).toMatchObject({ state: 'FAILED', error: 'La fila 3 no tiene CUI.', attempts: 1 });
    expect(await waitFor(unexpected.id, finished)).toMatchObject({ state: 'FAILED', error: jobMessages.unexpected, attempts: 2 });
    expect(runs.get(bad.id)).toBe(1);
    expect(runs.get(unexpected.id)).toBe(2);
    await w.stop();
  });

  it("runs with the starter's current permission; fails with «No autorizado» once it is lost", async () => {
    const u = await t.createUser({ grants: [{ resource: 'contributor-list', action: 'EXPORT', scope: 'REGION' }] });
    const userCtx = await contextOf(u.id);
    const w = worker();
    await w.start();
    const ok = await enqueueJob(userCtx, guardedJob, {});
    expect(await waitFor(ok.id, finished)).toMatchObject({ state: 'DONE', result: { scope: 'REGION' } });
    await w.stop();

    const lost = await enqueueJob(userCtx, guardedJob, {});
    const [ur] = await t.database.db.select().from(userRoles).where(eq(userRoles.userId, u.id));
    await t.database.db.delete(roleGrants).where(eq(roleGrants.roleId, ur.roleId));
    await w.start();
    const row = await waitFor(lost.id, finished);
    expect(row.state).toBe('FAILED');
    expect(row.error).toMatch(/^No autorizado/);
    await w.stop();
  });
});

describe('daily schedules', () => {
  const daily: { day: string; actor: string; scope: string | null }[] = [];
  let failing = false;
  scheduleDaily({
    key: 'test.daily',
    title: 'Prueba diaria',
    at: '01:30',
    permission: { resource: 'jobs', action: 'UPDATE' },
    maxAttempts: 1,
    async run(ctx, day, progress) {
      daily.push({ day, actor: ctx.actor.email, scope: ctx.scope });
      await progress({ done: 1, total: 2, phase: 'A medio camino' });
      await new Promise((r) => setTimeout(r, 20));
      if (failing) throw new AppError('CONFLICT', 'No se pudo hoy.');
      await progress({ done: 2, total: 2, phase: 'Terminando' });
      return { day };
    },
  });
  // Guatemala is UTC−6 all year: 07:29 UTC is 01:29 there.
  const at = (iso: string) => new Date(iso);
  const scheduleRow = async () => (await t.database.db.select().from(jobSchedules).where(eq(jobSchedules.key, 'test.daily')))[0];

  it('the due day is today once the hour has passed in Guatemala, else yesterday', () => {
    expect(dueDay('01:30', at('2026-03-10T07:29:00Z'))).toBe('2026-03-09');
    expect(dueDay('01:30', at('2026-03-10T07:30:00Z'))).toBe('2026-03-10');
    // 23:00 in Guatemala is already the next day in UTC.
    expect(dueDay('23:00', at('2026-03-11T05:00:00Z'))).toBe('2026-03-10');
    expect(() =>
      scheduleDaily({
        key: 'test.bad',
        title: 'x',
        at: '25:00',
        permission: { resource: 'jobs', action: 'UPDATE' },
        run: async () => null,
      }),
    ).toThrow(/HH:MM/);
  });

  it('starts once a day, once across processes, as a job of the system with progress; records the outcome and catches up a missed day', async () => {
    const db = t.database.db;
    const only = ['test.daily'];
    // First sight: the day becomes the starting point, nothing runs.
    expect(await runDueSchedules(db, at('2026-03-10T08:00:00Z'), undefined, only)).toEqual([]);
    expect(daily).toEqual([]);
    // The next day before the hour: nothing; after it, two "processes" at once: exactly one starts it.
    expect(await runDueSchedules(db, at('2026-03-11T07:00:00Z'), undefined, only)).toEqual([]);
    const both = await Promise.all([
      runDueSchedules(db, at('2026-03-11T07:31:00Z'), undefined, only),
      runDueSchedules(db, at('2026-03-11T07:31:00Z'), undefined, only),
    ]);
    expect(both.flat()).toEqual(['test.daily']);
    // The day's run is one job of the queue, started by nobody (the system), of kind daily.<key>.
    const queued = await scheduleRow();
    expect(queued.lastJobId).toEqual(expect.any(Number));
    expect(await db.select().from(jobs).where(eq(jobs.kind, 'daily.test.daily'))).toHaveLength(1);
    expect(await jobRow(queued.lastJobId as number)).toMatchObject({
      state: 'QUEUED',
      userId: null,
      payload: { day: '2026-03-11' },
    });
    const w = worker();
    await w.start();
    const done = await waitFor(queued.lastJobId as number, finished);
    expect(done).toMatchObject({ state: 'DONE', done: 2, total: 2, result: { day: '2026-03-11' } });
    expect(daily).toEqual([{ day: '2026-03-11', actor: 'sistema', scope: 'ALL' }]);
    expect(await runDueSchedules(db, at('2026-03-11T20:00:00Z'), undefined, only)).toEqual([]);
    expect(await scheduleRow()).toMatchObject({ lastSlot: '2026-03-11', lastResult: { day: '2026-03-11' }, lastError: null });
    expect((await scheduleRow()).lastFinishedAt).not.toBeNull();

    // Procesos lists it for those who see everyone's jobs: who «Sistema», its title, progress and result.
    const admin = await t.createUser({ system: true });
    const list = await t.request({ method: 'GET', url: '/api/jobs?scope=all', token: admin.token });
    expect(list.json().items.find((j: { id: number }) => j.id === done.id)).toMatchObject({
      kind: 'daily.test.daily',
      title: 'Prueba diaria',
      userId: null,
      userEmail: 'Sistema',
      state: 'DONE',
      done: 2,
      total: 2,
      result: { day: '2026-03-11' },
      canCancel: false,
      hasFile: false,
    });
    // A user without everyone's jobs does not see it.
    const clerk = await t.createUser({ grants: [] });
    expect((await t.request({ method: 'GET', url: `/api/jobs/${done.id}`, token: clerk.token })).statusCode).toBe(404);

    // The server was down on the 12th and 13th: on the 14th before the hour it catches up with the 13th.
    failing = true;
    expect(await runDueSchedules(db, at('2026-03-14T06:00:00Z'), undefined, only)).toEqual(['test.daily']);
    const failedJob = await waitFor((await scheduleRow()).lastJobId as number, finished);
    expect(failedJob).toMatchObject({ state: 'FAILED', error: 'No se pudo hoy.' });
    expect(daily.at(-1)).toMatchObject({ day: '2026-03-13' });
    expect(await scheduleRow()).toMatchObject({ lastSlot: '2026-03-13', lastResult: null, lastError: 'No se pudo hoy.' });
    failing = false;
    await w.stop();
  });
});
