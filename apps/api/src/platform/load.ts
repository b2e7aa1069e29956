import { AppError, type Message, msg, text } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Db } from '../db/client.ts';
import { isGuardedUrl } from './access.ts';
import { countRefusedSearch } from './metrics.ts';

/**
 * How the server degrades under load instead of failing (issue 11):
 *
 * - **Statement timeouts per kind of query.** Every PostgreSQL connection has a backstop
 *   (`DB_STATEMENT_TIMEOUT_MS`, db/client.ts); an expensive search runs its statements under a tighter
 *   one (`timeouts.search`), set for its own transaction only. A statement cut short answers 503 with
 *   Retry-After (db-errors.ts), never a 500.
 * - **A bound on concurrent expensive searches.** At most `slots` run at once per process; up to
 *   `queue` more wait (at most `waitMs`); beyond that the request is refused at once with 503 and
 *   Retry-After. The rest of the pool stays free for cheap requests.
 * - **Sign-in, session checks and the health check never wait behind a search**: they run on a pool of
 *   their own (`Database.priorityDb`, db/client.ts).
 * - **Load shedding**: when the shared pool already has more than `maxPoolWaiting` requests waiting for
 *   a connection, a new list or search request is answered 503 at once instead of joining the queue
 *   (access.ts; `Database.poolWaiting`).
 * - **A fair share per user** (issue 25): at most `HEAVY_REQUESTS_PER_USER` requests that generate a file
 *   (routes with `config.heavy`) and `STREAMS_PER_USER` open live streams per user and process
 *   (`PerUserLimit`), and `JOBS_PER_USER` jobs queued or running per user across processes (a count in
 *   the database, platform/jobs.ts). Beyond each, 429 with a Spanish message; the slot is given back when the
 *   answer ends or the client leaves.
 */
export const timeouts = {
  /** A name search, its capped count: what a user waits for while typing. */
  search: 3_000,
} as const;

export const RETRY_AFTER_SECONDS = 2;

export const BUSY_MESSAGE = text('platform.busy');

export const busy = (cause?: unknown) => new AppError('SERVICE_UNAVAILABLE', msg('platform.busy'), undefined, { cause });

/** A counting semaphore with a bounded, time-limited queue; a refusal is the 503 of `busy()`. */
export class Gate {
  private running = 0;
  private readonly waiting: { resolve: () => void; timer: NodeJS.Timeout }[] = [];

  constructor(
    readonly slots: number,
    readonly queue: number,
    readonly waitMs: number,
  ) {}

  get active() {
    return this.running;
  }

  get queued() {
    return this.waiting.length;
  }

  /** Takes a slot (waiting in line if allowed); the returned function gives it back, once. */
  async acquire(): Promise<() => void> {
    if (this.running < this.slots) {
      this.running += 1;
      return this.releaser();
    }
    if (this.waiting.length >= this.queue) {
      countRefusedSearch('queue_full');
      throw busy();
    }
    await new Promise<void>((resolve, reject) => {
      const entry = {
        resolve,
        timer: setTimeout(() => {
          const i = this.waiting.indexOf(entry);
          if (i >= 0) this.waiting.splice(i, 1);
          countRefusedSearch('wait_timeout');
          reject(busy());
        }, this.waitMs),
      };
      this.waiting.push(entry);
    });
    return this.releaser();
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }

  private releaser() {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiting.shift();
      if (next) {
        // The slot passes straight to the next in line.
        clearTimeout(next.timer);
        next.resolve();
      } else {
        this.running -= 1;
      }
    };
  }
}

export interface LoadLimits {
  searchSlots: number;
  searchQueue: number;
  searchWaitMs: number;
  /** Jobs one user may have queued or running at once (`JOBS_PER_USER`); none when not given. */
  jobsPerUser?: number;
}

const gates = new WeakMap<Db, Gate>();
const jobQuotas = new WeakMap<Db, number>();

/** Sets the search gate and the per-user job quota of a database handle (buildApp, from the configuration). */
export function configureLoad(db: Db, limits: LoadLimits): Gate {
  const gate = new Gate(limits.searchSlots, limits.searchQueue, limits.searchWaitMs);
  gates.set(db, gate);
  if (limits.jobsPerUser != null) jobQuotas.set(db, limits.jobsPerUser);
  return gate;
}

/**
 * The jobs one user may have queued or running on `db` (platform/jobs.ts `enqueueJob`); null when the app did
 * not configure it (a script or a test on a database of its own).
 */
export const jobQuotaOf = (db: Db): number | null => jobQuotas.get(db) ?? null;

/** The gate of expensive searches on `db` (a default one when the app did not configure it). */
export function searchGate(db: Db): Gate {
  let gate = gates.get(db);
  if (!gate) {
    gate = new Gate(4, 64, 5_000);
    gates.set(db, gate);
  }
  return gate;
}

/**
 * Runs an expensive search: through the gate, in one transaction whose statements are cut at
 * `timeouts.search` (PostgreSQL; the embedded database runs one statement at a time anyway).
 */
export function expensiveSearch<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return searchGate(db).run(() =>
    db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local statement_timeout = ${timeouts.search}`));
      return fn(tx as unknown as Db);
    }),
  );
}

// ─── A fair share per user ──────────────────────────────────────────────────────────────────────────

declare module 'fastify' {
  interface FastifyInstance {
    /** The per-user limit on requests that generate a file, of this process (`registerHeavyLimit`). */
    heavyLimit: PerUserLimit;
  }
  interface FastifyContextConfig {
    /**
     * The route generates a file (a PDF, an xlsx/csv export, a report): it runs under the per-user limit of
     * `registerHeavyLimit`. Every such route declares it; `platform/fair-share.test.ts` walks the route table.
     */
    heavy?: boolean;
  }
}

/** Seconds a client refused for its share is told to wait: about what a report takes. */
export const FAIR_SHARE_RETRY_AFTER_SECONDS = 5;

export const fairShareMessages = {
  heavy: (max: number) => msg('platform.tooManyDownloads', { max }),
  streams: (max: number) => msg('platform.tooManyStreams', { max }),
  jobs: (max: number) => msg('platform.tooManyJobs', { max }),
} as const;

/** 429 with the share's Spanish message; a route sets `Retry-After` itself (the error handler sets it only on 503). */
export const overShare = (message: Message | string) => new AppError('RATE_LIMITED', message);

/**
 * At most `max` of something (requests, streams) per user at once, in this process. Not shared between
 * processes: a request or a stream lives in one process, so N processes allow N × max at most (docs/decisions.md).
 */
export class PerUserLimit {
  private readonly open = new Map<number | string, number>();

  constructor(readonly max: number) {}

  /** What `key` holds now. */
  held(key: number | string): number {
    return this.open.get(key) ?? 0;
  }

  /** Takes a slot for `key`, or null when it already holds `max`. The returned function gives it back, once. */
  tryAcquire(key: number | string): (() => void) | null {
    const held = this.held(key);
    if (held >= this.max) return null;
    this.open.set(key, held + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const now = this.held(key) - 1;
      if (now > 0) this.open.set(key, now);
      else this.open.delete(key);
    };
  }
}

/**
 * The per-user limit on requests that generate a file: a route with `config.heavy` takes a slot of its user
 * (or of its address, were one public) right after the access guard, and gives it back when its answer ends
 * or the client leaves — a streamed export holds it while it streams. Beyond `max`, 429 with Retry-After at
 * once: nothing waits, so a user's burst never queues in front of anyone else. Registered after the access
 * guard (its `onRequest` hook runs after the guard's).
 */
export function registerHeavyLimit(app: FastifyInstance, max: number): PerUserLimit {
  const limit = new PerUserLimit(max);
  app.decorate('heavyLimit', limit);
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.heavy !== true) return;
    const release = limit.tryAcquire(request.auth?.user.id ?? `ip:${request.ip}`);
    if (!release) {
      reply.header('retry-after', String(FAIR_SHARE_RETRY_AFTER_SECONDS));
      throw overShare(fairShareMessages.heavy(max));
    }
    // 'close': the answer was sent in full, or the connection went away before.
    reply.raw.once('close', release);
  });
  return limit;
}

/**
 * Called by the senders of generated files (`sendExport`, `sendReport`, `sendPdf`): an API route that
 * generates a file without declaring `config.heavy` is a programming error, failed loudly (the route-table
 * test keeps it from shipping).
 */
export function assertHeavyRoute(reply: FastifyReply): void {
  const { url, config } = reply.request.routeOptions;
  if (isGuardedUrl(url) && config.heavy !== true)
    throw new Error(`${url} generates a file but does not declare config.heavy (platform/load.ts)`);
}
