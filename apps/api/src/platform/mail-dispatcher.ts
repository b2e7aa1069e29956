import { AppError, msg } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { Db } from '../db/client.ts';
import type { StoredMailAttachment } from '../db/schema/index.ts';
import { getBlob } from './blobs.ts';
import type { FileStore } from './files.ts';
import { mailAttachmentRenderer, mailWakeups } from './mail.ts';
import { type ClaimedOutboxRow, type OutboxBatchOptions, type OutboxBatchResult, OutboxLoop, sendOutbox } from './outbox.ts';

/**
 * E-mail's sender on the one outbox dispatcher (platform/outbox.ts: claims under a lease, back-off, at least
 * once): sends the due rows of `mail_outbox` through SMTP (nodemailer), each marked SENT right after the server
 * accepted it. Retried up to MAIL_MAX_ATTEMPTS; a permanent refusal (an SMTP 5xx answer) fails at once. A row
 * sent again after a process died keeps its Message-ID (fixed at the first claim), which the receiving side can
 * recognise (docs/decisions.md, issue 29).
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

export interface SendOutboxOptions extends OutboxBatchOptions {
  /** The sender (MAIL_FROM). */
  from: string;
  /** The right-hand side of Message-IDs (`<outbox-<id>@<host>>`). */
  host: string;
  /** For blob attachments. */
  files?: FileStore;
  /** Strings never written to `last_error` or logs (the SMTP credentials). */
  secrets?: string[];
}

export type SendOutboxResult = OutboxBatchResult;

interface ClaimedRow extends ClaimedOutboxRow {
  to: string[];
  subject: string;
  text: string;
  html: string;
  attachments: StoredMailAttachment[];
  message_id: string;
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
 * One batch of the outbox (platform/outbox.ts): claims up to `batchSize` rows (PENDING and due, or SENDING with
 * a lease that ran out), sends each through the transport and marks it SENT, back to PENDING with a back-off,
 * or FAILED. The Message-ID is fixed at the first claim. For the dispatcher and for tests.
 */
export function sendOutboxBatch(db: Db, transport: MailTransport, opts: SendOutboxOptions): Promise<SendOutboxResult> {
  const secrets = opts.secrets ?? [];
  const host = opts.host.replace(/[^A-Za-z0-9.-]/g, '') || 'aporta.local';
  return sendOutbox<ClaimedRow>(
    db,
    {
      table: 'mail_outbox',
      name: 'mail',
      claimSet: sql`message_id = coalesce(o.message_id, '<outbox-' || o.id || '@' || ${host}::text || '>')`,
      returning: sql`o."to", o.subject, o.text, o.html, o.attachments, o.message_id`,
      metrics: { sent: 'emailsSent', failed: 'emailsFailed' },
      describe: (err) => {
        const d = describe(err);
        return { error: redact(d.text, secrets), permanent: d.permanent };
      },
      async send(row) {
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
        const note = rejected.length ? redact(`Rechazados por el servidor: ${rejected.join(', ')}`, secrets) : null;
        return { sent: true, set: sql`sent_at = now(), last_error = ${note}` };
      },
    },
    { ...opts, concurrency: opts.concurrency ?? 3 },
  );
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

/** Sends the outbox through SMTP in this process while started (buildApp starts it where jobs run). */
export class MailDispatcher {
  private readonly opts: MailDispatcherOptions;
  private transport: MailTransport | null = null;
  private readonly loop: OutboxLoop;

  constructor(opts: MailDispatcherOptions) {
    this.opts = opts;
    const secrets = opts.smtpUrl ? smtpSecretsOf(opts.smtpUrl) : [];
    this.loop = new OutboxLoop({
      name: 'mail',
      pass: () => sendOutboxBatch(this.opts.db, this.transport!, this.batchOptions()),
      batchSize: opts.batch?.batchSize ?? 20,
      wakeups: mailWakeups,
      pollMs: opts.pollMs,
      log: opts.log,
      describe: (err) => redact(describe(err).text, secrets),
    });
  }

  /** Whether mail is sent from this installation (SMTP_URL set); otherwise it stays in the outbox. */
  get enabled(): boolean {
    return !!(this.opts.smtpUrl || this.opts.transport);
  }

  get isRunning(): boolean {
    return this.loop.isRunning;
  }

  async start(): Promise<void> {
    if (this.loop.isRunning) return;
    if (!this.enabled) {
      this.opts.log?.info('mail: SMTP_URL not set; mail is kept in the outbox («Correo saliente») and not sent');
      return;
    }
    this.transport = this.opts.transport ?? createMailTransport(this.opts.smtpUrl!);
    if (this.opts.smtpUrl) this.opts.log?.info({ smtp: smtpHostOf(this.opts.smtpUrl) }, 'mail: sending through SMTP');
    this.loop.start();
  }

  async stop(): Promise<void> {
    if (!this.loop.isRunning) return;
    await this.loop.stop();
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
