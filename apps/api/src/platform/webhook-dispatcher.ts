import http from 'node:http';
import https from 'node:https';
import { WEBHOOK_HEADERS } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, rowsOf } from '../db/client.ts';
import { type ClaimedOutboxRow, type OutboxBatchOptions, type OutboxBatchResult, OutboxLoop, sendOutbox } from './outbox.ts';
import { literalHostAllowed, openWebhookSecret, signWebhook, webhookLookup, webhookWakeups } from './webhooks.ts';

/**
 * Webhooks' sender on the one outbox dispatcher (issue 30; platform/outbox.ts: claims under a lease, back-off up
 * to WEBHOOK_MAX_ATTEMPTS, at least once): POSTs each signed body to its endpoint's URL (10 s timeout, redirects
 * not followed). A delivery sent again after a process died keeps its X-Aporta-Delivery — receivers deduplicate
 * by it (docs/integraciones.md).
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

export interface SendWebhooksOptions extends OutboxBatchOptions {
  timeoutMs?: number;
  poster?: WebhookPoster;
  /** The User-Agent (`Aporta-Webhooks/1`). */
  userAgent?: string;
}

export type SendWebhooksResult = OutboxBatchResult;

interface ClaimedDelivery extends ClaimedOutboxRow {
  payload: unknown;
  endpoint_id: number;
  url: string;
  secret: string;
  is_active: boolean;
}

const describe = (err: unknown) => {
  const e = err as { code?: string; message?: string };
  const m = (e?.message || String(err)).replace(/\s+/g, ' ').trim();
  return (e?.code && !m.includes(e.code) ? `${e.code}: ${m}` : m).slice(0, 1000);
};

/**
 * One batch of webhook deliveries on the one outbox dispatcher (platform/outbox.ts): POSTs each signed body to
 * its endpoint's URL; a 2xx answer marks it SENT, anything else is retried with a back-off, then FAILED. The
 * answer's status and first 2 KB are kept.
 */
export function sendWebhookBatch(db: Db, opts: SendWebhooksOptions = {}): Promise<SendWebhooksResult> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const poster = opts.poster ?? postWebhook;
  const answered = (a: WebhookAnswer | null) => sql`response_status = ${a?.status ?? null}, response_body = ${a?.body ?? null}`;
  return sendOutbox<ClaimedDelivery>(
    db,
    {
      table: 'webhook_deliveries',
      name: 'webhooks',
      returning: sql`o.payload, o.endpoint_id`,
      // The endpoint as it is now: its URL, secret and whether it is still on.
      async load(rows) {
        const ids = [...new Set(rows.map((r) => Number(r.endpoint_id)))];
        const endpoints = rowsOf<{ id: number; url: string; secret: string; is_active: boolean }>(
          await db.execute(sql`SELECT id, url, secret, is_active FROM webhook_endpoints
            WHERE id IN (${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )})`),
        );
        const byId = new Map(endpoints.map((e) => [Number(e.id), e]));
        return rows.map((r) => {
          const e = byId.get(Number(r.endpoint_id))!;
          return { ...r, url: e.url, secret: e.secret, is_active: e.is_active };
        });
      },
      metrics: { sent: 'webhooksSent', failed: 'webhooksFailed' },
      describe: (err) => ({ error: describe(err), permanent: false }),
      async send(row) {
        if (!row.is_active) return { sent: false, error: 'El webhook está desactivado.', permanent: true, notATry: true };
        let secret: string;
        try {
          secret = openWebhookSecret(row.secret);
        } catch (err) {
          return { sent: false, error: describe(err), permanent: true };
        }
        const body = JSON.stringify(row.payload);
        const timestamp = Math.floor(Date.now() / 1000);
        let answer: WebhookAnswer;
        try {
          answer = await poster({
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
        } catch (err) {
          // No answer: the last one kept is cleared (it was of an earlier try).
          return { sent: false, error: describe(err), set: answered(null) };
        }
        const kept = { status: answer.status, body: answer.body.slice(0, MAX_RESPONSE_BYTES) };
        if (kept.status >= 200 && kept.status < 300)
          return { sent: true, set: sql`delivered_at = now(), attempts = attempts + 1, last_error = NULL, ${answered(kept)}` };
        return { sent: false, error: `HTTP ${kept.status}`, set: answered(kept) };
      },
    },
    { ...opts, concurrency: opts.concurrency ?? 4 },
  );
}

export interface WebhookDispatcherOptions {
  db: Db;
  maxAttempts?: number;
  /** How often deliveries are looked at when nothing woke the dispatcher (default 5 s). */
  pollMs?: number;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  batch?: Omit<SendWebhooksOptions, 'log' | 'maxAttempts'>;
}

/** Sends webhook deliveries in this process while started (buildApp starts it where jobs run). */
export class WebhookDispatcher {
  private readonly opts: WebhookDispatcherOptions;
  private readonly loop: OutboxLoop;

  constructor(opts: WebhookDispatcherOptions) {
    this.opts = opts;
    this.loop = new OutboxLoop({
      name: 'webhooks',
      pass: () => this.runOnce(),
      batchSize: opts.batch?.batchSize ?? 20,
      wakeups: webhookWakeups,
      pollMs: opts.pollMs,
      log: opts.log,
      describe,
    });
  }

  get isRunning(): boolean {
    return this.loop.isRunning;
  }

  async start(): Promise<void> {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Sends what is due now (one pass), for a test. */
  runOnce(): Promise<SendWebhooksResult> {
    return sendWebhookBatch(this.opts.db, { ...this.opts.batch, maxAttempts: this.opts.maxAttempts, log: this.opts.log });
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's webhook dispatcher (started with the job worker; not in tests unless a test starts it). */
    webhooks: WebhookDispatcher;
  }
}
