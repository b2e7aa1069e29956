import { AppError, msg } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { type Db, rowsOf } from '../db/client.ts';
import type { StoredMailAttachment } from '../db/schema/index.ts';
import { getBlob } from './blobs.ts';
import type { FileStore } from './files.ts';
import { mailAttachmentRenderer, mailWakeups } from './mail.ts';
import { countMetric } from './metrics.ts';

/**
 * The outbox's dispatcher (issue 29): sends the PENDING rows of `mail_outbox` whose time has come through
 * SMTP (nodemailer). Rows are claimed in batches with `FOR UPDATE SKIP LOCKED` and held SENDING under a
 * lease, so several processes may run it; each row is marked SENT right after the server accepted it, in the
 * claim that sent it. A failure is retried with an exponential back-off (1, 2, 4… minutes, capped at an hour)
 * up to MAIL_MAX_ATTEMPTS; a permanent refusal (an SMTP 5xx answer) fails at once. A process that dies after
 * sending but before marking leaves a lease that runs out: the row is sent again with the same Message-ID
 * (fixed at the first claim), which the receiving side can recognise — at least once, never lost
 * (docs/decisions.md, issue 29).
 */

/** What the dispatcher needs of a transport (nodemailer's, or a test's). */
export interface MailTransport {
  sendMail(message: SendMailOptions): Promise<{ accepted?: unknown[]; rejected?: unknown[]; response?: string }>;
  close?(): void;
}

/** `host:port` of an SMTP URL: the only part of it that is ever logged. */
export function smtpHostOf(smtpUrl: string): string {
  try {
    const u = new URL(smtpUrl);
    return `${u.hostname}:${u.port || (u.protocol === 'smtps:' ? '465' : '587')}`;
  } catch {
    return '(SMTP_URL inválida)';
  }
}

/** The user and password of an SMTP URL (decoded), to keep them out of every error text. */
function smtpSecretsOf(smtpUrl: string): string[] {
  try {
    const u = new URL(smtpUrl);
    return [u.username, u.password, decodeURIComponent(u.username), decodeURIComponent(u.password)].filter((s) => s.length >= 3);
  } catch {
    return [];
  }
}

/**
 * A pooled nodemailer transport from SMTP_URL (`smtp://user:pass@host:port`, `smtps://…` for TLS from the
 * start; `?tls=insecure` accepts a self-signed certificate), with timeouts so a silent server never holds a
 * batch: 10 s to connect and greet, 60 s of silence per socket.
 */
export function createMailTransport(smtpUrl: string): MailTransport {
  const u = new URL(smtpUrl);
  const secure = u.protocol === 'smtps:';
  const user = decodeURIComponent(u.username);
  const pass = decodeURIComponent(u.password);
  return nodemailer.createTransport({
    host: u.hostname,
    port: Number(u.port) || (secure ? 465 : 587),
    secure,
    auth: user ? { user, pass } : undefined,
    pool: true,
    maxConnections: 3,
    maxMessages: 100,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
    tls: u.searchParams.get('tls') === 'insecure' ? { rejectUnauthorized: false } : undefined,
    logger: false,
    debug: false,
  });
}

export interface SendOutboxOptions {
  /** The sender (MAIL_FROM). */
  from: string;
  /** The right-hand side of Message-IDs (`<outbox-<id>@<host>>`). */
  host: string;
  /** Rows claimed at once (default 20). */
  batchSize?: number;
  /** How long a claim holds its rows (default 5 minutes); a row is not started with less than a quarter left. */
  leaseMs?: number;
  /** Attempts before FAILED (default 8). */
  maxAttempts?: number;
  /** First retry delay (default 1 minute), doubled per attempt up to `maxDelayMs` (default 1 hour). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Messages sent at once within a batch (default 3, the pool's connections). */
  concurrency?: number;
  /** For blob attachments. */
  files?: FileStore;
  /** Strings never written to `last_error` or logs (the SMTP credentials). */
  secrets?: string[];
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

export interface SendOutboxResult {
  claimed: number;
  sent: number;
  retried: number;
  failed: number;
  /** Given back unsent because the claim's lease was running out. */
  released: number;
}

interface ClaimedRow {
  id: number;
  event: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  attachments: StoredMailAttachment[];
  message_id: string;
  attempts: number;
}

/** A failure that no retry can mend (an SMTP 5xx answer, an unknown attachment renderer). */
class PermanentMailError extends Error {}

const redact = (text: string, secrets: readonly string[]) =>
  secrets.reduce((t, s) => (s ? t.split(s).join('***') : t), text).slice(0, 1000);

function describe(err: unknown): { text: string; permanent: boolean } {
  const e = err as { responseCode?: number; code?: string; message?: string; response?: string };
  if (err instanceof PermanentMailError) return { text: err.message, permanent: true };
  const code = typeof e?.responseCode === 'number' ? e.responseCode : undefined;
  const message = (e?.response || e?.message || String(err)).replace(/\s+/g, ' ').trim();
  if (code !== undefined) return { text: `SMTP ${code}: ${message}`, permanent: code >= 500 && code < 600 };
  return { text: e?.code ? `${e.code}: ${message}` : message, permanent: false };
}

async function attachmentsOf(db: Db, files: FileStore | undefined, stored: StoredMailAttachment[]) {
  const out: { filename: string; contentType: string; content: Buffer }[] = [];
  for (const a of stored) {
    if (a.kind === 'render') {
      const render = mailAttachmentRenderer(a.renderer);
      if (!render) throw new PermanentMailError(msg('mail.attachmentRendererUnknown', { renderer: a.renderer }).text);
      try {
        out.push(await render(db, a.id));
      } catch (err) {
        // The record is gone or not printable: no retry brings it back.
        if (err instanceof AppError && (err.code === 'NOT_FOUND' || err.code === 'VALIDATION')) {
          throw new PermanentMailError(`Adjunto «${a.renderer}» ${a.id}: ${err.message}`);
        }
        throw err;
      }
    } else {
      if (!files) throw new Error('Adjunto: no hay almacenamiento de archivos configurado.');
      out.push({ filename: a.filename, contentType: a.contentType, content: await getBlob(files, a.sha256) });
    }
  }
  return out;
}

/**
 * One batch: claims up to `batchSize` rows (PENDING and due, or SENDING with a lease that ran out), sends
 * each and marks it SENT, back to PENDING with a back-off, or FAILED. For the dispatcher and for tests.
 */
export async function sendOutboxBatch(db: Db, transport: MailTransport, opts: SendOutboxOptions): Promise<SendOutboxResult> {
  const batchSize = opts.batchSize ?? 20;
  const leaseMs = opts.leaseMs ?? 5 * 60_000;
  const maxAttempts = opts.maxAttempts ?? 8;
  const baseDelayMs = opts.baseDelayMs ?? 60_000;
  const maxDelayMs = opts.maxDelayMs ?? 60 * 60_000;
  const concurrency = Math.max(1, opts.concurrency ?? 3);
  const secrets = opts.secrets ?? [];
  const host = opts.host.replace(/[^A-Za-z0-9.-]/g, '') || 'aporta.local';
  const result: SendOutboxResult = { claimed: 0, sent: 0, retried: 0, failed: 0, released: 0 };

  const claimedAt = Date.now();
  // A row whose lease ran out was in flight in a process that died: that counts as an attempt.
  const rows = rowsOf<ClaimedRow>(
    await db.execute(sql`
      UPDATE mail_outbox o
         SET state = 'SENDING',
             lease_until = now() + ${leaseMs}::int * interval '1 millisecond',
             attempts = o.attempts + CASE WHEN o.state = 'SENDING' THEN 1 ELSE 0 END,
             message_id = coalesce(o.message_id, '<outbox-' || o.id || '@' || ${host}::text || '>')
       WHERE o.id IN (
             SELECT id FROM mail_outbox
              WHERE (state = 'PENDING' AND next_attempt_at <= now())
                 OR (state = 'SENDING' AND lease_until < now())
              ORDER BY next_attempt_at, id
              LIMIT ${batchSize}
                FOR UPDATE SKIP LOCKED)
   RETURNING o.id, o.event, o."to", o.subject, o.text, o.html, o.attachments, o.message_id, o.attempts`),
  );
  result.claimed = rows.length;
  if (rows.length === 0) return result;
  const deadline = claimedAt + leaseMs - Math.max(1000, leaseMs / 4);

  const markSent = (id: number, note: string | null) =>
    db.execute(sql`
      UPDATE mail_outbox SET state = 'SENT', sent_at = now(), lease_until = NULL, last_error = ${note}
       WHERE id = ${id} AND state = 'SENDING'`);
  const markFailure = async (row: ClaimedRow, err: unknown) => {
    const { text, permanent } = describe(err);
    const attempts = Number(row.attempts) + 1;
    const error = redact(text, secrets);
    if (permanent || attempts >= maxAttempts) {
      await db.execute(sql`
        UPDATE mail_outbox SET state = 'FAILED', attempts = ${attempts}, lease_until = NULL, last_error = ${error}
         WHERE id = ${row.id} AND state = 'SENDING'`);
      result.failed++;
      countMetric('emailsFailed', { event: row.event });
      opts.log?.warn({ outboxId: row.id, attempts, error }, 'mail: message failed for good');
    } else {
      const delay = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempts - 1));
      await db.execute(sql`
        UPDATE mail_outbox
           SET state = 'PENDING', attempts = ${attempts}, lease_until = NULL, last_error = ${error},
               next_attempt_at = now() + ${delay}::int * interval '1 millisecond'
         WHERE id = ${row.id} AND state = 'SENDING'`);
      result.retried++;
    }
  };

  const sendOne = async (row: ClaimedRow) => {
    if (Date.now() > deadline) {
      // Not started: give it back untouched rather than risk a second process sending it too.
      await db.execute(sql`
        UPDATE mail_outbox SET state = 'PENDING', lease_until = NULL WHERE id = ${row.id} AND state = 'SENDING'`);
      result.released++;
      return;
    }
    if (Number(row.attempts) >= maxAttempts) {
      await markFailure(
        { ...row, attempts: Number(row.attempts) - 1 },
        new PermanentMailError('Sin confirmación del envío tras agotar los intentos.'),
      );
      return;
    }
    try {
      const attachments = await attachmentsOf(db, opts.files, row.attachments ?? []);
      const info = await transport.sendMail({
        from: opts.from,
        to: row.to,
        subject: row.subject,
        text: row.text,
        html: row.html,
        messageId: row.message_id,
        attachments,
        headers: { 'Auto-Submitted': 'auto-generated', 'X-Aporta-Event': row.event },
      });
      const rejected = (info.rejected ?? []).map(String);
      await markSent(row.id, rejected.length ? redact(`Rechazados por el servidor: ${rejected.join(', ')}`, secrets) : null);
      result.sent++;
      countMetric('emailsSent', { event: row.event });
    } catch (err) {
      await markFailure(row, err);
    }
  };

  // A few at once (the pool's connections), in claim order.
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, rows.length) }, async () => {
    while (next < rows.length) {
      const row = rows[next++];
      await sendOne(row);
    }
  });
  await Promise.all(lanes);
  return result;
}

export interface MailDispatcherOptions {
  db: Db;
  files?: FileStore;
  /** Without it the dispatcher does nothing: mail stays PENDING in the outbox. */
  smtpUrl?: string;
  from: string;
  host: string;
  maxAttempts?: number;
  /** How often the outbox is looked at when nothing woke the dispatcher (default 5 s). */
  pollMs?: number;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** A transport instead of SMTP_URL's (tests). */
  transport?: MailTransport;
  batch?: Partial<Omit<SendOutboxOptions, 'from' | 'host' | 'files' | 'secrets' | 'log'>>;
}

/** Runs `sendOutboxBatch` in a loop in this process while started (buildApp starts it where jobs run). */
export class MailDispatcher {
  private readonly opts: MailDispatcherOptions;
  private transport: MailTransport | null = null;
  private loopPromise: Promise<void> | null = null;
  private stopping = false;
  private wake: (() => void) | null = null;
  private readonly onEnqueued = () => {
    // The mail's transaction commits after enqueueMail returns: look a moment later.
    setTimeout(() => this.wake?.(), 100).unref();
  };

  constructor(opts: MailDispatcherOptions) {
    this.opts = opts;
  }

  /** Whether mail is sent from this installation (SMTP_URL set); otherwise it stays in the outbox. */
  get enabled(): boolean {
    return !!(this.opts.smtpUrl || this.opts.transport);
  }

  get isRunning(): boolean {
    return this.loopPromise !== null;
  }

  async start(): Promise<void> {
    if (this.loopPromise) return;
    if (!this.enabled) {
      this.opts.log?.info('mail: SMTP_URL not set; mail is kept in the outbox («Correo saliente») and not sent');
      return;
    }
    this.transport = this.opts.transport ?? createMailTransport(this.opts.smtpUrl!);
    if (this.opts.smtpUrl) this.opts.log?.info({ smtp: smtpHostOf(this.opts.smtpUrl) }, 'mail: sending through SMTP');
    this.stopping = false;
    mailWakeups.on('enqueued', this.onEnqueued);
    this.loopPromise = this.loop().finally(() => mailWakeups.off('enqueued', this.onEnqueued));
  }

  async stop(): Promise<void> {
    if (!this.loopPromise) return;
    this.stopping = true;
    this.wake?.();
    await this.loopPromise;
    this.loopPromise = null;
    if (!this.opts.transport) this.transport?.close?.();
    this.transport = null;
  }

  /** Sends what is due now (one pass of the loop), for a test or an administrator's "send now". */
  async runOnce(): Promise<SendOutboxResult> {
    const transport = this.transport ?? this.opts.transport;
    if (!transport) return { claimed: 0, sent: 0, retried: 0, failed: 0, released: 0 };
    return sendOutboxBatch(this.opts.db, transport, this.batchOptions());
  }

  private batchOptions(): SendOutboxOptions {
    return {
      ...this.opts.batch,
      from: this.opts.from,
      host: this.opts.host,
      files: this.opts.files,
      maxAttempts: this.opts.batch?.maxAttempts ?? this.opts.maxAttempts,
      secrets: this.opts.smtpUrl ? smtpSecretsOf(this.opts.smtpUrl) : [],
      log: this.opts.log,
    };
  }

  private async loop(): Promise<void> {
    const pollMs = this.opts.pollMs ?? 5000;
    let idleMs = pollMs;
    while (!this.stopping) {
      try {
        const r = await sendOutboxBatch(this.opts.db, this.transport!, this.batchOptions());
        idleMs = pollMs;
        // A full batch: there may be more due at once.
        if (r.claimed > 0 && r.claimed >= (this.opts.batch?.batchSize ?? 20)) continue;
      } catch (err) {
        // The database is away: try again later, a little later each time.
        const secrets = this.opts.smtpUrl ? smtpSecretsOf(this.opts.smtpUrl) : [];
        this.opts.log?.error({ error: redact(describe(err).text, secrets) }, 'mail: dispatcher pass failed');
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

/** The right-hand side of Message-IDs: PUBLIC_URL's host, else MAIL_FROM's domain, else aporta.local. */
export function messageIdHost(publicUrl: string | undefined, from: string): string {
  if (publicUrl) {
    try {
      return new URL(publicUrl).hostname;
    } catch {}
  }
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1];
  return domain || 'aporta.local';
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's outbox dispatcher (started with the job worker; not in tests unless a test starts it). */
    mail: MailDispatcher;
  }
}
