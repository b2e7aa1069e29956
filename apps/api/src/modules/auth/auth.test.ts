import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, loginFailures, sessions, users } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { ACCOUNT_FAILURE_FACTOR } from './service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('sign-in', () => {
  it('signs in with the right password and returns the user with institution and token', async () => {
    const u = await t.createUser({ system: true });
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: u.email.toUpperCase(), password: u.password },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('success');
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(body.data).toMatchObject({ email: u.email, institucion: ['SISTEMA'] });
    expect(body.data.permissions.users.READ).toBe('ALL');
  });

  it('stores only the SHA-256 of the token, and argon2id password hashes', async () => {
    const u = await t.createUser();
    const stored = await t.database.db.select().from(sessions).where(eq(sessions.userId, u.id));
    expect(stored.map((s) => s.tokenHash)).not.toContain(u.token);
    expect(stored[0].tokenHash).toMatch(/^[0-9a-f]{64}$/);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, u.id));
    expect(row.passwordHash.startsWith('$argon2id$')).toBe(true);
  });

  it('refuses a wrong password and an unknown e-mail with the same Spanish message', async () => {
    const u = await t.createUser();
    const wrong = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: u.email, password: 'incorrecta-123' },
    });
    const unknown = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nadie@test.local', password: 'x' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().error.message).toBe('Correo electrónico o contraseña incorrectos.');
  });

  it('refuses a deactivated account with its own message', async () => {
    const u = await t.createUser({ isActive: false });
    const res = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: u.email, password: u.password } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('ACCOUNT_INACTIVE');
  });

  it('answers known and unknown e-mails identically, attempt by attempt, through the lock-out', async () => {
    const u = await t.createUser();
    const from = (email: string, password: string, remoteAddress: string) =>
      t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });
    for (let i = 1; i <= 6; i++) {
      const known = await from(u.email, 'mala-clave-1', '10.1.0.1');
      const unknown = await from('nadie-aqui@test.local', 'mala-clave-1', '10.1.0.1');
      expect(known.statusCode, `attempt ${i}`).toBe(i < 5 ? 401 : 423);
      expect(unknown.statusCode, `attempt ${i}`).toBe(known.statusCode);
      expect(unknown.json(), `attempt ${i}`).toEqual(known.json());
    }
    const locked = await from(u.email, u.password, '10.1.0.1');
    expect(locked.statusCode).toBe(423);
    expect(locked.json().error).toEqual({
      code: 'ACCOUNT_LOCKED',
      message: 'Demasiados intentos fallidos con este correo. Intente de nuevo en 15 min.',
      key: 'accounts.accountLockedFor',
      params: { minutes: 15 },
    });
    // A stranger's failures from another address do not lock the staff member out of theirs.
    expect((await from(u.email, u.password, '10.1.0.2')).statusCode).toBe(200);
    // The count lives in the database, not in this process.
    const rows = await t.database.db.select().from(loginFailures).where(eq(loginFailures.email, 'nadie-aqui@test.local'));
    expect(rows.map((r) => r.address).sort()).toEqual(['*', '10.1.0.1']);
  });

  it('locks an e-mail everywhere after the account-wide ceiling of failures spread over addresses', async () => {
    // A small per-address limit keeps the number of (deliberately slow) password checks low.
    const t = await createTestApp({ LOGIN_MAX_FAILURES: '2' });
    try {
      const u = await t.createUser();
      const from = (email: string, password: string, remoteAddress: string) =>
        t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });
      const perAddress = t.config.LOGIN_MAX_FAILURES;
      const ceiling = perAddress * ACCOUNT_FAILURE_FACTOR;
      const codes: number[] = [];
      for (let n = 0; n < ceiling; n++) {
        const address = `10.2.${Math.floor(n / perAddress)}.1`;
        codes.push((await from(u.email, 'mala-clave-1', address)).statusCode);
        await from('tampoco-existe@test.local', 'mala-clave-1', address);
      }
      // Each address was refused at its own limit; the last failure reached the account-wide ceiling.
      expect(codes.filter((c) => c === 423)).toHaveLength(ceiling / perAddress);
      const fresh = await from(u.email, u.password, '10.3.0.1');
      expect(fresh.statusCode).toBe(423);
      const unknown = await from('tampoco-existe@test.local', 'x', '10.3.0.1');
      expect(unknown.json()).toEqual(fresh.json());
      // An administrator's password reset lifts every lock of the account.
      const admin = await t.createUser({ system: true });
      const list = await t.request({ method: 'GET', url: `/api/users/${u.id}`, token: admin.token });
      expect(list.json().isLocked).toBe(true);
      const reset = await t.request({ method: 'POST', url: `/api/users/${u.id}/reset-password`, token: admin.token });
      expect((await from(u.email, reset.json().password, '10.3.0.1')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  }, 120_000);

  it('audits sign-in success and failure', async () => {
    const u = await t.createUser();
    await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: u.email, password: 'mala-clave-1' } });
    const rows = await t.database.db.select().from(auditLog).where(eq(auditLog.actorEmail, u.email));
    expect(rows.map((r) => r.action).sort()).toEqual(['LOGIN', 'LOGIN_FAILED']);
  });
});

describe('session', () => {
  it('answers me with the session user, 401 without or with a bad token', async () => {
    const u = await t.createUser();
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token: u.token });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(u.email);
    expect((await t.request({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    const bad = await t.request({ method: 'GET', url: '/api/auth/me', token: 'no-es-un-token' });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().error.code).toBe('UNAUTHENTICATED');
  });

  it('revokes the session on logout', async () => {
    const u = await t.createUser();
    expect((await t.request({ method: 'POST', url: '/api/auth/logout', token: u.token })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token: u.token })).statusCode).toBe(401);
  });

  it('expires a session idle for longer than the idle limit', async () => {
    const u = await t.createUser();
    await t.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 9 * 3_600_000) })
      .where(eq(sessions.userId, u.id));
    const res = await t.request({ method: 'GET', url: '/api/auth/me', token: u.token });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('SESSION_EXPIRED');
  });

  it('expires a session past its absolute expiry', async () => {
    const u = await t.createUser();
    await t.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, u.id));
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token: u.token })).json().error.code).toBe('SESSION_EXPIRED');
  });
});
