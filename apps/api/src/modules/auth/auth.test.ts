import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, sessions, users } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

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

  it('locks the account after five failures within the window', async () => {
    const u = await t.createUser();
    const attempt = () =>
      t.request({ method: 'POST', url: '/api/auth/login', payload: { email: u.email, password: 'mala-clave-1' } });
    for (let i = 0; i < 4; i++) expect((await attempt()).statusCode).toBe(401);
    const fifth = await attempt();
    expect(fifth.statusCode).toBe(423);
    expect(fifth.json().error.message).toMatch(/bloqueada por 15 minutos/);
    const right = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: u.email, password: u.password } });
    expect(right.statusCode).toBe(423);
    expect(right.json().error.code).toBe('ACCOUNT_LOCKED');
  });

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
