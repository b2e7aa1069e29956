import type { Socket } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/**
 * A real SMTP server in the test process (smtp-server), for the outbox tests (issue 29): what arrives is
 * parsed with mailparser (headers, text, html, attachments). It can be stopped in the middle of a batch
 * (`stopAfter(n)`: after the n-th accepted message it answers 421 to what follows, then closes every
 * connection and stops listening) and started again on the same port.
 */
export interface TestSmtp {
  port: number;
  /** `smtp://127.0.0.1:<port>` (with the credentials when the server requires them). */
  url: string;
  /** Every accepted message, parsed, in arrival order. */
  messages: ParsedMail[];
  /** Refuse (550) the recipients for which this says true. */
  rejectRecipient: ((address: string) => boolean) | null;
  /** After `n` more accepted messages, the server goes down (see above). */
  stopAfter(n: number): void;
  /** Whether it is listening. */
  readonly running: boolean;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Resolves when `n` messages have arrived in all (rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  /** Resolves with the first message that satisfies `match` (already arrived or arriving within `timeoutMs`). */
  waitForMessage(match: (m: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

export async function startTestSmtp(opts: { user?: string; password?: string; port?: number } = {}): Promise<TestSmtp> {
  const messages: ParsedMail[] = [];
  const sockets = new Set<Socket>();
  let server: SMTPServer | null = null;
  let refusing = false;
  let remaining: number | null = null;
  let port = opts.port ?? 0;
  const waiters: { n: number; resolve: () => void }[] = [];

  const options: SMTPServerOptions = {
    logger: false,
    disabledCommands: opts.user ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !opts.user,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === opts.user && auth.password === opts.password) return callback(null, { user: auth.username });
      return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      if (t.rejectRecipient?.(address.address)) {
        return callback(Object.assign(new Error(`Mailbox ${address.address} unavailable`), { responseCode: 550 }));
      }
      callback();
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refusing) {
          return callback(Object.assign(new Error('Service shutting down'), { responseCode: 421 }));
        }
        const raw = Buffer.concat(chunks);
        callback();
        void simpleParser(raw).then((parsed) => {
          messages.push(parsed);
          for (const w of [...waiters]) {
            if (messages.length >= w.n) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve();
            }
          }
        });
        if (remaining !== null && --remaining <= 0) {
          remaining = null;
          // Accepted (its 250 is on the wire); everything after this is refused, then the server goes away.
          refusing = true;
          setTimeout(() => void t.stop(), 50);
        }
      });
    },
  };

  const listen = async () => {
    refusing = false;
    const s = new SMTPServer(options);
    s.on('error', () => {});
    (s as unknown as { server: import('node:net').Server }).server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      s.listen(port, '127.0.0.1', () => resolve());
      (s as unknown as { server: import('node:net').Server }).server.once('error', reject);
    });
    port = ((s as unknown as { server: import('node:net').Server }).server.address() as { port: number }).port;
    server = s;
  };

  const t: TestSmtp = {
    get port() {
      return port;
    },
    get url() {
      const auth = opts.user ? `${encodeURIComponent(opts.user)}:${encodeURIComponent(opts.password ?? '')}@` : '';
      return `smtp://${auth}127.0.0.1:${port}`;
    },
    messages,
    rejectRecipient: null,
    get running() {
      return server !== null;
    },
    stopAfter(n) {
      remaining = n;
    },
    async stop() {
      const s = server;
      if (!s) return;
      server = null;
      refusing = true;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      await new Promise<void>((resolve) => (s as unknown as { server: import('node:net').Server }).server.close(() => resolve()));
    },
    async start() {
      if (!server) await listen();
    },
    waitFor(n, timeoutMs = 15_000) {
      if (messages.length >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const w = { n, resolve };
        waiters.push(w);
        setTimeout(() => {
          const i = waiters.indexOf(w);
          if (i >= 0) {
            waiters.splice(i, 1);
            reject(new Error(`smtp: ${messages.length} of ${n} messages arrived`));
          }
        }, timeoutMs).unref();
      });
    },
    async waitForMessage(match, timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(match);
        if (found) return found;
        if (Date.now() > end) throw new Error('smtp: the expected message did not arrive');
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      await t.stop();
    },
  };
  await listen();
  return t;
}

/** A message's Message-ID header as sent (`<outbox-12@host>`). */
export const messageIdOf = (m: ParsedMail): string => m.messageId ?? '';
