import { AppError } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

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
 */
export const timeouts = {
  /** A name search, its capped count: what a user waits for while typing. */
  search: 3_000,
} as const;

export const RETRY_AFTER_SECONDS = 2;

export const BUSY_MESSAGE = 'El servidor está atendiendo demasiadas búsquedas. Intente de nuevo en unos segundos.';

export const busy = (cause?: unknown) => new AppError('SERVICE_UNAVAILABLE', BUSY_MESSAGE, undefined, { cause });

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
    if (this.waiting.length >= this.queue) throw busy();
    await new Promise<void>((resolve, reject) => {
      const entry = {
        resolve,
        timer: setTimeout(() => {
          const i = this.waiting.indexOf(entry);
          if (i >= 0) this.waiting.splice(i, 1);
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
}

const gates = new WeakMap<Db, Gate>();

/** Sets the search gate of a database handle (buildApp, from the configuration). */
export function configureLoad(db: Db, limits: LoadLimits): Gate {
  const gate = new Gate(limits.searchSlots, limits.searchQueue, limits.searchWaitMs);
  gates.set(db, gate);
  return gate;
}

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
