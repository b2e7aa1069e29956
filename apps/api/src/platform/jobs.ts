import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import { AppError, addDays, guatemalaToday, msg, type Permission, type Scope, scopeFor, text } from '@aporta/domain';
import { and, asc, count, eq, inArray, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { jobSchedules, jobs, storedFiles, users } from '../db/schema/index.ts';
import { createContext, type RequestContext, systemContext } from './context.ts';
import { FileNotFoundError, type FileStore } from './files.ts';
import { fairShareMessages, jobQuotaOf, overShare } from './load.ts';
import { countJobEnded, type JobOutcome } from './metrics.ts';
import { loadCurrentUser, userFields } from './session.ts';

/**
 * Background jobs on the application's own database (docs/decisions.md, "Background jobs"): a `jobs`
 * table, claimed with `FOR UPDATE SKIP LOCKED` so one job is taken by exactly one worker of any
 * process, held under a lease the worker renews; a lease that runs out (the process died) puts the job
 * back in the queue, or fails it once its attempts are spent — a job is never left RUNNING.
 */

export type JobState = 'QUEUED' | 'RUNNING' | 'DONE' | 'FAILED' | 'CANCELLED';

export interface JobProgress {
  done: number;
  total: number | null;
  phase: string;
}

export interface JobRun<P> {
  /** The user who started the job, with the scope of the permission it was started under. */
  ctx: RequestContext;
  /** JSON-serialisable. */
  payload: P;
  jobId: number;
  /** 1 on the first run; more when the job is retried after a failure or a crash (resume from a checkpoint). */
  attempt: number;
  /** Reports progress and heartbeats; throws JobCancelledError once the job has been cancelled. */
  progress(p: JobProgress): Promise<void>;
  /** Aborted on cancel or shutdown. */
  signal: AbortSignal;
  /** Where a job writes its result file (platform/files.ts). */
  files: FileStore;
}

export interface JobDefinition<P, R = unknown> {
  kind: string;
  /** Spanish name shown in "Procesos" ("Exportación de afiliados"). */
  title?: string;
  run(job: JobRun<P>): Promise<R>;
  /** Runs (first one included) before the job is failed; default 3. */
  maxAttempts?: number;
  /**
   * The permission the job needs. Checked again when the job starts (the user may have lost it since
   * enqueueing: the job then fails with "No autorizado"), and its scope is the job context's scope.
   * Without it, the scope the user had when enqueueing is kept.
   */
  permission?: Permission;
  /**
   * Runs once a job of this kind has ended without doing its work — FAILED after its last attempt (an
   * error, or a lease that ran out after a crash), or CANCELLED — in the transaction that records the end
   * (a savepoint: if it throws, the job still ends and the error is logged). It leaves every record the job
   * was to change in a state a person can see and act on (the reason kept on it). Idempotent.
   */
  onFailedForGood?(db: Db, job: EndedJob<P>): Promise<void>;
  /**
   * At start-up (`recoverJobs`), before any worker runs: settles the records whose job of this kind ended
   * (or vanished) without finishing them — those a hook could not reach (the process died in between).
   * Returns how many records it settled.
   */
  recover?(db: Db): Promise<number>;
}

/** A job that will not run again: what `onFailedForGood` is told. */
export interface EndedJob<P> {
  id: number;
  kind: string;
  payload: P;
  userId: number | null;
  state: 'FAILED' | 'CANCELLED';
  /** The Spanish reason recorded on the job (null when cancelled). */
  error: string | null;
}

/**
 * The job's context acting from the address of the request that queued it (the job's payload keeps it as
 * `ip`), so the audit rows the job writes name it as the request's would.
 */
export const contextFromRequest = (job: JobRun<{ ip?: string | null }>): RequestContext =>
  createContext({
    db: job.ctx.db,
    user: job.ctx.user,
    actor: { ...job.ctx.actor, ip: job.payload.ip ?? null },
    sessionId: job.ctx.sessionId,
    scope: job.ctx.scope,
  });

/** Thrown by `progress()` once the job is cancelled; the worker records CANCELLED. */
export class JobCancelledError extends Error {
  constructor() {
    super('Proceso cancelado.');
    this.name = 'JobCancelledError';
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds definitions of every payload type.
const registry = new Map<string, JobDefinition<any, any>>();

/** Registers a job kind (at module load) so workers of this process may run it. */
export function defineJob<P, R = unknown>(def: JobDefinition<P, R>): JobDefinition<P, R> {
  const existing = registry.get(def.kind);
  if (existing && existing !== def) throw new Error(`Job kind "${def.kind}" is defined twice`);
  registry.set(def.kind, def);
  return def;
}

/** The Spanish name of a kind of job, or the kind itself when this process does not know it. */
export const jobTitle = (kind: string): string => registry.get(kind)?.title ?? kind;

/** The permission a kind of job declares (who may run it), or undefined for a kind that declares none. */
export const jobPermission = (kind: string): Permission | undefined => registry.get(kind)?.permission;

/** Kinds registered in this process. */
export const jobKinds = (): string[] => [...registry.keys()];

/**
 * Wakes the workers of this process when a job is enqueued. Other processes are woken by the 'aporta_jobs'
 * notification (migration 0047, `wakeJobWorkers` from app.ts's listener) and find it by polling in any case.
 */
const wakeups = new EventEmitter();
wakeups.setMaxListeners(0);
export const wakeJobWorkers = (): void => {
  wakeups.emit('enqueued');
};

/** The advisory lock (with the user's id) under which a user's jobs are counted and one more is queued. */
const JOB_QUOTA_LOCK = 0x4a4f4253; // "JOBS"

/**
 * Refuses (429, Spanish) a user who already has `max` jobs queued or running, in any process: counted in the
 * database under a transaction-level lock of that user, so two requests at once cannot both take the last place.
 */
async function checkJobQuota(tx: Db, userId: number, max: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${JOB_QUOTA_LOCK}::int4, ${userId}::int4)`);
  const [{ n }] = await tx
    .select({ n: count() })
    .from(jobs)
    .where(and(eq(jobs.userId, userId), inArray(jobs.state, ['QUEUED', 'RUNNING'])));
  if (n >= max) throw overShare(fairShareMessages.jobs(max));
}

/**
 * Queues a job run as `ctx.user`. Pass `tx` to enqueue inside the transaction that prepares its input:
 * the job exists only if the transaction commits. Any caller allowed to start the work. A user (not the
 * system) may have at most `JOBS_PER_USER` jobs queued or running (platform/load.ts `jobQuotaOf`): beyond it,
 * 429 — in `tx`, the caller's whole transaction is refused.
 */
export async function enqueueJob<P>(
  ctx: RequestContext,
  def: JobDefinition<P>,
  payload: P,
  opts: { tx?: Db } = {},
): Promise<{ id: number }> {
  if (registry.get(def.kind) !== def) throw new Error(`Job kind "${def.kind}" is not defined with defineJob`);
  const quota = ctx.actor.id == null ? null : jobQuotaOf(ctx.db);
  if (quota != null && !opts.tx) {
    // The count and the insert in one transaction of their own (the lock lasts until it commits).
    return ctx.db.transaction((tx) => enqueueJob(ctx, def, payload, { tx: tx as unknown as Db }));
  }
  const db = opts.tx ?? ctx.db;
  if (quota != null) await checkJobQuota(db, ctx.user.id, quota);
  const [row] = await db
    .insert(jobs)
    .values({
      kind: def.kind,
      payload: (payload ?? {}) as object,
      // The system (systemContext: no actor id) starts jobs of its own: no user.
      userId: ctx.actor.id == null ? null : ctx.user.id,
      scope: ctx.scope,
      maxAttempts: Math.max(1, def.maxAttempts ?? 3),
    })
    .returning({ id: jobs.id });
  await ctx.audit({ action: 'CREATE', entityType: 'job', entityId: row.id, after: { kind: def.kind } }, db);
  // In a transaction the row is not visible yet; the next poll finds it in any case.
  setImmediate(() => wakeups.emit('enqueued'));
  return { id: row.id };
}

export type JobRow = typeof jobs.$inferSelect;

/** Spanish messages recorded on a job. */
export const jobMessages = {
  interrupted: text('platform.jobInterrupted'),
  unexpected: text('platform.jobUnexpected'),
  unauthorized: text('platform.jobUnauthorized'),
  unknownKind: text('platform.jobUnknownKind'),
} as const;

/**
 * Asks a job to stop: a queued one is cancelled at once; a running one at its next progress report or
 * heartbeat. Returns the row after the change, or null when the job does not exist. Finished jobs are
 * left as they are. The caller checks who may cancel it.
 */
export async function requestCancel(
  db: Db,
  id: number,
  log: Pick<FastifyBaseLogger, 'error'> = silentLog,
): Promise<JobRow | null> {
  const [row] = await db
    .update(jobs)
    .set({
      state: sql`CASE WHEN ${jobs.state} = 'QUEUED' THEN 'CANCELLED' ELSE ${jobs.state} END`,
      finishedAt: sql`CASE WHEN ${jobs.state} = 'QUEUED' THEN now() ELSE ${jobs.finishedAt} END`,
      phase: sql`CASE WHEN ${jobs.state} = 'QUEUED' THEN 'Cancelado' ELSE ${jobs.phase} END`,
      cancelRequestedAt: sql`coalesce(${jobs.cancelRequestedAt}, now())`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.id, id), inArray(jobs.state, ['QUEUED', 'RUNNING'])))
    .returning();
  // Cancelled while queued: it will never run, so its records are settled now (a running one is settled
  // by its worker when it stops).
  if (row?.state === 'CANCELLED') await settleEndedJob(db, row, log);
  if (row) return row;
  const [current] = await db.select().from(jobs).where(eq(jobs.id, id));
  return current ?? null;
}

/**
 * Runs the `onFailedForGood` hook of a job that has just ended without doing its work, in a savepoint of
 * `db` (the transaction that recorded the end, or one of its own): a hook that fails is rolled back and
 * logged, never the end itself — `recover` at the next start and the home queues still find its records.
 */
async function settleEndedJob(
  db: Db,
  row: Pick<JobRow, 'id' | 'kind' | 'payload' | 'userId' | 'state' | 'error'>,
  log: Pick<FastifyBaseLogger, 'error'>,
): Promise<void> {
  const hook = registry.get(row.kind)?.onFailedForGood;
  if (!hook || (row.state !== 'FAILED' && row.state !== 'CANCELLED')) return;
  const ended: EndedJob<unknown> = {
    id: row.id,
    kind: row.kind,
    payload: row.payload,
    userId: row.userId,
    state: row.state,
    error: row.error,
  };
  try {
    await db.transaction((sp) => hook(sp, ended));
  } catch (err) {
    log.error({ err, jobId: row.id, kind: row.kind }, 'job failure hook failed');
  }
}

/**
 * What a module does when a job has ended (DONE, FAILED or CANCELLED) — e.g. tell its starter (issue 29) — run
 * by the worker in the transaction that records the end, in a savepoint: a listener that fails is rolled back
 * and logged, never the end itself. Registered by a module's routes plugin (`onJobEnded`, idempotent).
 */
export type JobEndListener = (db: Db, job: JobRow) => Promise<void>;
const endListeners: JobEndListener[] = [];
export function onJobEnded(listener: JobEndListener): void {
  if (!endListeners.includes(listener)) endListeners.push(listener);
}

async function tellJobEnded(db: Db, row: JobRow, log: Pick<FastifyBaseLogger, 'error'>): Promise<void> {
  for (const listener of endListeners) {
    try {
      await db.transaction((sp) => listener(sp, row));
    } catch (err) {
      log.error({ err, jobId: row.id, kind: row.kind }, 'job end listener failed');
    }
  }
}

/**
 * At start-up, once, before workers run (the only process, or the primary of several): every kind's
 * `recover` settles the records a job left unfinished when it ended or vanished without its hook running.
 * Returns the number of records settled per kind (only kinds that settled something).
 */
export async function recoverJobs(db: Db, log: Pick<FastifyBaseLogger, 'error'> = silentLog): Promise<Record<string, number>> {
  const settled: Record<string, number> = {};
  for (const def of registry.values()) {
    if (!def.recover) continue;
    try {
      const n = await def.recover(db);
      if (n > 0) settled[def.kind] = n;
    } catch (err) {
      log.error({ err, kind: def.kind }, 'job recovery failed');
    }
  }
  return settled;
}

export interface JobWorkerOptions {
  db: Db;
  /** The file store jobs write their results to. */
  files: FileStore;
  /** Jobs run at the same time by this process. */
  concurrency: number;
  /** How often an idle worker looks for work queued by another process. */
  pollMs?: number;
  /** How long a claim lasts without a heartbeat. */
  leaseMs?: number;
  /** How long `stop()` waits for running jobs to notice the shutdown before leaving them to their lease. */
  shutdownGraceMs?: number;
  /**
   * Take back every RUNNING job on start, not only those whose lease ran out: true for the embedded
   * database, which only one process can open, so whatever is RUNNING was left by a previous run.
   */
  reclaimAllOnStart?: boolean;
  /** First wait before retrying a job after an unexpected error; doubles with each attempt. Default 5 s. */
  retryDelayMs?: number;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Also run the recurring jobs (`scheduleDaily`) when their time comes; on in the server, off in tests. */
  schedules?: boolean;
}

const silentLog = { info() {}, warn() {}, error() {} };

/** How often a worker looks for recurring jobs whose time has come. */
const SCHEDULE_EVERY_MS = 60_000;

/** How often a worker looks for expired files to remove (each process; the claim keeps them apart). */
const PURGE_EVERY_MS = 60 * 60_000;

/**
 * Runs queued jobs of the kinds registered in this process. Started by `buildApp` (JOBS_CONCURRENCY),
 * stopped by its onClose hook; tests start one explicitly.
 */
export class JobWorker {
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly db: Db;
  private readonly files: FileStore;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly graceMs: number;
  private readonly log: NonNullable<JobWorkerOptions['log']>;
  private readonly reclaimAll: boolean;
  private readonly retryDelayMs: number;
  private readonly running = new Map<number, { promise: Promise<void>; controller: AbortController }>();
  private loopPromise: Promise<void> | null = null;
  private stopping = false;
  /** What a job claimed while stopping is told: 'shutdown' (stop) or 'abandoned' (a crash simulation). */
  private stopReason: 'shutdown' | 'abandoned' = 'shutdown';
  private wake: (() => void) | null = null;
  private lastReap = 0;
  private lastPurge = 0;
  private lastSchedule = 0;
  private readonly schedules: boolean;

  constructor(opts: JobWorkerOptions) {
    this.db = opts.db;
    this.files = opts.files;
    this.concurrency = Math.max(1, opts.concurrency);
    this.pollMs = opts.pollMs ?? 1000;
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.graceMs = opts.shutdownGraceMs ?? 5000;
    this.reclaimAll = opts.reclaimAllOnStart ?? false;
    this.retryDelayMs = opts.retryDelayMs ?? 5000;
    this.log = opts.log ?? silentLog;
    this.schedules = opts.schedules ?? false;
  }

  get isRunning(): boolean {
    return this.loopPromise !== null;
  }

  /** Jobs this worker is running now. */
  get activeJobIds(): number[] {
    return [...this.running.keys()];
  }

  async start(): Promise<void> {
    if (this.loopPromise) return;
    this.stopping = false;
    this.stopReason = 'shutdown';
    if (this.reclaimAll) await this.reap(true);
    const onEnqueued = () => this.wake?.();
    wakeups.on('enqueued', onEnqueued);
    this.loopPromise = this.loop().finally(() => wakeups.off('enqueued', onEnqueued));
  }

  /**
   * Stops claiming, asks running jobs to stop (their signal aborts) and gives them back to the queue
   * without spending an attempt. A job that does not stop within the grace period keeps its lease
   * until it runs out, and is then retried by whichever process is alive.
   */
  async stop(): Promise<void> {
    if (!this.loopPromise) return;
    this.stopping = true;
    this.stopReason = 'shutdown';
    this.wake?.();
    for (const { controller } of this.running.values()) controller.abort('shutdown');
    const all = Promise.allSettled([...this.running.values()].map((r) => r.promise));
    await Promise.race([all, new Promise((r) => setTimeout(r, this.graceMs).unref())]);
    await this.loopPromise;
    this.loopPromise = null;
  }

  /**
   * Crash simulation for tests: stops claiming and forgets running jobs without touching their rows,
   * as a killed process would (their leases run out).
   */
  async abandon(): Promise<void> {
    this.stopping = true;
    this.stopReason = 'abandoned';
    this.wake?.();
    for (const { controller } of this.running.values()) controller.abort('abandoned');
    this.running.clear();
    await this.loopPromise;
    this.loopPromise = null;
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      try {
        if (Date.now() - this.lastReap > Math.min(this.leaseMs / 2, 10_000)) await this.reap(false);
        if (Date.now() - this.lastPurge > PURGE_EVERY_MS) await this.purgeExpiredFiles();
        if (this.schedules && Date.now() - this.lastSchedule > SCHEDULE_EVERY_MS) {
          this.lastSchedule = Date.now();
          // Not awaited: a day's run may take a while and the queue keeps being served meanwhile.
          void runDueSchedules(this.db, new Date(), this.log).catch((err) => this.log.error({ err }, 'scheduled jobs failed'));
        }
        if (this.running.size < this.concurrency) {
          const row = await this.claim();
          if (row) {
            this.launch(row);
            // Stopped (or abandoned) while the claim was on its way: the job gets the same signal the
            // running ones got — a stop gives it back to the queue, an abandon forgets it (lease runs out).
            if (this.stopping) this.running.get(row.id)?.controller.abort(this.stopReason);
            continue;
          }
        }
      } catch (err) {
        if (this.stopping) break;
        this.log.error({ err }, 'job worker: claim failed');
      }
      await this.sleep(this.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }

  /**
   * Removes the files whose time is up (exports are kept EXPORT_FILE_DAYS) from the database and the
   * store, a batch at a time. Rows are claimed with SKIP LOCKED and deleted before their objects, so two
   * processes never remove the same file and a download after this says the file is gone. An object
   * that cannot be deleted stays in the store (logged); its row is gone either way.
   */
  async purgeExpiredFiles(now: Date = new Date()): Promise<number> {
    this.lastPurge = Date.now();
    let removed = 0;
    for (;;) {
      const expired = this.db
        .select({ id: storedFiles.id })
        .from(storedFiles)
        .where(lte(storedFiles.expiresAt, now))
        .limit(100)
        .for('update', { skipLocked: true });
      const rows = await this.db.delete(storedFiles).where(inArray(storedFiles.id, expired)).returning({ key: storedFiles.key });
      for (const { key } of rows) {
        try {
          await this.files.delete(key);
        } catch (err) {
          if (!(err instanceof FileNotFoundError)) this.log.warn({ err, key }, 'expired file: could not delete it from storage');
        }
      }
      removed += rows.length;
      if (rows.length < 100 || this.stopping) return removed;
    }
  }

  /** Expired leases: back to the queue, or FAILED/CANCELLED when no attempt is left or a cancel was asked. */
  async reap(all: boolean): Promise<number> {
    this.lastReap = Date.now();
    const finalState = sql`CASE WHEN ${jobs.cancelRequestedAt} IS NOT NULL THEN 'CANCELLED'
      WHEN ${jobs.attempts} >= ${jobs.maxAttempts} THEN 'FAILED' ELSE 'QUEUED' END`;
    const rows = await this.db.transaction(async (tx) => {
      const ended = await tx
        .update(jobs)
        .set({
          state: finalState as SQL<JobState>,
          error: sql`CASE WHEN ${jobs.cancelRequestedAt} IS NULL AND ${jobs.attempts} >= ${jobs.maxAttempts}
          THEN ${jobMessages.interrupted} ELSE ${jobs.error} END`,
          finishedAt: sql`CASE WHEN ${jobs.cancelRequestedAt} IS NOT NULL OR ${jobs.attempts} >= ${jobs.maxAttempts}
          THEN now() ELSE NULL END`,
          leaseOwner: null,
          leaseExpiresAt: null,
          updatedAt: sql`now()`,
        })
        .where(and(eq(jobs.state, 'RUNNING'), all ? undefined : lt(jobs.leaseExpiresAt, sql`now()`)))
        .returning({
          id: jobs.id,
          kind: jobs.kind,
          payload: jobs.payload,
          userId: jobs.userId,
          state: jobs.state,
          error: jobs.error,
        });
      // Attempts spent after crashes (or cancelled meanwhile): the records are settled with the end.
      for (const r of ended) await settleEndedJob(tx, r, this.log);
      return ended;
    });
    for (const r of rows) this.log.warn({ jobId: r.id, state: r.state }, 'job lease expired: taken back');
    if (rows.some((r) => r.state === 'QUEUED')) this.wake?.();
    return rows.length;
  }

  /**
   * Takes the next job fairly, owner by owner (a user, or the system for its own runs): the owner with the
   * fewest jobs running now, then the one served least recently (whose newest started job started earliest;
   * never served first), then the oldest due job of that owner. So one user's backlog never keeps another's
   * job waiting behind it: the next free worker takes the newcomer's, and owners with work queued take turns.
   * Locked with SKIP LOCKED as before: workers of any process never take the same job.
   */
  private async claim(): Promise<JobRow | null> {
    const kinds = jobKinds();
    if (kinds.length === 0) return null;
    // `o`: another row of the same owner as the candidate row ("jobs").
    const ownerRunning = sql`(select count(*) from ${jobs} o where o.state = 'RUNNING' and o.user_id is not distinct from ${jobs.userId})`;
    // The owner's newest started job, read backwards on the (user_id, id) index: one branch per kind of owner,
    // each a plain index condition (a condition matching both would not use the index).
    const lastStart = (owner: SQL) =>
      sql`(select o.started_at from ${jobs} o where ${owner} and o.started_at is not null order by o.id desc limit 1)`;
    const ownerLastStart = sql`case when ${jobs.userId} is null then ${lastStart(sql`o.user_id is null`)}
      else ${lastStart(sql`o.user_id = ${jobs.userId}`)} end`;
    const next = this.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.state, 'QUEUED'), lte(jobs.runAfter, sql`now()`), inArray(jobs.kind, kinds)))
      .orderBy(asc(ownerRunning), sql`${ownerLastStart} asc nulls first`, asc(jobs.runAfter), asc(jobs.id))
      .limit(1)
      .for('update', { skipLocked: true });
    const [row] = await this.db
      .update(jobs)
      .set({
        state: 'RUNNING',
        attempts: sql`${jobs.attempts} + 1`,
        leaseOwner: this.owner,
        leaseExpiresAt: sql`now() + ${this.leaseMs} * interval '1 millisecond'`,
        heartbeatAt: sql`now()`,
        startedAt: sql`coalesce(${jobs.startedAt}, now())`,
        updatedAt: sql`now()`,
      })
      // The state is checked again: a row changed by another claim between the sub-select and the update.
      .where(and(sql`${jobs.id} = (${next})`, eq(jobs.state, 'QUEUED')))
      .returning();
    return row ?? null;
  }

  private launch(row: JobRow): void {
    const controller = new AbortController();
    const promise = this.execute(row, controller)
      .catch((err) => this.log.error({ err, jobId: row.id }, 'job worker: could not record the outcome of a job'))
      .finally(() => {
        if (this.running.get(row.id)?.promise === promise) this.running.delete(row.id);
        this.wake?.();
      });
    this.running.set(row.id, { promise, controller });
  }

  /** Renews the lease; false when it was lost (another worker took the job back). Aborts on cancel. */
  private async touch(id: number, controller: AbortController, progress?: JobProgress): Promise<boolean> {
    const [row] = await this.db
      .update(jobs)
      .set({
        heartbeatAt: sql`now()`,
        leaseExpiresAt: sql`now() + ${this.leaseMs} * interval '1 millisecond'`,
        updatedAt: sql`now()`,
        ...(progress ? { done: progress.done, total: progress.total, phase: progress.phase.slice(0, 200) } : {}),
      })
      .where(and(eq(jobs.id, id), eq(jobs.leaseOwner, this.owner), eq(jobs.state, 'RUNNING')))
      .returning({ cancelRequestedAt: jobs.cancelRequestedAt });
    if (!row) {
      if (!controller.signal.aborted) controller.abort('lease-lost');
      return false;
    }
    if (row.cancelRequestedAt && !controller.signal.aborted) controller.abort('cancelled');
    return true;
  }

  private async execute(row: JobRow, controller: AbortController): Promise<void> {
    const { signal } = controller;
    const started = performance.now();
    // The outcome recorded, then counted (platform/metrics.ts).
    const end = async (outcome: JobOutcome, set: Partial<Record<keyof JobRow, unknown>>) => {
      await this.finish(row.id, set);
      countJobEnded(row.kind, outcome, (performance.now() - started) / 1000);
    };
    const heartbeat = setInterval(
      () => {
        this.touch(row.id, controller).catch((err) => this.log.warn({ err, jobId: row.id }, 'job heartbeat failed'));
      },
      Math.max(50, Math.min(this.leaseMs / 3, 2000)),
    );
    heartbeat.unref();
    let lastWrite = 0;
    let lastPhase = '';
    const progress = async (p: JobProgress) => {
      const now = Date.now();
      // Throttled: a job may report every row; the embedded database needs only a few writes a second.
      const final = p.total != null && p.done >= p.total;
      if (now - lastWrite >= 250 || p.phase !== lastPhase || final) {
        lastWrite = now;
        lastPhase = p.phase;
        await this.touch(row.id, controller, {
          done: Math.max(0, Math.trunc(p.done)),
          total: p.total == null ? null : Math.max(0, Math.trunc(p.total)),
          phase: p.phase,
        });
      }
      if (signal.aborted) throw new JobCancelledError();
    };
    try {
      const def = registry.get(row.kind);
      if (!def) throw new AppError('BAD_REQUEST', msg('platform.jobUnknownKind'));
      const ctx = await this.contextFor(row, def);
      const result = await def.run({
        ctx,
        payload: row.payload as never,
        jobId: row.id,
        attempt: row.attempts,
        progress,
        signal,
        files: this.files,
      });
      if (signal.aborted && signal.reason !== 'cancelled') throw new JobCancelledError();
      await end('done', {
        state: 'DONE',
        result: (result ?? null) as object | null,
        error: null,
        phase: 'Terminado',
        done: sql`greatest(${jobs.done}, coalesce(${jobs.total}, ${jobs.done}))`,
      });
    } catch (err) {
      const reason = signal.aborted ? signal.reason : null;
      if (reason === 'abandoned' || reason === 'lease-lost') return;
      if (reason === 'shutdown') {
        // Given back without spending an attempt: the next process starts it again.
        await end('requeued', {
          state: 'QUEUED',
          attempts: sql`greatest(${jobs.attempts} - 1, 0)`,
          phase: 'En espera (reinicio del servidor)',
          finishedAt: null,
        });
        return;
      }
      if (reason === 'cancelled' || err instanceof JobCancelledError) {
        await end('cancelled', { state: 'CANCELLED', phase: 'Cancelado' });
        return;
      }
      if (err instanceof AppError) {
        await end('failed', { state: 'FAILED', error: err.message, phase: 'Falló' });
        return;
      }
      this.log.error({ err, jobId: row.id, kind: row.kind }, 'job failed');
      if (row.attempts < row.maxAttempts) {
        await end('retried', {
          state: 'QUEUED',
          runAfter: sql`now() + ${this.retryDelayMs * 2 ** Math.max(0, row.attempts - 1)} * interval '1 millisecond'`,
          phase: 'Reintento programado',
          finishedAt: null,
        });
      } else {
        await end('failed', { state: 'FAILED', error: jobMessages.unexpected, phase: 'Falló' });
      }
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Records the outcome, only while this worker still holds the lease. */
  private async finish(id: number, set: Partial<Record<keyof JobRow, unknown>>): Promise<void> {
    const record = (db: Db) =>
      db
        .update(jobs)
        .set({ finishedAt: sql`now()`, ...set, leaseOwner: null, leaseExpiresAt: null, updatedAt: sql`now()` } as never)
        .where(and(eq(jobs.id, id), eq(jobs.leaseOwner, this.owner), eq(jobs.state, 'RUNNING')))
        .returning();
    if (set.state !== 'FAILED' && set.state !== 'CANCELLED') {
      if (set.state !== 'DONE' || !endListeners.length) {
        await record(this.db);
        return;
      }
      await this.db.transaction(async (tx) => {
        const [row] = await record(tx);
        if (row) await tellJobEnded(tx, row, this.log);
      });
      return;
    }
    // Ended for good: the job's records are settled in the same transaction (its onFailedForGood).
    await this.db.transaction(async (tx) => {
      const [row] = await record(tx);
      if (row) await settleEndedJob(tx, row, this.log);
      if (row) await tellJobEnded(tx, row, this.log);
    });
  }

  /** The context of the user who started the job, with their permissions as they are now. */
  private async contextFor(row: JobRow, def: JobDefinition<unknown>): Promise<RequestContext> {
    // The system's own runs (scheduleDaily) act as the system, with every permission and scope ALL.
    if (row.userId == null) return systemContext(this.db);
    const [u] = await this.db.select(userFields).from(users).where(eq(users.id, row.userId));
    if (!u?.isActive) throw new AppError('FORBIDDEN', msg('platform.jobUnauthorized'));
    const user = await loadCurrentUser(this.db, u);
    let scope: Scope | null = row.scope;
    if (def.permission) {
      scope = scopeFor(user.permissions, def.permission.resource, def.permission.action);
      if (!scope) throw new AppError('FORBIDDEN', msg('platform.jobUnauthorized'));
    }
    return createContext({ db: this.db, user, actor: { id: user.id, email: user.email, ip: null }, scope });
  }
}

/** Jobs not finished and not claimed: what a user sees as "en espera". */
export const isActiveState = (s: JobState): boolean => s === 'QUEUED' || s === 'RUNNING';

// ─── Recurring jobs ─────────────────────────────────────────────────────────────────────────────────

/** Work the application does by itself every day (the daily survival suspension, the RENAP check…). */
export interface DailySchedule {
  /** Stable name; the day it last ran for is kept under it (job_schedules). Its job's kind is `daily.<key>`. */
  key: string;
  /** Spanish name of its runs in "Procesos" ("Verificación diaria de pensionados en RENAP"). */
  title: string;
  /** Time of day in Guatemala, `HH:MM` (24 h). */
  at: string;
  /** Runs before the day's run is failed (a crash or an unexpected error retries it); default 2. */
  maxAttempts?: number;
  /**
   * Who may run the same work by hand over every entity, and so read the day's runs in Procesos (their
   * results hold data of every entity: docs/decisions.md, "A job belongs to its starter").
   */
  permission: Permission;
  /**
   * Runs as the system (platform/context.ts `systemContext`: audit rows by "sistema", scope ALL), as a job
   * of the queue: `progress` is the job's (shown in Procesos; throws once the run is cancelled).
   */
  run(ctx: RequestContext, day: string, progress: JobRun<unknown>['progress']): Promise<unknown>;
}

const dailySchedules = new Map<string, { schedule: DailySchedule; job: JobDefinition<{ day: string }> }>();

/**
 * Registers a daily job (at module load). Each day's run is a job of the queue (kind `daily.<key>`, started
 * by the system, so "Procesos" lists it — who: Sistema — with its progress and result), enqueued once a day
 * across processes by `runDueSchedules`; its outcome is also kept in `job_schedules`.
 */
export function scheduleDaily(schedule: DailySchedule): DailySchedule {
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(schedule.at))
    throw new Error(`Schedule "${schedule.key}": hour "${schedule.at}" is not HH:MM`);
  const existing = dailySchedules.get(schedule.key);
  if (existing && existing.schedule !== schedule) throw new Error(`Schedule "${schedule.key}" is defined twice`);
  if (existing) return schedule;
  const job = defineJob<{ day: string }>({
    kind: `daily.${schedule.key}`,
    title: schedule.title,
    maxAttempts: schedule.maxAttempts ?? 2,
    permission: schedule.permission,
    async run(j) {
      const { db } = j.ctx;
      try {
        const result = await schedule.run(j.ctx, j.payload.day, j.progress);
        await db
          .update(jobSchedules)
          .set({ lastFinishedAt: sql`now()`, lastResult: (result ?? null) as object | null, lastError: null })
          .where(and(eq(jobSchedules.key, schedule.key), eq(jobSchedules.lastJobId, j.jobId)));
        return result;
      } catch (err) {
        // A stop (shutdown, lost lease) runs again: nothing to record yet.
        if (j.signal.aborted && j.signal.reason !== 'cancelled') throw err;
        const message =
          err instanceof JobCancelledError ? 'Cancelado.' : err instanceof AppError ? err.message : jobMessages.unexpected;
        await db
          .update(jobSchedules)
          .set({ lastFinishedAt: sql`now()`, lastError: message })
          .where(and(eq(jobSchedules.key, schedule.key), eq(jobSchedules.lastJobId, j.jobId)));
        throw err;
      }
    },
  });
  dailySchedules.set(schedule.key, { schedule, job });
  return schedule;
}

export const scheduledKeys = (): string[] => [...dailySchedules.keys()];

/**
 * The day whose run is due at `now`: today once its time has passed in Guatemala, else yesterday. A server
 * that was down at the hour catches up when it starts (the jobs are idempotent and act "as of" that day).
 */
export function dueDay(at: string, now: Date): string {
  const today = guatemalaToday(now);
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'America/Guatemala',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(now);
  return time >= at ? today : addDays(today, -1);
}

/**
 * Starts every registered daily job whose day has come and not yet been run: the day is claimed by moving
 * `job_schedules.last_slot` forward in one statement, so exactly one process starts it, and its job is
 * queued in the same transaction (as the system) — the workers run it like any job, with its progress in
 * Procesos; a crash retries it (idempotent: it acts "as of" its day). The outcome (its result or its
 * Spanish error) is kept on the row too. Returns the keys it started.
 */
export async function runDueSchedules(
  db: Db,
  now: Date = new Date(),
  log: Pick<FastifyBaseLogger, 'info' | 'error'> = silentLog,
  only?: readonly string[],
): Promise<string[]> {
  const ran: string[] = [];
  for (const { schedule: s, job } of dailySchedules.values()) {
    if (only && !only.includes(s.key)) continue;
    const day = dueDay(s.at, now);
    // First sight of a schedule (a new installation or a new kind of work): the day becomes its starting
    // point and nothing runs until the next one — a first start never launches every daily job at once.
    const [first] = await db.insert(jobSchedules).values({ key: s.key, lastSlot: day }).onConflictDoNothing().returning();
    if (first) continue;
    const started = await db.transaction(async (tx) => {
      const claimed = await tx
        .insert(jobSchedules)
        .values({ key: s.key, lastSlot: day })
        .onConflictDoUpdate({
          target: jobSchedules.key,
          set: { lastSlot: day, lastRunAt: sql`now()`, lastFinishedAt: null, lastResult: null, lastError: null },
          setWhere: lt(jobSchedules.lastSlot, day),
        })
        .returning({ key: jobSchedules.key });
      if (!claimed.length) return null;
      const { id } = await enqueueJob(systemContext(tx), job, { day }, { tx });
      await tx.update(jobSchedules).set({ lastJobId: id }).where(eq(jobSchedules.key, s.key));
      return id;
    });
    if (started == null) continue;
    ran.push(s.key);
    log.info({ schedule: s.key, day, jobId: started }, 'scheduled job queued');
  }
  return ran;
}
