import { type Grant, SYSTEM_INSTITUTION } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { institutionRoles, institutions, roleGrants, roles, userRoles, users } from '../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';

/**
 * The privilege ceiling (issue 9, class 1): nobody grants through users, roles or institutions a
 * permission or scope they do not hold, and only a super administrator acts on a super-administrator
 * account or on SISTEMA membership. The table below holds one escalation attempt per assigning route;
 * the first test fails when a new assigning route of these modules has none.
 */
let t: TestApp;
let superAdmin: TestUser;
/** Holds the seeded "Administrador" role: may manage users, not roles or institutions. */
let administrador: TestUser;
/** May manage roles, institutions and users, and holds little else: contributors READ in REGION scope. */
let manager: TestUser;
/** An ordinary account holding one permission the manager lacks (not a super administrator). */
let stronger: TestUser;
/** Another super administrator: the victim of the attack. */
let victim: TestUser;
const ids = {} as Record<'superRole' | 'adminRole' | 'consulta' | 'sys' | 'plan' | 'strongInst' | 'strongRole', number>;

const crud = (resource: Grant['resource']): Grant[] =>
  (['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT'] as const).map((action) => ({ resource, action, scope: 'ALL' }));

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const roleId = async (name: string) => (await db.select().from(roles).where(eq(roles.name, name)))[0].id;
  ids.superRole = await roleId('Super administrador');
  ids.adminRole = await roleId('Administrador');
  ids.consulta = await roleId('Consulta');
  const insts = await db.select().from(institutions);
  ids.sys = insts.find((i) => i.code === SYSTEM_INSTITUTION)!.id;
  ids.plan = insts.find((i) => i.code === 'PLAN')!.id;
  superAdmin = await t.createUser({ system: true });
  victim = await t.createUser({ system: true });
  administrador = await t.createUser();
  await db.insert(userRoles).values({ userId: administrador.id, roleId: ids.adminRole });
  manager = await t.createUser({
    grants: [
      ...crud('roles'),
      ...crud('institutions'),
      ...crud('users'),
      { resource: 'contributors', action: 'READ', scope: 'REGION' },
    ],
  });
  stronger = await t.createUser({ grants: [{ resource: 'audit', action: 'READ', scope: 'ALL' }, ...crud('roles')] });
  const [strongRole] = await db.insert(roles).values({ name: 'Auditor total' }).returning();
  ids.strongRole = strongRole.id;
  await db.insert(roleGrants).values({ roleId: strongRole.id, resource: 'audit', action: 'READ', scope: 'ALL' });
  const [inst] = await db
    .insert(institutions)
    .values({ code: 'FUERTE', name: 'Institución fuerte', kind: 'INSTITUCION' })
    .returning();
  ids.strongInst = inst.id;
  await db.insert(institutionRoles).values({ institutionId: inst.id, roleId: ids.superRole });
});
afterAll(() => t.close());

type Attempt = {
  name: string;
  as: () => TestUser;
  method: 'POST' | 'PUT' | 'DELETE';
  /** The route as registered, to check every assigning route has an attempt. */
  route: string;
  url: () => string;
  payload?: () => Record<string, unknown>;
  status?: number;
};

const userBody = (u: TestUser, extra: Record<string, unknown> = {}) => ({
  email: u.email,
  firstName: 'Usuario',
  lastName: 'Prueba',
  isActive: true,
  roleIds: [],
  institutionIds: [],
  ...extra,
});
const newUser = (n: string, extra: Record<string, unknown>) => ({
  email: `${n}@escala.gt`,
  firstName: 'N',
  lastName: 'N',
  ...extra,
});

const attempts: Attempt[] = [
  // users, as the seeded Administrador (the attack)
  {
    name: 'give a new account the super-administrator role',
    as: () => administrador,
    method: 'POST',
    route: '/api/users',
    url: () => '/api/users',
    payload: () => newUser('n1', { roleIds: [ids.superRole] }),
  },
  {
    name: 'give a new account the SISTEMA institution',
    as: () => administrador,
    method: 'POST',
    route: '/api/users',
    url: () => '/api/users',
    payload: () => newUser('n2', { institutionIds: [ids.sys] }),
  },
  {
    name: 'give a new account an institution whose default roles exceed the ceiling',
    as: () => administrador,
    method: 'POST',
    route: '/api/users',
    url: () => '/api/users',
    payload: () => newUser('n3', { institutionIds: [ids.strongInst] }),
  },
  {
    name: 'give itself the super-administrator role',
    as: () => administrador,
    method: 'PUT',
    route: '/api/users/:id',
    url: () => `/api/users/${administrador.id}`,
    payload: () => userBody(administrador, { roleIds: [ids.adminRole, ids.superRole] }),
  },
  {
    name: 'give itself the SISTEMA institution',
    as: () => administrador,
    method: 'PUT',
    route: '/api/users/:id',
    url: () => `/api/users/${administrador.id}`,
    payload: () => userBody(administrador, { roleIds: [ids.adminRole], institutionIds: [ids.sys] }),
  },
  {
    name: "change the super administrator's e-mail",
    as: () => administrador,
    method: 'PUT',
    route: '/api/users/:id',
    url: () => `/api/users/${victim.id}`,
    payload: () => userBody(victim, { email: 'atacante@escala.gt', institutionIds: [ids.sys] }),
  },
  {
    name: "reset the super administrator's password",
    as: () => administrador,
    method: 'POST',
    route: '/api/users/:id/reset-password',
    url: () => `/api/users/${victim.id}/reset-password`,
  },
  {
    name: "revoke the super administrator's sessions",
    as: () => administrador,
    method: 'POST',
    route: '/api/users/:id/revoke-sessions',
    url: () => `/api/users/${victim.id}/revoke-sessions`,
  },
  {
    name: 'deactivate the super administrator',
    as: () => administrador,
    method: 'POST',
    route: '/api/users/:id/deactivate',
    url: () => `/api/users/${victim.id}/deactivate`,
  },
  {
    name: 'activate (act on) the super administrator',
    as: () => administrador,
    method: 'POST',
    route: '/api/users/:id/activate',
    url: () => `/api/users/${victim.id}/activate`,
  },
  {
    name: 'reset the password of an account with permissions it lacks',
    as: () => administrador,
    method: 'POST',
    route: '/api/users/:id/reset-password',
    url: () => `/api/users/${stronger.id}/reset-password`,
  },
  {
    name: 'give a role it does not hold to an account, as a users manager',
    as: () => manager,
    method: 'PUT',
    route: '/api/users/:id',
    url: () => `/api/users/${manager.id}`,
    payload: () => userBody(manager, { roleIds: [ids.strongRole] }),
  },
  // roles, as a manager of roles who holds little else
  {
    name: 'create a role with a grant it lacks',
    as: () => manager,
    method: 'POST',
    route: '/api/roles',
    url: () => '/api/roles',
    payload: () => ({ name: 'Escalada', grants: [{ resource: 'audit', action: 'READ', scope: 'ALL' }] }),
  },
  {
    name: 'create a role with a broader scope than its own',
    as: () => manager,
    method: 'POST',
    route: '/api/roles',
    url: () => '/api/roles',
    payload: () => ({ name: 'Escalada 2', grants: [{ resource: 'contributors', action: 'READ', scope: 'ALL' }] }),
  },
  {
    name: 'edit a stronger role (even only to rename it)',
    as: () => manager,
    method: 'PUT',
    route: '/api/roles/:id',
    url: () => `/api/roles/${ids.adminRole}`,
    payload: () => ({ name: 'Administrador', grants: [] }),
  },
  {
    name: 'delete a stronger role',
    as: () => manager,
    method: 'DELETE',
    route: '/api/roles/:id',
    url: () => `/api/roles/${ids.strongRole}`,
  },
  // institutions
  {
    name: 'create an institution with a default role beyond the ceiling',
    as: () => manager,
    method: 'POST',
    route: '/api/institutions',
    url: () => '/api/institutions',
    payload: () => ({ code: 'ESCALA', name: 'Escalada', kind: 'INSTITUCION', roleIds: [ids.superRole] }),
  },
  {
    name: 'edit an institution whose default roles exceed the ceiling',
    as: () => manager,
    method: 'PUT',
    route: '/api/institutions/:id',
    url: () => `/api/institutions/${ids.strongInst}`,
    payload: () => ({ code: 'FUERTE', name: 'Renombrada', kind: 'INSTITUCION', roleIds: [] }),
  },
  {
    name: 'give an existing institution a default role beyond the ceiling',
    as: () => manager,
    method: 'PUT',
    route: '/api/institutions/:id',
    url: () => `/api/institutions/${ids.plan}`,
    payload: () => ({ code: 'PLAN', name: 'Plan', kind: 'INSTITUCION', roleIds: [ids.strongRole] }),
  },
  {
    name: 'delete an institution whose default roles exceed the ceiling',
    as: () => manager,
    method: 'DELETE',
    route: '/api/institutions/:id',
    url: () => `/api/institutions/${ids.strongInst}`,
  },
  {
    name: 'edit SISTEMA',
    as: () => manager,
    method: 'PUT',
    route: '/api/institutions/:id',
    url: () => `/api/institutions/${ids.sys}`,
    payload: () => ({ code: 'SISTEMA', name: 'Sistema', kind: 'INSTITUCION', roleIds: [] }),
    status: 409,
  },
];

describe('privilege ceiling', () => {
  it('has an escalation attempt for every assigning route of users, roles and institutions', () => {
    const assigning = t.app.routeTable
      .filter(
        (r) =>
          r.method !== 'GET' && typeof r.access === 'object' && ['users', 'roles', 'institutions'].includes(r.access.resource),
      )
      .map((r) => `${r.method} ${r.url}`);
    const covered = new Set(attempts.map((a) => `${a.method} ${a.route}`));
    expect(assigning.length).toBeGreaterThanOrEqual(10);
    expect(assigning.filter((r) => !covered.has(r))).toEqual([]);
  });

  it.each(attempts)('refuses to $name', async (a) => {
    const res = await t.request({ method: a.method, url: a.url(), token: a.as().token, payload: a.payload?.() });
    expect(res.statusCode, res.body).toBe(a.status ?? 403);
    expect(res.json().error.code).toBe(a.status ? 'CONFLICT' : 'FORBIDDEN');
    expect(res.json().error.message).toMatch(/usted no tiene|super administrador|SISTEMA/);
  });

  it('leaves the super administrator untouched after every attempt', async () => {
    const [row] = await t.database.db.select().from(users).where(eq(users.id, victim.id));
    expect(row).toMatchObject({ email: victim.email, isActive: true });
    await t.login(victim.email, victim.password);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token: victim.token })).statusCode).toBe(200);
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token: administrador.token });
    expect(me.json().institucion).not.toContain(SYSTEM_INSTITUTION);
    expect(me.json().permissions.roles.UPDATE).toBeUndefined();
    const created = await t.database.db.select().from(users).where(eq(users.email, 'n1@escala.gt'));
    expect(created).toEqual([]);
  });

  it('names the grants a refused role would give', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/roles',
      token: manager.token,
      payload: { name: 'Otra', grants: [{ resource: 'audit', action: 'EXPORT', scope: 'ALL' }] },
    });
    expect(res.json().error.message).toBe('El rol da permisos que usted no tiene: audit: exportar (todo).');
    const user = await t.request({
      method: 'POST',
      url: '/api/users',
      token: administrador.token,
      payload: newUser('n9', { roleIds: [ids.superRole] }),
    });
    expect(user.json().error.message).toMatch(
      /^No puede asignar el rol "Super administrador": da permisos que usted no tiene: institutions: crear \(todo\), institutions: modificar \(todo\)/,
    );
    expect(user.json().error.details[0].path).toBe('roleIds');
  });

  it('still lets the Administrador manage ordinary users with roles within its ceiling', async () => {
    const tok = administrador.token;
    const created = await t.request({
      method: 'POST',
      url: '/api/users',
      token: tok,
      payload: newUser('ok1', { roleIds: [ids.consulta, ids.adminRole], institutionIds: [ids.plan] }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().user.id;
    const edited = await t.request({
      method: 'PUT',
      url: `/api/users/${id}`,
      token: tok,
      payload: { email: 'ok1b@escala.gt', firstName: 'O', lastName: 'K', roleIds: [ids.consulta], institutionIds: [ids.plan] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    for (const path of ['reset-password', 'revoke-sessions', 'deactivate', 'activate']) {
      const res = await t.request({ method: 'POST', url: `/api/users/${id}/${path}`, token: tok });
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    }
    const options = (await t.request({ method: 'GET', url: '/api/users/options', token: tok })).json();
    const role = (name: string) => options.roles.find((r: { name: string }) => r.name === name).assignable;
    expect([role('Consulta'), role('Administrador'), role('Super administrador'), role('Auditor total')]).toEqual([
      true,
      true,
      false,
      true,
    ]);
    const inst = (code: string) => options.institutions.find((i: { code: string }) => i.code === code).assignable;
    expect([inst('PLAN'), inst('SISTEMA'), inst('FUERTE')]).toEqual([true, false, false]);
  });

  it('lets a roles manager create and edit roles within its own grants', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/roles',
      token: manager.token,
      payload: { name: 'Lectura regional', grants: [{ resource: 'contributors', action: 'READ', scope: 'ENTITY' }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const edit = await t.request({
      method: 'PUT',
      url: `/api/roles/${res.json().id}`,
      token: manager.token,
      payload: { name: 'Lectura regional', grants: [{ resource: 'contributors', action: 'READ', scope: 'REGION' }] },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const inst = await t.request({
      method: 'POST',
      url: '/api/institutions',
      token: manager.token,
      payload: { code: 'REGIONAL', name: 'Regional', kind: 'INSTITUCION', roleIds: [res.json().id] },
    });
    expect(inst.statusCode, inst.body).toBe(201);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/institutions/${inst.json().id}`, token: manager.token })).statusCode,
    ).toBe(204);
  });

  it('lets a super administrator do all of it', async () => {
    const tok = superAdmin.token;
    const other = await t.request({
      method: 'POST',
      url: '/api/users',
      token: tok,
      payload: newUser('sa3', { roleIds: [ids.superRole], institutionIds: [ids.sys] }),
    });
    expect(other.statusCode, other.body).toBe(201);
    const id = other.json().user.id;
    for (const path of ['reset-password', 'revoke-sessions', 'deactivate', 'activate']) {
      const res = await t.request({ method: 'POST', url: `/api/users/${id}/${path}`, token: tok });
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    }
    const edit = await t.request({
      method: 'PUT',
      url: `/api/users/${id}`,
      token: tok,
      payload: { email: 'sa3b@escala.gt', firstName: 'S', lastName: 'A', roleIds: [], institutionIds: [ids.sys, ids.strongInst] },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const role = await t.request({
      method: 'PUT',
      url: `/api/roles/${ids.strongRole}`,
      token: tok,
      payload: { name: 'Auditor total', grants: [{ resource: 'audit', action: 'EXPORT', scope: 'ALL' }] },
    });
    expect(role.statusCode, role.body).toBe(200);
    const inst = await t.request({
      method: 'PUT',
      url: `/api/institutions/${ids.strongInst}`,
      token: tok,
      payload: { code: 'FUERTE', name: 'Institución fuerte', kind: 'INSTITUCION', roleIds: [ids.superRole, ids.strongRole] },
    });
    expect(inst.statusCode, inst.body).toBe(200);
  });
});
