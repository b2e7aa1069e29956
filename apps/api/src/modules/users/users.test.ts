import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, institutions, loginFailures, roles, users } from '../../db/schema/index.ts';
import { countActiveSessions } from '../../platform/session.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';

let t: TestApp;
let admin: TestUser;
let planId: number;
let sysId: number;
let consultaId: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  const insts = await t.database.db.select().from(institutions);
  planId = insts.find((i) => i.code === 'PLAN')!.id;
  sysId = insts.find((i) => i.code === 'SISTEMA')!.id;
  consultaId = (await t.database.db.select().from(roles).where(eq(roles.name, 'Consulta')))[0].id;
});
afterAll(() => t.close());

const create = (payload: Record<string, unknown>, token = admin.token) =>
  t.request({ method: 'POST', url: '/api/users', token, payload });

describe('users', () => {
  it('creates a user with roles and ordered institutions and a one-time password that must be changed', async () => {
    const res = await create({
      email: 'Nueva.Persona@Muni.GT',
      firstName: 'Nueva',
      lastName: 'Persona',
      roleIds: [consultaId],
      institutionIds: [planId, sysId],
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const { user, password } = res.json();
    expect(user).toMatchObject({ email: 'nueva.persona@muni.gt', isActive: true, mustChangePassword: true });
    expect(user.roles.map((r: { name: string }) => r.name)).toEqual(['Consulta']);
    expect(user.institutions.map((i: { code: string }) => i.code)).toEqual(['PLAN', 'SISTEMA']);
    expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
    // The password is never stored in clear and the user must change it before using any permission.
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row.passwordHash).not.toContain(password);
    const token = await t.login('nueva.persona@muni.gt', password);
    const blocked = await t.request({ method: 'GET', url: '/api/users', token });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().error.code).toBe('PASSWORD_CHANGE_REQUIRED');
    const changed = await t.request({
      method: 'POST',
      url: '/api/auth/change-password',
      token,
      payload: { currentPassword: password, newPassword: 'Una-Clave-Nueva-2026' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().mustChangePassword).toBe(false);
    expect((await t.request({ method: 'GET', url: '/api/users', token })).statusCode).toBe(200);
  });

  it('answers 409 naming the e-mail field for a duplicate, whatever its case', async () => {
    await create({ email: 'dup@muni.gt', firstName: 'A', lastName: 'B' });
    const res = await create({ email: 'DUP@muni.gt', firstName: 'C', lastName: 'D' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'DUPLICATE', details: [{ path: 'email' }] });
  });

  it('answers 400 naming the field for bad input, never 500', async () => {
    const res = await create({ email: 'no-es-correo', firstName: '', lastName: 'x', roleIds: [999999] });
    expect(res.statusCode).toBe(400);
    const paths = res.json().error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['email', 'firstName']));
    const unknownRole = await create({ email: 'rol@muni.gt', firstName: 'A', lastName: 'B', roleIds: [999999] });
    expect(unknownRole.statusCode).toBe(400);
    expect(unknownRole.json().error.details[0].path).toBe('roleIds');
  });

  it('lists with search, filters, sort and pagination', async () => {
    for (const n of ['Zoila', 'Yolanda', 'Ximena']) {
      await create({ email: `${n.toLowerCase()}@lista.gt`, firstName: n, lastName: 'Lista', roleIds: [consultaId] });
    }
    const page1 = await t.request({
      method: 'GET',
      url: '/api/users?q=lista.gt&sort=-firstName&pageSize=2&page=1',
      token: admin.token,
    });
    expect(page1.statusCode).toBe(200);
    expect(page1.json().total).toBe(3);
    expect(page1.json().items.map((u: { firstName: string }) => u.firstName)).toEqual(['Zoila', 'Yolanda']);
    const page2 = await t.request({
      method: 'GET',
      url: '/api/users?q=lista.gt&sort=-firstName&pageSize=2&page=2',
      token: admin.token,
    });
    expect(page2.json().items.map((u: { firstName: string }) => u.firstName)).toEqual(['Ximena']);
    const byRole = await t.request({ method: 'GET', url: `/api/users?roleId=${consultaId}&q=Lista`, token: admin.token });
    expect(byRole.json().total).toBe(3);
    const inactive = await t.request({ method: 'GET', url: '/api/users?isActive=false&q=lista.gt', token: admin.token });
    expect(inactive.json().total).toBe(0);
    const badSort = await t.request({ method: 'GET', url: '/api/users?sort=passwordHash', token: admin.token });
    expect(badSort.statusCode).toBe(400);
    const wildcard = await t.request({ method: 'GET', url: '/api/users?q=%25', token: admin.token });
    expect(wildcard.json().total).toBe(0);
  });

  it('exports the filtered list as csv and xlsx, without password hashes', async () => {
    const csv = await t.request({
      method: 'GET',
      url: '/api/users/export?format=csv&q=lista.gt&sort=firstName',
      token: admin.token,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Correo electrónico,Nombre,Apellido,Activo,Roles,Instituciones,Último ingreso,Creado');
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(['Ximena', 'Yolanda', 'Zoila']);
    expect(csv.body).not.toMatch(/argon2/);
    const xlsx = await t.request({ method: 'GET', url: '/api/users/export?format=xlsx', token: admin.token });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('deactivating revokes every session and the account can no longer sign in', async () => {
    const u = await t.createUser();
    await t.login(u.email, u.password);
    expect(await countActiveSessions(t.database.db, u.id)).toBe(2);
    const res = await t.request({ method: 'POST', url: `/api/users/${u.id}/deactivate`, token: admin.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().isActive).toBe(false);
    expect(await countActiveSessions(t.database.db, u.id)).toBe(0);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token: u.token })).statusCode).toBe(401);
    const login = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: u.email, password: u.password } });
    expect(login.json().error.code).toBe('ACCOUNT_INACTIVE');
    expect((await t.request({ method: 'POST', url: `/api/users/${u.id}/activate`, token: admin.token })).json().isActive).toBe(
      true,
    );
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(u.id)));
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['DEACTIVATE', 'ACTIVATE']));
  });

  it('resets a password: one-time, unlocks, ends sessions, must be changed', async () => {
    const u = await t.createUser();
    const until = new Date(Date.now() + 600_000);
    await t.database.db
      .insert(loginFailures)
      .values({ email: u.email, address: '*', failures: 0, firstFailedAt: new Date(), lockedUntil: until, expiresAt: until });
    expect((await t.request({ method: 'GET', url: `/api/users/${u.id}`, token: admin.token })).json().isLocked).toBe(true);
    const res = await t.request({ method: 'POST', url: `/api/users/${u.id}/reset-password`, token: admin.token });
    expect(res.statusCode).toBe(200);
    const { password } = res.json();
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token: u.token })).statusCode).toBe(401);
    const login = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: u.email, password } });
    expect(login.statusCode).toBe(200);
    expect(login.json().data.mustChangePassword).toBe(true);
    const old = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: u.email, password: u.password } });
    expect(old.statusCode).toBe(401);
  });

  it('revokes all sessions of a user on request', async () => {
    const u = await t.createUser();
    const res = await t.request({ method: 'POST', url: `/api/users/${u.id}/revoke-sessions`, token: admin.token });
    expect(res.json()).toEqual({ revoked: 1 });
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token: u.token })).statusCode).toBe(401);
  });

  it('never leaves the system without an active super administrator', async () => {
    const t2 = await createTestApp();
    try {
      const solo = await t2.createUser({ system: true });
      // Another administrator who is not in SISTEMA, holding every users permission.
      const helper = await t2.createUser({
        grants: (['READ', 'CREATE', 'UPDATE'] as const).map((action) => ({
          resource: 'users' as const,
          action,
          scope: 'ALL' as const,
        })),
      });
      const [sys] = await t2.database.db.select().from(institutions).where(eq(institutions.code, 'SISTEMA'));
      // Only a super administrator acts on a super-administrator account (issue 9).
      const deactivate = await t2.request({ method: 'POST', url: `/api/users/${solo.id}/deactivate`, token: helper.token });
      expect(deactivate.statusCode).toBe(403);
      const removeSys = await t2.request({
        method: 'PUT',
        url: `/api/users/${solo.id}`,
        token: solo.token,
        payload: { email: solo.email, firstName: 'Solo', lastName: 'Admin', isActive: true, institutionIds: [], roleIds: [] },
      });
      expect(removeSys.statusCode).toBe(409);
      expect(removeSys.json().error.message).toMatch(/super administrador/);
      const self = await t2.request({ method: 'POST', url: `/api/users/${solo.id}/deactivate`, token: solo.token });
      expect(self.json().error.message).toBe('No puede desactivar su propia cuenta.');
      // With a second super administrator, the first may go; the second then cannot leave SISTEMA.
      const second = await t2.request({
        method: 'POST',
        url: '/api/users',
        token: solo.token,
        payload: { email: 'segundo@sys.gt', firstName: 'Segundo', lastName: 'Admin', institutionIds: [sys.id] },
      });
      expect(second.statusCode).toBe(201);
      const { password } = second.json();
      let token = await t2.login('segundo@sys.gt', password);
      await t2.request({
        method: 'POST',
        url: '/api/auth/change-password',
        token,
        payload: { currentPassword: password, newPassword: 'Segunda-Clave-2026' },
      });
      token = await t2.login('segundo@sys.gt', 'Segunda-Clave-2026');
      expect((await t2.request({ method: 'POST', url: `/api/users/${solo.id}/deactivate`, token })).statusCode).toBe(200);
      const leave = await t2.request({
        method: 'PUT',
        url: `/api/users/${second.json().user.id}`,
        token,
        payload: { email: 'segundo@sys.gt', firstName: 'Segundo', lastName: 'Admin', institutionIds: [] },
      });
      expect(leave.statusCode).toBe(409);
    } finally {
      await t2.close();
    }
  });

  it('updates data, roles and institutions and audits before and after in the same change', async () => {
    const created = (await create({ email: 'edita@muni.gt', firstName: 'Antes', lastName: 'X' })).json().user;
    const res = await t.request({
      method: 'PUT',
      url: `/api/users/${created.id}`,
      token: admin.token,
      payload: {
        email: 'edita@muni.gt',
        firstName: 'Después',
        lastName: 'X',
        isActive: true,
        roleIds: [consultaId],
        institutionIds: [planId],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ firstName: 'Después', roles: [{ name: 'Consulta' }], institutions: [{ code: 'PLAN' }] });
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'UPDATE'), eq(auditLog.entityType, 'user'), eq(auditLog.entityId, String(created.id))));
    expect(audit).toMatchObject({ entityType: 'user', actorId: admin.id });
    expect((audit.before as { firstName: string }).firstName).toBe('Antes');
    expect((audit.after as { roles: string[] }).roles).toEqual(['Consulta']);
    const missing = await t.request({ method: 'GET', url: '/api/users/999999', token: admin.token });
    expect(missing.statusCode).toBe(404);
  });

  it('offers roles and institutions for the form', async () => {
    const res = await t.request({ method: 'GET', url: '/api/users/options', token: admin.token });
    expect(res.json().roles.map((r: { name: string }) => r.name)).toEqual(
      expect.arrayContaining(['Super administrador', 'Administrador', 'Delegado', 'Operador de entidad', 'Consulta']),
    );
    expect(res.json().institutions.map((i: { code: string }) => i.code)).toEqual(expect.arrayContaining(['SISTEMA', 'PLAN']));
  });

  it('a users: READ holder may list but not create', async () => {
    const reader = await t.createUser({ grants: [{ resource: 'users', action: 'READ', scope: 'ALL' }] });
    expect((await t.request({ method: 'GET', url: '/api/users', token: reader.token })).statusCode).toBe(200);
    expect((await create({ email: 'x@y.gt', firstName: 'a', lastName: 'b' }, reader.token)).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/users/export', token: reader.token })).statusCode).toBe(403);
  });
});
