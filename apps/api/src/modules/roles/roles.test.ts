import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, roles } from '../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
});
afterAll(() => t.close());

const post = (payload: Record<string, unknown>) => t.request({ method: 'POST', url: '/api/roles', token: admin.token, payload });

describe('roles', () => {
  it('seeds the five roles once, with scoped grants', async () => {
    const list = await t.request({ method: 'GET', url: '/api/roles?pageSize=200', token: admin.token });
    const byName = new Map(list.json().items.map((r: { name: string }) => [r.name, r]));
    for (const name of ['Super administrador', 'Administrador', 'Delegado', 'Operador de entidad', 'Consulta'])
      expect(byName.has(name)).toBe(true);
    const grants = (name: string) =>
      (byName.get(name) as { grants: { resource: string; action: string; scope: string }[] }).grants;
    expect(grants('Delegado').find((g) => g.resource === 'delegate-review' && g.action === 'APPROVE')?.scope).toBe('REGION');
    expect(grants('Operador de entidad').find((g) => g.resource === 'planilla-upload' && g.action === 'CREATE')?.scope).toBe(
      'ENTITY',
    );
    expect(grants('Consulta').every((g) => ['READ', 'EXPORT'].includes(g.action) || g.resource === 'profile')).toBe(true);
    expect(grants('Administrador').some((g) => g.resource === 'roles' && g.action === 'UPDATE')).toBe(false);
  });

  it('creates a role with grants and scopes, and the matrix drives what its users may do', async () => {
    const res = await post({
      name: 'Solo afiliados',
      description: 'Lectura de afiliados',
      grants: [{ resource: 'contributors', action: 'READ', scope: 'REGION' }],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Solo afiliados',
      userCount: 0,
      grants: [{ resource: 'contributors', action: 'READ', scope: 'REGION' }],
    });
    const user = await t.request({
      method: 'POST',
      url: '/api/users',
      token: admin.token,
      payload: { email: 'afiliados@muni.gt', firstName: 'A', lastName: 'B', roleIds: [res.json().id] },
    });
    const { password } = user.json();
    const token = await t.login('afiliados@muni.gt', password);
    await t.request({
      method: 'POST',
      url: '/api/auth/change-password',
      token,
      payload: { currentPassword: password, newPassword: 'Clave-Segura-2026' },
    });
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token });
    expect(me.json().permissions).toEqual({ contributors: { READ: 'REGION' } });
    expect((await t.request({ method: 'GET', url: '/api/users', token })).statusCode).toBe(403);
  });

  it('refuses an action a resource does not have, a duplicate name, and an empty name', async () => {
    const bad = await post({ name: 'Malo', grants: [{ resource: 'renap', action: 'SIGN', scope: 'ALL' }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].path).toBe('grants.0.action');
    await post({ name: 'Repetido' });
    const dup = await post({ name: 'repetido' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.details).toEqual([
      { path: 'name', message: 'Ya existe un rol con ese nombre.', key: 'accounts.roleNameTaken' },
    ]);
    expect((await post({ name: '  ' })).statusCode).toBe(400);
  });

  it('replaces grants on update and audits before and after', async () => {
    const created = (await post({ name: 'Editable', grants: [{ resource: 'users', action: 'READ', scope: 'ALL' }] })).json();
    const res = await t.request({
      method: 'PUT',
      url: `/api/roles/${created.id}`,
      token: admin.token,
      payload: { name: 'Editado', description: 'd', grants: [{ resource: 'roles', action: 'READ', scope: 'ALL' }] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().grants).toEqual([{ resource: 'roles', action: 'READ', scope: 'ALL' }]);
    const [a] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'role'), eq(auditLog.action, 'UPDATE'), eq(auditLog.entityId, String(created.id))));
    expect(a.before).toMatchObject({ name: 'Editable', grants: ['users:READ:ALL'] });
    expect(a.after).toMatchObject({ name: 'Editado', grants: ['roles:READ:ALL'] });
  });

  it('refuses to delete a role in use, naming how many users hold it; deletes it once unused', async () => {
    const role = (await post({ name: 'En uso' })).json();
    const u1 = await t.createUser();
    const u2 = await t.createUser();
    for (const u of [u1, u2]) {
      const res = await t.request({
        method: 'PUT',
        url: `/api/users/${u.id}`,
        token: admin.token,
        payload: { email: u.email, firstName: 'U', lastName: 'V', roleIds: [role.id] },
      });
      expect(res.statusCode).toBe(200);
    }
    const refused = await t.request({ method: 'DELETE', url: `/api/roles/${role.id}`, token: admin.token });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(
      'El rol "En uso" está asignado a usuarios (en total: 2). Reasígnelos a otro rol antes de eliminarlo.',
    );
    for (const u of [u1, u2]) {
      await t.request({
        method: 'PUT',
        url: `/api/users/${u.id}`,
        token: admin.token,
        payload: { email: u.email, firstName: 'U', lastName: 'V' },
      });
    }
    expect((await t.request({ method: 'DELETE', url: `/api/roles/${role.id}`, token: admin.token })).statusCode).toBe(204);
    expect(await t.database.db.select().from(roles).where(eq(roles.id, role.id))).toEqual([]);
    expect((await t.request({ method: 'DELETE', url: `/api/roles/${role.id}`, token: admin.token })).statusCode).toBe(404);
  });

  it('lists with search and sort, and exports', async () => {
    const res = await t.request({ method: 'GET', url: '/api/roles?q=administrador&sort=-name', token: admin.token });
    expect(res.json().items.map((r: { name: string }) => r.name)).toEqual(['Super administrador', 'Administrador']);
    const csv = await t.request({ method: 'GET', url: '/api/roles/export?format=csv&q=Consulta', token: admin.token });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Consulta');
  });
});
