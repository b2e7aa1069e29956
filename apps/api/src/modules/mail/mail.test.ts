import { Buffer } from 'node:buffer';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { mailOutbox, mailPreferences } from '../../db/schema/index.ts';
import { putBlob } from '../../platform/blobs.ts';
import { enqueueMail, registerMailAttachment } from '../../platform/mail.ts';
import {
  createMailTransport,
  MailDispatcher,
  type MailTransport,
  type SendOutboxOptions,
  sendOutboxBatch,
} from '../../platform/mail-dispatcher.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { messageIdOf, startTestSmtp, type TestSmtp } from '../../test/smtp.ts';
import { notifyUsers } from '../notifications/service.ts';

const HOST = 'aporta.example.gt';
const FROM = '"Aporta" <no-responder@aporta.example.gt>';
const fast: SendOutboxOptions = { from: FROM, host: HOST, baseDelayMs: 20, maxDelayMs: 100, maxAttempts: 10, batchSize: 20 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let t: TestApp;
let smtp: TestSmtp;
let transport: MailTransport;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://aporta.example.gt', APP_TITLE: 'Plan de Prestaciones Municipal' });
  smtp = await startTestSmtp();
  transport = createMailTransport(smtp.url);
});
afterAll(async () => {
  transport?.close?.();
  await smtp?.close();
  await t?.close();
});

const db = () => t.database.db;

/** Sends everything due until nothing is left PENDING/SENDING (or the time is up). */
async function drain(opts: SendOutboxOptions = fast, ms = 20_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    await sendOutboxBatch(db(), transport, opts);
    const [{ n }] = rowsOf<{ n: number }>(
      await db().execute(sql`SELECT count(*)::int AS n FROM mail_outbox WHERE state IN ('PENDING', 'SENDING')`),
    );
    if (n === 0) return;
    await sleep(30);
  }
  throw new Error('outbox not drained');
}

async function outboxRows(ids: number[]) {
  return db().select().from(mailOutbox).where(inArray(mailOutbox.id, ids)).orderBy(mailOutbox.id);
}

describe('mail through notifications', () => {
  it('a notification with mail sends one message to the user, in their language, with the link', async () => {
    const user = await t.createUser();
    await db().insert(mailPreferences).values({ userId: user.id, language: 'en' });
    await db().transaction(async (tx) => {
      await notifyUsers({
        db: tx,
        userIds: [user.id, user.id],
        title: 'Planilla observada',
        link: '/planillas/12',
        mail: { event: 'planilla.observed', params: { entity: 'Municipalidad de Mixco <b>', period: '2026-10' } },
      });
    });
    const [row] = await db().select().from(mailOutbox).where(eq(mailOutbox.userId, user.id));
    expect(row).toMatchObject({ state: 'PENDING', language: 'en', to: [user.email], link: '/planillas/12', attempts: 0 });

    await drain();
    const m = await smtp.waitForMessage((x) => messageIdOf(x) === `<outbox-${row.id}@${HOST}>`);
    await sleep(100);
    expect(smtp.messages.filter((x) => x.subject === m.subject)).toHaveLength(1);
    expect(m.subject).toBe('Payroll sheet with observations: Municipalidad de Mixco <b>, October 2026');
    expect((m.to as { value: { address: string }[] }).value.map((v) => v.address)).toEqual([user.email]);
    expect(m.from?.value[0].address).toBe('no-responder@aporta.example.gt');
    expect(messageIdOf(m)).toBe(`<outbox-${row.id}@${HOST}>`);
    expect(m.text).toContain('The payroll sheet of Municipalidad de Mixco <b> for October 2026 received observations');
    expect(m.text).toContain('View the payroll sheet: https://aporta.example.gt/planillas/12');
    expect(m.text).toContain('Automatic message from Plan de Prestaciones Municipal.');
    // The HTML escapes the values and links back to the record.
    expect(m.html).toContain('Municipalidad de Mixco &lt;b&gt;');
    expect(m.html).not.toContain('Mixco <b>');
    expect(m.html).toContain('href="https://aporta.example.gt/planillas/12"');
    expect(m.headers.get('auto-submitted')).toBe('auto-generated');

    const [sent] = await outboxRows([row.id]);
    expect(sent).toMatchObject({ state: 'SENT', messageId: `<outbox-${row.id}@${HOST}>`, leaseUntil: null });
    expect(sent.sentAt).toBeInstanceOf(Date);
  });

  it("preference 'off' sends nothing; 'digest' keeps the mail for the digest; inactive users get none", async () => {
    const off = await t.createUser();
    const digest = await t.createUser();
    const inactive = await t.createUser({ isActive: false });
    await db()
      .insert(mailPreferences)
      .values([
        { userId: off.id, events: { 'job.finished': 'off' } },
        { userId: digest.id, language: 'fr', events: { 'job.finished': 'digest' } },
      ]);
    await db().transaction(async (tx) => {
      await notifyUsers({
        db: tx,
        userIds: [off.id, digest.id, inactive.id],
        title: 'Proceso terminado',
        link: '/procesos/1',
        mail: { event: 'job.finished', params: { job: 'Exportación de afiliados' } },
      });
    });
    const rows = await db()
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.userId, [off.id, digest.id, inactive.id]));
    expect(rows.map((r) => [r.userId, r.state, r.language])).toEqual([[digest.id, 'DIGEST', 'fr']]);
    const r = await sendOutboxBatch(db(), transport, fast);
    expect(r.claimed).toBe(0);
    // 'off' does not apply to the events a user cannot turn off.
    await db().transaction((tx) =>
      enqueueMail(tx, { event: 'auth.passwordReset', to: [off.email], userId: off.id, params: { name: 'X', minutes: 30 } }),
    );
    const [reset] = await db().select().from(mailOutbox).where(eq(mailOutbox.userId, off.id));
    expect(reset.state).toBe('PENDING');
    await drain();
  });

  it('a dedupe key queues once (per user through notifications)', async () => {
    const user = await t.createUser();
    const send = () =>
      db().transaction((tx) =>
        notifyUsers({
          db: tx,
          userIds: [user.id],
          title: 'Vence pronto',
          link: '/pagos/ordenes/5',
          mail: {
            event: 'order.dueSoon',
            params: { entity: 'Mixco', reference: 'OP-1', amount: 123456n, due: '2026-12-04', days: 3 },
            dedupeKey: 'order.dueSoon:5:2026-12-04',
          },
        }),
      );
    await send();
    await send();
    const rows = await db().select().from(mailOutbox).where(eq(mailOutbox.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].dedupeKey).toBe(`order.dueSoon:5:2026-12-04:u${user.id}`);
    expect(rows[0].text).toContain('Q 1,234.56');
    expect(rows[0].text).toContain('04/12/2026');
    const again = await db().transaction((tx) =>
      enqueueMail(tx, {
        event: 'order.dueSoon',
        to: ['x@test.local'],
        params: {},
        dedupeKey: `order.dueSoon:5:2026-12-04:u${user.id}`,
      }),
    );
    expect(again).toBeNull();
    await drain();
  });

  it('refuses a bad address, naming it (400), and a link outside the app', async () => {
    await expect(
      db().transaction((tx) => enqueueMail(tx, { event: 'job.finished', to: ['no es correo'], params: {} })),
    ).rejects.toMatchObject({ code: 'VALIDATION', details: [{ path: 'to', key: 'mail.addressInvalid' }] });
    await expect(
      db().transaction((tx) => enqueueMail(tx, { event: 'job.finished', to: ['a@b.gt'], params: {}, link: '//evil.example' })),
    ).rejects.toMatchObject({ code: 'VALIDATION', details: [{ path: 'link' }] });
  });
});

describe('attachments', () => {
  it("a renderer's PDF and a blob arrive attached", async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    registerMailAttachment('test-order', async (_db, id) => ({
      filename: `orden-${id}.pdf`,
      contentType: 'application/pdf',
      content: pdf,
    }));
    const sha = await putBlob(db(), t.app.files, Buffer.from('hola'), 'text/plain');
    const id = await db().transaction((tx) =>
      enqueueMail(tx, {
        event: 'order.issued',
        to: ['tesoreria@mixco.test'],
        params: { entity: 'Mixco', reference: 'OP-7', amount: 100n, due: '2026-12-01' },
        link: '/pagos/ordenes/7',
        attachments: [
          { kind: 'render', renderer: 'test-order', id: 7 },
          { kind: 'blob', sha256: sha, filename: 'nota.txt', contentType: 'text/plain' },
        ],
      }),
    );
    await drain({ ...fast, files: t.app.files });
    const m = await smtp.waitForMessage((x) => messageIdOf(x) === `<outbox-${id}@${HOST}>`);
    expect(m.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['orden-7.pdf', 'application/pdf'],
      ['nota.txt', 'text/plain'],
    ]);
    expect(m.attachments[0].content.subarray(0, 5).toString()).toBe('%PDF-');
    expect(m.attachments[1].content.toString()).toBe('hola');
  });

  it('an unknown renderer fails the message at once, with the reason', async () => {
    const id = await db().transaction((tx) =>
      enqueueMail(tx, {
        event: 'job.finished',
        to: ['a@mixco.test'],
        params: { job: 'X' },
        attachments: [{ kind: 'render', renderer: 'no-existe', id: 1 }],
      }),
    );
    await drain();
    const [row] = await outboxRows([id!]);
    expect(row.state).toBe('FAILED');
    expect(row.lastError).toContain('no-existe');
  });
});

describe('the outbox', () => {
  it('SMTP server stopped mid-batch: every message is delivered exactly once after it returns', async () => {
    const total = 50;
    const ourIds = (ids: number[]) => new Set(ids.map((id) => `<outbox-${id}@${HOST}>`));
    const ids = await db().transaction(async (tx) => {
      const out: number[] = [];
      for (let i = 0; i < total; i++) {
        const id = await enqueueMail(tx, {
          event: 'job.finished',
          to: [`destinatario${i}@mixco.test`],
          params: { job: `Exportación ${i}` },
          link: `/procesos/${i}`,
        });
        out.push(id!);
      }
      return out;
    });
    smtp.stopAfter(10);
    // First pass: ~10 go through, then the server refuses and goes away; the rest fail and wait.
    const first = await sendOutboxBatch(db(), transport, fast);
    expect(smtp.running).toBe(false);
    await sleep(200);
    const receivedWhileUp = smtp.messages.filter((m) => ourIds(ids).has(messageIdOf(m))).length;
    expect(first.sent).toBeGreaterThanOrEqual(10);
    expect(first.retried).toBeGreaterThan(0);
    // While it is down, every attempt fails and is put back with a back-off (nothing is lost, nothing FAILED).
    let downFailures = first.retried;
    for (let i = 0; i < 3; i++) {
      await sleep(120);
      const r = await sendOutboxBatch(db(), transport, fast);
      downFailures += r.retried;
      expect(r.sent).toBe(0);
      expect(r.failed).toBe(0);
    }
    const midway = await outboxRows(ids);
    expect(midway.filter((r) => r.state === 'FAILED')).toHaveLength(0);
    const retried = midway.filter((r) => r.state === 'PENDING');
    expect(retried.length).toBe(total - first.sent);
    expect(retried.every((r) => r.attempts >= 1 && r.lastError && r.nextAttemptAt.getTime() > r.createdAt.getTime())).toBe(true);

    await smtp.start();
    await drain();
    const ours = ourIds(ids);
    const end = Date.now() + 15_000;
    while (smtp.messages.filter((m) => ours.has(messageIdOf(m))).length < total && Date.now() < end) await sleep(50);
    await sleep(300);
    // Every message that arrived carrying one of these ids (a second copy would show here).
    const received = smtp.messages.filter((m) => ours.has(messageIdOf(m)));
    const byId = new Map<string, number>();
    for (const m of received) byId.set(messageIdOf(m), (byId.get(messageIdOf(m)) ?? 0) + 1);
    const rows = await outboxRows(ids);
    expect(rows.every((r) => r.state === 'SENT')).toBe(true);
    expect(received).toHaveLength(total);
    expect(byId.size).toBe(total);
    expect([...byId.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(rows.map((r) => r.messageId))).toEqual(new Set(byId.keys()));
    const attempts = rows.reduce((s, r) => s + r.attempts, 0);
    console.info(
      `outbox test: ${total} queued; ${receivedWhileUp} received before the server stopped (first batch: ${first.sent} sent, ${first.retried} failed); ` +
        `${downFailures} failed attempts while down; after restart ${total} delivered, ${byId.size} distinct Message-IDs, ` +
        `max per Message-ID ${Math.max(...byId.values())}; ${attempts} failed attempts recorded in all`,
    );
  }, 60_000);

  it('a permanent refusal (5xx) becomes FAILED at once with the error', async () => {
    smtp.rejectRecipient = (a) => a === 'rechazado@mixco.test';
    try {
      const id = await db().transaction((tx) =>
        enqueueMail(tx, { event: 'job.finished', to: ['rechazado@mixco.test'], params: { job: 'X' } }),
      );
      await drain();
      const [row] = await outboxRows([id!]);
      expect(row).toMatchObject({ state: 'FAILED', attempts: 1 });
      expect(row.lastError).toMatch(/550/);
    } finally {
      smtp.rejectRecipient = null;
    }
  });

  it('a lease that ran out is retried with the same Message-ID', async () => {
    const id = await db().transaction((tx) =>
      enqueueMail(tx, { event: 'job.finished', to: ['a@mixco.test'], params: { job: 'Y' } }),
    );
    // A process claimed it and died mid-send.
    await db().execute(sql`
      UPDATE mail_outbox SET state = 'SENDING', lease_until = now() - interval '1 second',
             message_id = '<outbox-' || id || '@' || ${HOST}::text || '>' WHERE id = ${id}`);
    await drain();
    await smtp.waitForMessage((x) => messageIdOf(x) === `<outbox-${id}@${HOST}>`);
    const [row] = await outboxRows([id!]);
    expect(row).toMatchObject({ state: 'SENT', attempts: 1, messageId: `<outbox-${id}@${HOST}>` });
  });

  it('without SMTP_URL nothing is attempted: the rows stay PENDING', async () => {
    expect(t.config.SMTP_URL).toBeUndefined();
    expect(t.app.mail.enabled).toBe(false);
    const id = await db().transaction((tx) =>
      enqueueMail(tx, { event: 'job.finished', to: ['a@mixco.test'], params: { job: 'Z' } }),
    );
    await t.app.mail.start();
    expect(t.app.mail.isRunning).toBe(false);
    await sleep(300);
    const [row] = await outboxRows([id!]);
    expect(row).toMatchObject({ state: 'PENDING', attempts: 0, lastError: null, messageId: null });
    await drain();
  });
});

describe('the dispatcher with SMTP credentials', () => {
  it('sends with authentication and never writes the credentials in logs or errors', async () => {
    const secret = 'S3creta-Clave-Smtp';
    const authSmtp = await startTestSmtp({ user: 'aporta', password: secret });
    const lines: string[] = [];
    const log = {
      info: (...a: unknown[]) => lines.push(JSON.stringify(a)),
      warn: (...a: unknown[]) => lines.push(JSON.stringify(a)),
      error: (...a: unknown[]) => lines.push(JSON.stringify(a)),
    } as unknown as ConstructorParameters<typeof MailDispatcher>[0]['log'];
    const dispatcher = new MailDispatcher({
      db: db(),
      smtpUrl: authSmtp.url,
      from: FROM,
      host: HOST,
      pollMs: 50,
      log,
      batch: { baseDelayMs: 20, maxDelayMs: 50 },
    });
    const wrong = new MailDispatcher({
      db: db(),
      smtpUrl: authSmtp.url.replace(secret, 'Otra-Clave-Mala'),
      from: FROM,
      host: HOST,
      log,
    });
    try {
      expect(authSmtp.url).toContain(secret);
      const id = await db().transaction((tx) =>
        enqueueMail(tx, { event: 'job.finished', to: ['a@mixco.test'], params: { job: 'A' } }),
      );
      await dispatcher.start();
      await authSmtp.waitFor(1);
      await dispatcher.stop();
      const [row] = await outboxRows([id!]);
      expect(row.state).toBe('SENT');
      // A wrong password is a permanent refusal (535): FAILED, and the error names no credential.
      await wrong.start();
      const bad = await db().transaction((tx) =>
        enqueueMail(tx, { event: 'job.finished', to: ['b@mixco.test'], params: { job: 'B' } }),
      );
      const end = Date.now() + 10_000;
      while (Date.now() < end && (await outboxRows([bad!]))[0].state !== 'FAILED') await sleep(50);
      await wrong.stop();
      const [failed] = await outboxRows([bad!]);
      expect(failed.state).toBe('FAILED');
      expect(failed.lastError).toMatch(/535/);
      const everything = [...lines, failed.lastError ?? '', row.lastError ?? ''].join('\n');
      expect(everything).toContain(`127.0.0.1:${authSmtp.port}`);
      expect(everything).not.toContain(secret);
      expect(everything).not.toContain('Otra-Clave-Mala');
    } finally {
      await dispatcher.stop();
      await wrong.stop();
      await authSmtp.close();
    }
  });
});
