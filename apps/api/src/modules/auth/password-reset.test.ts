import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, loginFailures, mailOutbox, passwordResets, users } from '../../db/schema/index.ts';
import { createMailTransport, type MailTransport, sendOutboxBatch } from '../../platform/mail-dispatcher.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

/** Every message the in-process SMTP server received, parsed. */
const received: ParsedMail[] = [];
let smtp: SMTPServer;
let transport: MailTransport;
let t: TestApp;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  transport = createMailTransport(smtpUrl);
  t = await createTestApp({ SMTP_URL: smtpUrl, PUBLIC_URL: 'https://aporta.example' });
});
afterAll(async () => {
  transport.close?.();
  await t.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const forgot = (email: string, remoteAddress = '10.9.0.1', app: TestApp = t) =>
  app.request({ method: 'POST', url: '/api/auth/forgot-password', payload: { email }, remoteAddress });
const reset = (token: string, password: string, app: TestApp = t) =>
  app.request({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password } });

/** Sends what the outbox holds through the SMTP server (as the dispatcher does) and returns the messages that arrived for `to`. */
async function mailsTo(to: string): Promise<ParsedMail[]> {
  for (;;) {
    const r = await sendOutboxBatch(t.database.db, transport, { from: t.config.MAIL_FROM, host: 'aporta.example' });
    if (r.claimed === 0) break;
    expect(r.sent).toBe(r.claimed);
  }
  return received.filter((m) => [m.to].flat().some((a) => a?.value.some((v) => v.address === to)));
}

/** The token of the reset link in a received message's plain text. */
function tokenIn(mail: ParsedMail): string {
  const m = /https?:\/\/[^/\s]+\/restablecer-contrasena\?token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
  if (!m) throw new Error(`no reset link in: ${mail.text}`);
  return m[1];
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('forgot password', () => {
  it('answers an unknown, an inactive and a known address alike, and mails only the active account', async () => {
    const known = await t.createUser();
    const inactive = await t.createUser({ isActive: false });
    const answers = [
      await forgot('nadie-registrado@test.local'),
      await forgot(inactive.email),
      await forgot(known.email.toUpperCase()),
    ];
    for (const res of answers) expect(res.statusCode).toBe(202);
    expect(answers[0].json()).toEqual(answers[2].json());
    expect(answers[1].json()).toEqual(answers[2].json());
    expect(answers[2].json()).toEqual({
      status: 'success',
      message:
        'Si la dirección está registrada, recibirá un correo con un enlace para restablecer su contraseña. Revise también la carpeta de correo no deseado.',
    });

    expect(await mailsTo('nadie-registrado@test.local')).toHaveLength(0);
    expect(await mailsTo(inactive.email)).toHaveLength(0);
    const mails = await mailsTo(known.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain('Restablecer su contraseña');
    expect(mails[0].text).toContain('30 minutos');
    const token = tokenIn(mails[0]);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mails[0].html).toContain(`/restablecer-contrasena?token=${token}`);

    // Only the token's SHA-256 is stored; the token is in no audit row.
    const stored = await t.database.db.select().from(passwordResets).where(eq(passwordResets.userId, known.id));
    expect(stored.map((r) => r.tokenHash)).toEqual([sha256(token)]);
    expect(stored[0].createdIp).toBe('10.9.0.1');
    const expiresIn = stored[0].expiresAt.getTime() - stored[0].createdAt.getTime();
    expect(Math.abs(expiresIn - 30 * 60_000)).toBeLessThan(5_000);
    const audit = await t.database.db.execute(
      sql`select count(*)::int as n from ${auditLog} where (${auditLog}::text) like ${`%${token}%`}`,
    );
    expect((audit as unknown as { rows: { n: number }[] }).rows[0].n).toBe(0);
    const requested = await t.database.db
      .select({ actorId: auditLog.actorId, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'PASSWORD_RESET_REQUESTED'), eq(auditLog.entityId, String(known.id))));
    expect(requested).toEqual([{ actorId: known.id, after: { sent: true } }]);
  });

  it('resets the password from the received link: old sessions end, the old password stops working, the new one signs in', async () => {
    const u = await t.createUser();
    const other = await t.login(u.email, u.password);
    // Both sessions are in use (and in the session cache) before the reset.
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token: u.token })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token: other })).statusCode).toBe(200);
    expect((await forgot(u.email)).statusCode).toBe(202);
    const [mail] = await mailsTo(u.email);
    const res = await reset(tokenIn(mail), 'Una-Clave-Nueva-2026');
    expect(res.statusCode).toBe(204);

    for (const token of [u.token, other]) {
      expect((await t.request({ method: 'GET', url: '/api/auth/me', token })).statusCode).toBe(401);
    }
    const old = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: u.email, password: u.password } });
    expect(old.statusCode).toBe(401);
    expect(await t.login(u.email, 'Una-Clave-Nueva-2026')).toBeTruthy();
    const [row] = await t.database.db
      .select({ action: auditLog.action, actorId: auditLog.actorId, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'PASSWORD_RESET'), eq(auditLog.entityId, String(u.id))));
    expect(row).toEqual({ action: 'PASSWORD_RESET', actorId: u.id, after: { sessionsRevoked: 2 } });
  });

  it('refuses a used, an unknown and an expired token with one keyed message naming the token', async () => {
    const u = await t.createUser();
    await forgot(u.email);
    const token = tokenIn((await mailsTo(u.email))[0]);
    expect((await reset(token, 'Primera-Clave-Nueva-1')).statusCode).toBe(204);

    const refusals = [
      await reset(token, 'Segunda-Clave-Nueva-2'),
      await reset('x'.repeat(43), 'Segunda-Clave-Nueva-2'),
      await reset('', 'Segunda-Clave-Nueva-2'),
    ];
    for (const res of refusals) {
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toContainEqual(
        expect.objectContaining({ path: 'token', key: 'accounts.resetLinkInvalid' }),
      );
    }
    expect(refusals[0].json().error.message).toBe(
      'El enlace para restablecer la contraseña no es válido, ya se usó o venció. Solicite uno nuevo.',
    );

    const v = await t.createUser();
    await forgot(v.email);
    const late = tokenIn((await mailsTo(v.email))[0]);
    await t.database.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.tokenHash, sha256(late)));
    const expired = await reset(late, 'Otra-Clave-Nueva-3');
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error.key).toBe('accounts.resetLinkInvalid');
    expect(await t.login(v.email, v.password)).toBeTruthy();
  });

  it('makes an earlier link useless once a new one is requested', async () => {
    const u = await t.createUser();
    await forgot(u.email);
    await forgot(u.email);
    const mails = await mailsTo(u.email);
    expect(mails).toHaveLength(2);
    // The two may arrive in either order: the links' rows tell which came first.
    const rows = await t.database.db
      .select()
      .from(passwordResets)
      .where(eq(passwordResets.userId, u.id))
      .orderBy(passwordResets.id);
    const tokens = mails.map(tokenIn);
    const [first, second] = rows.map((r) => tokens.find((k) => sha256(k) === r.tokenHash) as string);
    expect(first).not.toBe(second);
    expect(rows[0].usedAt).not.toBeNull();
    expect((await reset(first, 'Clave-De-La-Primera-1')).statusCode).toBe(400);
    expect((await reset(second, 'Clave-De-La-Segunda-2')).statusCode).toBe(204);
  });

  it('refuses a weak password naming the field, and the link still works afterwards', async () => {
    const u = await t.createUser({ email: 'marta.gomez@test.local' });
    await forgot(u.email);
    const token = tokenIn((await mailsTo(u.email))[0]);
    const short = await reset(token, 'corta');
    expect(short.statusCode).toBe(400);
    expect(short.json().error.details).toEqual([
      {
        path: 'password',
        message: 'La contraseña debe tener al menos 10 caracteres.',
        key: 'accounts.passwordTooShort',
        params: { min: 10 },
      },
    ]);
    const withName = await reset(token, 'Marta.Gomez-2026');
    expect(withName.statusCode).toBe(400);
    expect(withName.json().error.details[0]).toMatchObject({ path: 'password', key: 'accounts.passwordContainsEmailName' });
    const missing = await t.request({ method: 'POST', url: '/api/auth/reset-password', payload: { token } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details[0].path).toBe('password');
    expect((await reset(token, 'Una-Clave-Valida-2026')).statusCode).toBe(204);
  });

  it('lifts a sign-in lock-out of the account', async () => {
    const u = await t.createUser();
    for (let i = 0; i < t.config.LOGIN_MAX_FAILURES; i++) {
      await t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: u.email, password: 'mala-clave-1' },
        remoteAddress: '10.9.9.9',
      });
    }
    const locked = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: u.email, password: u.password },
      remoteAddress: '10.9.9.9',
    });
    expect(locked.statusCode).toBe(423);
    await forgot(u.email);
    expect((await reset(tokenIn((await mailsTo(u.email))[0]), 'Libre-Otra-Vez-2026')).statusCode).toBe(204);
    expect(await t.database.db.select().from(loginFailures).where(eq(loginFailures.email, u.email))).toEqual([]);
    const again = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: u.email, password: 'Libre-Otra-Vez-2026' },
      remoteAddress: '10.9.9.9',
    });
    expect(again.statusCode).toBe(200);
  });

  it('lets exactly one of two concurrent resets with one token succeed', async () => {
    const u = await t.createUser();
    await forgot(u.email);
    const token = tokenIn((await mailsTo(u.email))[0]);
    const both = await Promise.all([reset(token, 'Carrera-Clave-Uno-1'), reset(token, 'Carrera-Clave-Dos-2')]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([204, 400]);
    const winner = both[0].statusCode === 204 ? 'Carrera-Clave-Uno-1' : 'Carrera-Clave-Dos-2';
    expect(await t.login(u.email, winner)).toBeTruthy();
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'PASSWORD_RESET'), eq(auditLog.entityId, String(u.id))));
    expect(audits).toHaveLength(1);
  });

  it('refuses a link of an account deactivated after the request', async () => {
    const u = await t.createUser();
    await forgot(u.email);
    const token = tokenIn((await mailsTo(u.email))[0]);
    await t.database.db.update(users).set({ isActive: false }).where(eq(users.id, u.id));
    expect((await reset(token, 'Cuenta-Inactiva-2026')).statusCode).toBe(400);
  });

  it('limits requests per address (known or not) with 429, counted in the database', async () => {
    const u = await t.createUser();
    const limit = t.config.PASSWORD_RESET_PER_ADDRESS_PER_HOUR;
    for (const email of [u.email, 'tampoco-existe@test.local']) {
      const codes: number[] = [];
      // From a different client address each time: the limit is the address's, not the IP's.
      for (let i = 0; i <= limit; i++) codes.push((await forgot(email, `10.8.${i}.1`)).statusCode);
      expect(codes).toEqual([...Array(limit).fill(202), 429]);
    }
    const last = await forgot(u.email, '10.8.200.1');
    expect(last.json().error).toMatchObject({ code: 'RATE_LIMITED' });
    expect(await mailsTo(u.email)).toHaveLength(limit);
    const queued = await t.database.db.select().from(mailOutbox).where(sql`${u.email} = any(${mailOutbox.to})`);
    expect(queued).toHaveLength(limit);
  });

  it('limits requests per client IP with 429, whatever the address', async () => {
    const limited = await createTestApp({ LOGIN_RATE_PER_MINUTE: '3' });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) codes.push((await forgot(`otro${i}@test.local`, '10.7.0.1', limited)).statusCode);
      expect(codes).toEqual([202, 202, 202, 429]);
      expect((await forgot('otro9@test.local', '10.7.0.2', limited)).statusCode).toBe(202);
    } finally {
      await limited.close();
    }
    // A second application of its own: slow to start on a loaded machine.
  }, 120_000);
});
