import type { EventEmitter } from 'node:events';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, rowsOf } from '../db/client.ts';
import { type BusinessMetric, countMetric } from './metrics.ts';

/**
 * The one outbox dispatcher (issues 29 and 30): what is sent to the outside after a change commits — e-mail
 * (`mail_outbox`, platform/mail-dispatcher.ts) and webhook deliveries (`webhook_deliveries`,
 * platform/webhook-dispatcher.ts) — is a row written in the change's transaction and sent from here, each
 * table with its own sender. Both tables share the columns this needs: `state` (PENDING → SENDING → SENT or
 * FAILED), `attempts`, `lease_until`, `next_attempt_at`, `last_error`.
 *
 * - Rows are claimed in batches with `FOR UPDATE SKIP LOCKED` and held SENDING under a lease, so several
 *   processes may dispatch; a row whose lease ran out was in flight in a process that died, and is claimed
 *   again with that try counted. Nothing is started with less than a quarter of the lease left: it is given
 *   back untouched rather than risk a second process sending it too.
 * - A failure is retried with an exponential back-off (1, 2, 4… minutes, capped at an hour) up to
 *   `maxAttempts`, then FAILED; a permanent failure fails at once.
 * - At least once: a process that dies after sending but before marking leaves a lease that runs out, and the
 *   row is sent again with the same identity (Message-ID, X-Aporta-Delivery) for the receiver to recognise.
 */

export type OutboxTable = 'mail_outbox' | 'webhook_deliveries';

export interface OutboxBatchOptions {
  /** Rows claimed at once (default 20). */
  batchSize?: number;
  /** How long a claim holds its rows (default 5 minutes); a row is not started with less than a quarter left. */
  leaseMs?: number;
  /** Attempts before FAILED (default 8). */
  maxAttempts?: number;
  /** First retry delay (default 1 minute), doubled per attempt up to `maxDelayMs` (default 1 hour). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Rows sent at once within a batch. */
  concurrency?: number;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

export interface OutboxBatchResult {
  claimed: number;
  sent: number;
  retried: number;
  failed: number;
  /** Given back unsent because the claim's lease was running out. */
  released: number;
}

/** What a sender says of one row: sent, or failed (permanently or not), with the table's own columns to set. */
export type OutboxOutcome =
  | { sent: true; set?: SQL }
  | {
      sent: false;
      error: string;
      /** No retry can mend it: FAILED at once. */
      permanent?: boolean;
      /** Not a try (the row was never sent: its endpoint switched off): the attempts stay. */
      notATry?: boolean;
      set?: SQL;
    };

export interface OutboxSender<R> {
  table: OutboxTable;
  /** Columns the claim returns besides `id`, `attempts` and `event`. */
  returning: SQL;
  /** Columns the claim sets besides state, lease and attempts (the Message-ID fixed at the first claim). */
  claimSet?: SQL;
  /** After the claim: what the rows need from other tables (the webhook's endpoint). */
  load?: (rows: R[]) => Promise<R[]>;
  send: (row: R) => Promise<OutboxOutcome>;
  /** What a failed send's error says (kept in `last_error` and logs; secrets removed). */
  describe: (err: unknown) => { error: string; permanent: boolean };
  metrics: { sent: BusinessMetric; failed: BusinessMetric };
  /** For the log: `mail`, `webhooks`. */
  name: string;
}

export interface ClaimedOutboxRow {
  id: number;
  event: string;
  attempts: number;
}

/** The delay before try `attempts + 1`: base × 2^(attempts − 1), capped. */
export const retryDelayMs = (attempts: number, baseDelayMs: number, maxDelayMs: number): number =>
  Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, attempts - 1));

/** One batch: claims due rows of the sender's table, sends each, and marks it SENT, PENDING again later, or FAILED. */
export async function sendOutbox<R extends ClaimedOutboxRow>(
  db: Db,
  sender: OutboxSender<R>,
  opts: OutboxBatchOptions & { concurrency: number },
): Promise<OutboxBatchResult> {
  const batchSize = opts.batchSize ?? 20;
  const leaseMs = opts.leaseMs ?? 5 * 60_000;
  const maxAttempts = opts.maxAttempts ?? 8;
  const baseDelayMs = opts.baseDelayMs ?? 60_000;
  const maxDelayMs = opts.maxDelayMs ?? 60 * 60_000;
  const table = sql.identifier(sender.table);
  const result: OutboxBatchResult = { claimed: 0, sent: 0, retried: 0, failed: 0, released: 0 };

  const claimedAt = Date.now();
  let rows = rowsOf<R>(
    await db.execute(sql`
      UPDATE ${table} o
         SET state = 'SENDING',
             lease_until = now() + ${leaseMs}::int * interval '1 millisecond',
             attempts = o.attempts + CASE WHEN o.state = 'SENDING' THEN 1 ELSE 0 END
             ${sender.claimSet ? sql`, ${sender.claimSet}` : sql``}
       WHERE o.id IN (
             SELECT id FROM ${table}
              WHERE (state = 'PENDING' AND next_attempt_at <= now())
                 OR (state = 'SENDING' AND lease_until < now())
              ORDER BY next_attempt_at, id
              LIMIT ${batchSize}
                FOR UPDATE SKIP LOCKED)
   RETURNING o.id, o.event, o.attempts, ${sender.returning}`),
  );
  result.claimed = rows.length;
  if (rows.length === 0) return result;
  rows.sort((a, b) => Number(a.id) - Number(b.id));
  if (sender.load) rows = await sender.load(rows);
  const deadline = claimedAt + leaseMs - Math.max(1000, leaseMs / 4);
  const extra = (set?: SQL) => (set ? sql`, ${set}` : sql``);

  const fail = async (row: R, attempts: number, error: string, set?: SQL) => {
    await db.execute(sql`
      UPDATE ${table} SET state = 'FAILED', attempts = ${attempts}, lease_until = NULL, last_error = ${error} ${extra(set)}
       WHERE id = ${row.id} AND state = 'SENDING'`);
    result.failed++;
    countMetric(sender.metrics.failed, { event: row.event });
    opts.log?.warn({ outbox: sender.table, id: row.id, attempts, error }, `${sender.name}: failed for good`);
  };
  const settle = async (row: R, outcome: OutboxOutcome) => {
    if (outcome.sent) {
      await db.execute(sql`
        UPDATE ${table} SET state = 'SENT', lease_until = NULL ${extra(outcome.set)}
         WHERE id = ${row.id} AND state = 'SENDING'`);
      result.sent++;
      countMetric(sender.metrics.sent, { event: row.event });
      return;
    }
    const attempts = Number(row.attempts) + (outcome.notATry ? 0 : 1);
    if (outcome.permanent || attempts >= maxAttempts) return fail(row, attempts, outcome.error, outcome.set);
    const delay = retryDelayMs(attempts, baseDelayMs, maxDelayMs);
    await db.execute(sql`
      UPDATE ${table}
         SET state = 'PENDING', attempts = ${attempts}, lease_until = NULL, last_error = ${outcome.error},
             next_attempt_at = now() + ${delay}::int * interval '1 millisecond' ${extra(outcome.set)}
       WHERE id = ${row.id} AND state = 'SENDING'`);
    result.retried++;
  };

  const sendOne = async (row: R) => {
    if (Date.now() > deadline) {
      await db.execute(sql`UPDATE ${table} SET state = 'PENDING', lease_until = NULL WHERE id = ${row.id} AND state = 'SENDING'`);
      result.released++;
      return;
    }
    if (Number(row.attempts) >= maxAttempts)
      return fail(row, Number(row.attempts), 'Sin confirmación del envío tras agotar los intentos.');
    let outcome: OutboxOutcome;
    try {
      outcome = await sender.send(row);
    } catch (err) {
      const d = sender.describe(err);
      outcome = { sent: false, error: d.error, permanent: d.permanent };
    }
    await settle(row, outcome);
  };

  // A few at once (the pool's connections), in claim order.
  let next = 0;
  const lanes = Array.from({ length: Math.min(Math.max(1, opts.concurrency), rows.length) }, async () => {
    while (next < rows.length) await sendOne(rows[next++]);
  });
  await Promise.all(lanes);
  return result;
}

export interface OutboxLoopOptions {
  /** One batch; a full one (`claimed` ≥ batchSize) is followed at once by another. */
  pass: () => Promise<OutboxBatchResult>;
  batchSize: number;
  /** Emits `enqueued` when a row is written (after its transaction commits, a moment later). */
  wakeups: EventEmitter;
  /** How often the table is looked at when nothing woke the loop (default 5 s). */
  pollMs?: number;
  log?: Pick<FastifyBaseLogger, 'error'>;
  /** What a failed pass's error says in the log (secrets removed). */
  describe: (err: unknown) => string;
  name: string;
}

/** Runs a sender's batches in this process while started (buildApp starts the dispatchers where jobs run). */
export class OutboxLoop {
  private readonly opts: OutboxLoopOptions;
  private loopPromise: Promise<void> | null = null;
  private stopping = false;
  private wake: (() => void) | null = null;
  private readonly onEnqueued = () => {
    // The row's transaction commits after the enqueue returns: look a moment later.
    setTimeout(() => this.wake?.(), 100).unref();
  };

  constructor(opts: OutboxLoopOptions) {
    this.opts = opts;
  }

  get isRunning(): boolean {
    return this.loopPromise !== null;
  }

  start(): void {
    if (this.loopPromise) return;
    this.stopping = false;
    this.opts.wakeups.on('enqueued', this.onEnqueued);
    this.loopPromise = this.loop().finally(() => this.opts.wakeups.off('enqueued', this.onEnqueued));
  }

  async stop(): Promise<void> {
    if (!this.loopPromise) return;
    this.stopping = true;
    this.wake?.();
    await this.loopPromise;
    this.loopPromise = null;
  }

  private async loop(): Promise<void> {
    const pollMs = this.opts.pollMs ?? 5000;
    let idleMs = pollMs;
    while (!this.stopping) {
      try {
        const r = await this.opts.pass();
        idleMs = pollMs;
        // A full batch: there may be more due at once.
        if (r.claimed > 0 && r.claimed >= this.opts.batchSize) continue;
      } catch (err) {
        // The database is away: try again later, a little later each time.
        this.opts.log?.error({ error: this.opts.describe(err) }, `${this.opts.name}: dispatcher pass failed`);
        idleMs = Math.min(idleMs * 2, 60_000);
      }
      if (this.stopping) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, idleMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }
}
