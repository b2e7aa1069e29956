import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const register = (payload: Record<string, unknown>, app = t) =>
  app.request({ method: 'POST', url: '/api/auth/register', payload });

describe('register', () => {
  it('creates an inactive account that cannot sign in until an administrator activates it', async () => {
    const res = await register({
      email: 'Nuevo@Muni.GT',
      first_name: 'Nuevo',
      last_name: 'Usuario',
      password: 'Clave-Larga-2026',
    });
    expect(res.statusCode).toBe(202);
    expect(res.json().message).toMatch(/pendiente de activación por un administrador/);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, 'nuevo@muni.gt'));
    expect(row).toMatchObject({ isActive: false, firstName: 'Nuevo', lastName: 'Usuario' });
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nuevo@muni.gt', password: 'Clave-Larga-2026' },
    });
    expect(login.statusCode).toBe(403);
    expect(login.json().error.message).toBe('Su cuenta no está activa. Comuníquese con un administrador.');
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'REGISTER'));
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0])).not.toContain('Clave-Larga-2026');
  });

  it('names the broken password rule', async () => {
    const short = await register({ email: 'corta@muni.gt', first_name: 'A', last_name: 'B', password: 'corta' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toMatchObject({ code: 'VALIDATION', message: 'La contraseña debe tener al menos 10 caracteres.' });
    const mail = await register({
      email: 'maria.perez@muni.gt',
      first_name: 'A',
      last_name: 'B',
      password: 'maria.perez@muni.gt',
    });
    expect(mail.json().error.details).toEqual([
      { path: 'password', message: 'La contraseña no puede ser igual al correo electrónico.', key: 'accounts.passwordIsEmail' },
    ]);
  });

  it('never tells whether an e-mail already has an account, and never duplicates it', async () => {
    const first = await register({ email: 'doble@muni.gt', first_name: 'A', last_name: 'B', password: 'Clave-Larga-2026' });
    const again = await register({ email: 'DOBLE@muni.gt', first_name: 'C', last_name: 'D', password: 'Otra-Clave-2026' });
    const fresh = await register({ email: 'nunca-visto@muni.gt', first_name: 'E', last_name: 'F', password: 'Clave-Larga-2026' });
    expect(first.statusCode).toBe(202);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual(fresh.json());
    expect(again.json()).toEqual(first.json());
    const rows = await t.database.db.select().from(users).where(sql`lower(${users.email}) = 'doble@muni.gt'`);
    expect(rows).toHaveLength(1);
    expect(rows[0].firstName).toBe('A');
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'REGISTER_EXISTING'));
    expect(audit.map((a) => a.entityId)).toEqual([String(rows[0].id)]);
  });

  it('is refused with a Spanish message when switched off', async () => {
    const off = await createTestApp({ REGISTRATION_ENABLED: 'false' });
    try {
      const res = await register({ email: 'x@muni.gt', first_name: 'A', last_name: 'B', password: 'Clave-Larga-2026' }, off);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toMatch(/registro de cuentas está deshabilitado/);
    } finally {
      await off.close();
    }
  });

  it('is rate-limited per IP like sign-in', async () => {
    const limited = await createTestApp({ LOGIN_RATE_PER_MINUTE: '2' });
    try {
      const codes = [];
      for (let i = 0; i < 3; i++) {
        codes.push(
          (await register({ email: `r${i}@muni.gt`, first_name: 'A', last_name: 'B', password: 'x' }, limited)).statusCode,
        );
      }
      expect(codes).toEqual([400, 400, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('change own password', () => {
  it('checks the current password and the rule, then ends the other sessions', async () => {
    const u = await t.createUser();
    const other = await t.login(u.email, u.password);
    const change = (payload: Record<string, unknown>) =>
      t.request({ method: 'POST', url: '/api/auth/change-password', token: u.token, payload });
    const wrong = await change({ currentPassword: 'no-es-esta', newPassword: 'Nueva-Clave-2026' });
    expect(wrong.json().error.details[0].path).toBe('currentPassword');
    const weak = await change({ currentPassword: u.password, newPassword: 'corta' });
    expect(weak.json().error.details).toEqual([
      {
        path: 'newPassword',
        message: 'La contraseña debe tener al menos 10 caracteres.',
        key: 'accounts.passwordTooShort',
        params: { min: 10 },
      },
    ]);
    const same = await change({ currentPassword: u.password, newPassword: u.password });
    expect(same.json().error.message).toBe('La nueva contraseña debe ser distinta de la actual.');
    const ok = await change({ currentPassword: u.password, newPassword: 'Nueva-Clave-2026' });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).not.toContain('Nueva-Clave-2026');
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token: u.token })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token: other })).statusCode).toBe(401);
    await t.login(u.email, 'Nueva-Clave-2026');
  });
});

describe('test-auth compatibility', () => {
  it('logs in with username and password and answers success and token', async () => {
    const u = await t.createUser();
    const res = await t.request({
      method: 'POST',
      url: '/api/test-auth/login',
      payload: { username: u.email, password: u.password },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, token: expect.any(String) });
    const bad = await t.request({
      method: 'POST',
      url: '/api/test-auth/login',
      payload: { username: u.email, password: 'mala-clave' },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({ success: false, message: 'Correo electrónico o contraseña incorrectos.' });
  });

  it('verifies: no token, a bad token, a good one', async () => {
    const none = await t.request({ method: 'GET', url: '/api/test-auth/verify' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ success: false, message: 'No hay token' });
    const bad = await t.request({ method: 'GET', url: '/api/test-auth/verify', token: 'falso' });
    expect(bad.json().success).toBe(false);
    const u = await t.createUser({ system: true });
    const good = await t.request({ method: 'GET', url: '/api/test-auth/verify', token: u.token });
    expect(good.statusCode).toBe(200);
    expect(good.json()).toMatchObject({ success: true, user: { email: u.email, institucion: ['SISTEMA'] } });
  });
});
