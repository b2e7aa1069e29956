import http from 'node:http';
import https from 'node:https';
import { WEBHOOK_HEADERS } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, rowsOf } from '../db/client.ts';
import { countMetric } from './metrics.ts';
import { literalHostAllowed, openWebhookSecret, signWebhook, webhookLookup, webhookWakeups } from './webhooks.ts';

/**
 * The webhooks' dispatcher (issue 30), in the style of the mail outbox's (platform/mail-dispatcher.ts): claims
 * due PENDING deliveries (and SENDING ones whose lease ran out) with `FOR UPDATE SKIP LOCKED` under a lease, so
 * several processes may run it; POSTs each signed body to its endpoint's URL (10 s timeout, redirects not
 * followed); a 2xx answer marks it SENT, anything else puts it back with an exponential back-off (1, 2, 4…
 * minutes, capped at an hour) until WEBHOOK_MAX_ATTEMPTS, then FAILED. The answer's status and first 2 KB are
 * kept. At least once: a process that dies after the POST leaves a lease that runs out, and the same delivery
 * (same X-Aporta-Delivery) is sent again — receivers deduplicate by it (docs/integraciones.md).
 */

export interface WebhookPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}
export interface WebhookAnswer {
  status: number;
  body: string;
}
/** How a delivery is POSTed: node's http(s) with the checked lookup, or a test's. */
export type WebhookPoster = (post: WebhookPost) => Promise<WebhookAnswer>;

const MAX_RESPONSE_BYTES = 2048;

/** POSTs with node's http/https: the lookup refuses private addresses in production, the answer is read up to 2 KB. */
export const postWebhook: WebhookPoster = (post) =>
  new Promise((resolve, reject) => {
    const u = new URL(post.url);
    if (!literalHostAllowed(u.hostname)) {
      reject(Object.assign(new Error(`Dirección privada: ${u.hostname}`), { code: 'EPRIVATE' }));
      return;
    }
    const client = u.protocol === 'https:' ? https : http;
    const req = client.request(
      u,
      {
        method: 'POST',
        headers: { ...post.headers, 'content-length': Buffer.byteLength(post.body) },
        lookup: webhookLookup as never,
        timeout: post.timeoutMs,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < MAX_RESPONSE_BYTES) chunks.push(c.subarray(0, MAX_RESPONSE_BYTES - size));
          size += c.length;
          if (size >= MAX_RESPONSE_BYTES) res.destroy();
        });
        const done = () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    // The whole exchange, not only silence on the socket, ends at the timeout.
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error('Tiempo de espera agotado'), { code: 'ETIMEDOUT' })),
      post.timeoutMs,
    );
    req.on('close', () => clearTimeout(timer));
    req.on('timeout', () => req.destroy(Object.assign(new Error('Tiempo de espera agotado'), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(post.body);
  });

export interface SendWebhooksOptions {
  batchSize?: number;
  leaseMs?: number;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  concurrency?: number;
  timeoutMs?: number;
  poster?: WebhookPoster;
  /** The User-Agent (`Aporta-Webhooks/1`). */
  userAgent?: string;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

export interface SendWebhooksResult {
  claimed: number;
  sent: number;
  retried: number;
  failed: number;
  released: number;
}

interface ClaimedDelivery {
  id: number;
  event: string;
  payload: unknown;
  attempts: number;
  url: string;
  secret: string;
  is_active: boolean;
}

const describe = (err: unknown) => {
  const e = err as { code?: string; message?: string };
  const m = (e?.message || String(err)).replace(/\s+/g, ' ').trim();
  return (e?.code && !m.includes(e.code) ? `${e.code}: ${m}` : m).slice(0, 1000);
};

/** One batch: claims due deliveries, POSTs each and marks it SENT, back to PENDING with a back-off, or FAILED. */
export async function sendWebhookBatch(db: Db, opts: SendWebhooksOptions = {}): Promise<SendWebhooksResult> {
  const batchSize = opts.batchSize ?? 20;
  const leaseMs = opts.leaseMs ?? 5 * 60_000;
  const maxAttempts = opts.maxAttempts ?? 8;
  const baseDelayMs = opts.baseDelayMs ?? 60_000;
  const maxDelayMs = opts.maxDelayMs ?? 60 * 60_000;
  const concurrency = Math.max(1, opts.concurrency ?? 4);
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const poster = opts.poster ?? postWebhook;
  const result: SendWebhooksResult = { claimed: 0, sent: 0, retried: 0, failed: 0, released: 0 };

  const claimedAt = Date.now();
  // A delivery whose lease ran out was in flight in a process that died: that counts as an attempt.
  const rows = rowsOf<ClaimedDelivery>(
    await db.execute(sql`
      WITH claimed AS (
        UPDATE webhook_deliveries d
           SET state = 'SENDING',
               lease_until = now() + ${leaseMs}::int * interval '1 millisecond',
               attempts = d.attempts + CASE WHEN d.state = 'SENDING' THEN 1 ELSE 0 END
         WHERE d.id IN (
               SELECT id FROM webhook_deliveries
                WHERE (state = 'PENDING' AND next_attempt_at <= now())
                   OR (state = 'SENDING' AND lease_until < now())
                ORDER BY next_attempt_at, id
                LIMIT ${batchSize}
                  FOR UPDATE SKIP LOCKED)
     RETURNING d.id, d.event, d.payload, d.attempts, d.endpoint_id)
      SELECT c.id, c.event, c.payload, c.attempts, e.url, e.secret, e.is_active
        FROM claimed c JOIN webhook_endpoints e ON e.id = c.endpoint_id
       ORDER BY c.id`),
  );
  result.claimed = rows.length;
  if (rows.length === 0) return result;
  const deadline = claimedAt + leaseMs - Math.max(1000, leaseMs / 4);

  const fail = async (row: ClaimedDelivery, attempts: number, error: string, answer?: WebhookAnswer) => {
    await db.execute(sql`
      UPDATE webhook_deliveries
         SET state = 'FAILED', attempts = ${attempts}, lease_until = NULL, last_error = ${error},
             response_status = ${answer?.status ?? null}, response_body = ${answer?.body ?? null}
       WHERE id = ${row.id} AND state = 'SENDING'`);
    result.failed++;
    countMetric('webhooksFailed', { event: row.event });
    opts.log?.warn({ deliveryId: row.id, attempts, error }, 'webhooks: delivery failed for good');
  };
  const retryOrFail = async (row: ClaimedDelivery, error: string, answer?: WebhookAnswer) => {
    const attempts = Number(row.attempts) + 1;
    if (attempts >= maxAttempts) return fail(row, attempts, error, answer);
    const delay = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempts - 1));
    await db.execute(sql`
      UPDATE webhook_deliveries
         SET state = 'PENDING', attempts = ${attempts}, lease_until = NULL, last_error = ${error},
             response_status = ${answer?.status ?? null}, response_body = ${answer?.body ?? null},
             next_attempt_at = now() + ${delay}::int * interval '1 millisecond'
       WHERE id = ${row.id} AND state = 'SENDING'`);
    result.retried++;
  };

  const sendOne = async (row: ClaimedDelivery) => {
    if (Date.now() > deadline) {
      await db.execute(sql`
        UPDATE webhook_deliveries SET state = 'PENDING', lease_until = NULL WHERE id = ${row.id} AND state = 'SENDING'`);
      result.released++;
      return;
    }
    if (!row.is_active) return fail(row, Number(row.attempts), 'El webhook está desactivado.');
    if (Number(row.attempts) >= maxAttempts)
      return fail(row, Number(row.attempts), 'Sin confirmación del envío tras agotar los intentos.');
    let secret: string;
    try {
      secret = openWebhookSecret(row.secret);
    } catch (err) {
      return fail(row, Number(row.attempts) + 1, describe(err));
    }
    const body = JSON.stringify(row.payload);
    const timestamp = Math.floor(Date.now() / 1000);
    try {
      const answer = await poster({
        url: row.url,
        body,
        timeoutMs,
        headers: {
          'content-type': 'application/json',
          'user-agent': opts.userAgent ?? 'Aporta-Webhooks/1',
          [WEBHOOK_HEADERS.event.toLowerCase()]: row.event,
          [WEBHOOK_HEADERS.delivery.toLowerCase()]: String(row.id),
          [WEBHOOK_HEADERS.timestamp.toLowerCase()]: String(timestamp),
          [WEBHOOK_HEADERS.signature.toLowerCase()]: signWebhook(secret, timestamp, body),
        },
      });
      const answerKept = { status: answer.status, body: answer.body.slice(0, MAX_RESPONSE_BYTES) };
      if (answer.status >= 200 && answer.status < 300) {
        await db.execute(sql`
          UPDATE webhook_deliveries
             SET state = 'SENT', delivered_at = now(), attempts = attempts + 1, lease_until = NULL, last_error = NULL,
                 response_status = ${answerKept.status}, response_body = ${answerKept.body}
           WHERE id = ${row.id} AND state = 'SENDING'`);
        result.sent++;
        countMetric('webhooksSent', { event: row.event });
      } else {
        await retryOrFail(row, `HTTP ${answer.status}`, answerKept);
      }
    } catch (err) {
      await retryOrFail(row, describe(err));
    }
  };

  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, rows.length) }, async () => {
    while (next < rows.length) await sendOne(rows[next++]);
  });
  await Promise.all(lanes);
  return result;
}

export interface WebhookDispatcherOptions {
  db: Db;
  maxAttempts?: number;
  /** How often deliveries are looked at when nothing woke the dispatcher (default 5 s). */
  pollMs?: number;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  batch?: Omit<SendWebhooksOptions, 'log' | 'maxAttempts'>;
}

/** Runs `sendWebhookBatch` in a loop in this process while started (buildApp starts it where jobs run). */
export class WebhookDispatcher {
  private readonly opts: WebhookDispatcherOptions;
  private loopPromise: Promise<void> | null = null;
  private stopping = false;
  private wake: (() => void) | null = null;
  private readonly onEnqueued = () => {
    // The delivery's transaction commits after enqueueWebhook returns: look a moment later.
    setTimeout(() => this.wake?.(), 100).unref();
  };

  constructor(opts: WebhookDispatcherOptions) {
    this.opts = opts;
  }

  get isRunning(): boolean {
    return this.loopPromise !== null;
  }

  async start(): Promise<void> {
    if (this.loopPromise) return;
    this.stopping = false;
    webhookWakeups.on('enqueued', this.onEnqueued);
    this.loopPromise = this.loop().finally(() => webhookWakeups.off('enqueued', this.onEnqueued));
  }

  async stop(): Promise<void> {
    if (!this.loopPromise) return;
    this.stopping = true;
    this.wake?.();
    await this.loopPromise;
    this.loopPromise = null;
  }

  /** Sends what is due now (one pass), for a test. */
  runOnce(): Promise<SendWebhooksResult> {
    return sendWebhookBatch(this.opts.db, this.batchOptions());
  }

  private batchOptions(): SendWebhooksOptions {
    return { ...this.opts.batch, maxAttempts: this.opts.maxAttempts, log: this.opts.log };
  }

  private async loop(): Promise<void> {
    const pollMs = this.opts.pollMs ?? 5000;
    let idleMs = pollMs;
    while (!this.stopping) {
      try {
        const r = await sendWebhookBatch(this.opts.db, this.batchOptions());
        idleMs = pollMs;
        if (r.claimed > 0 && r.claimed >= (this.opts.batch?.batchSize ?? 20)) continue;
      } catch (err) {
        this.opts.log?.error({ error: describe(err) }, 'webhooks: dispatcher pass failed');
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

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's webhook dispatcher (started with the job worker; not in tests unless a test starts it). */
    webhooks: WebhookDispatcher;
  }
}
