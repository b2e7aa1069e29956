import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifications, institutions, municipalEntities, municipalities, roles } from '../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';

let t: TestApp;
let admin: TestUser;
let consultaId: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  consultaId = (await t.database.db.select().from(roles).where(eq(roles.name, 'Consulta')))[0].id;
});
afterAll(() => t.close());

const post = (payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/institutions', token: admin.token, payload });

describe('institutions', () => {
  it('creates an institution whose default roles reach all its users', async () => {
    const res = await post({ code: 'muni-demo', name: 'Institución demo', kind: 'INSTITUCION', roleIds: [consultaId] });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ code: 'MUNI-DEMO', roles: [{ name: 'Consulta' }], userCount: 0 });
    const u = await t.createUser();
    await t.request({
      method: 'PUT',
      url: `/api/users/${u.id}`,
      token: admin.token,
      payload: { email: u.email, firstName: 'A', lastName: 'B', institutionIds: [res.json().id] },
    });
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token: u.token });
    expect(me.json().permissions.users.READ).toBe('ALL');
    expect(me.json().institucion).toEqual(['MUNI-DEMO']);
  });

  it('links an ENTIDAD institution to its municipal entity and checks it exists', async () => {
    const db = t.database.db;
    const [cls] = await db.insert(classifications).values({ code: 'MUN', name: 'Municipalidad' }).returning();
    const [mun] = await db.select().from(municipalities).limit(1);
    const [ent] = await db
      .insert(municipalEntities)
      .values({ code: 'E-1', name: 'Municipalidad de Prueba', classificationId: cls.id, municipalityId: mun.id })
      .returning();
    const res = await post({ code: 'ENT-1', name: 'Muni prueba', kind: 'ENTIDAD', entityId: ent.id });
    expect(res.statusCode).toBe(201);
    expect(res.json().entityName).toBe('Municipalidad de Prueba');
    const missing = await post({ code: 'ENT-2', name: 'Otra', kind: 'ENTIDAD', entityId: 999999 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details[0].path).toBe('entityId');
    const opts = await t.request({ method: 'GET', url: '/api/institutions/options', token: admin.token });
    expect(opts.json().entities.map((e: { code: string }) => e.code)).toContain('E-1');
  });

  it('keeps SISTEMA fixed and codes unique', async () => {
    const [sys] = await t.database.db.select().from(institutions).where(eq(institutions.code, 'SISTEMA'));
    const edit = await t.request({
      method: 'PUT',
      url: `/api/institutions/${sys.id}`,
      token: admin.token,
      payload: { code: 'SISTEMA', name: 'X', kind: 'INSTITUCION', isActive: false },
    });
    expect(edit.statusCode).toBe(409);
    expect((await t.request({ method: 'DELETE', url: `/api/institutions/${sys.id}`, token: admin.token })).statusCode).toBe(409);
    const dup = await post({ code: 'plan', name: 'Otra', kind: 'INSTITUCION' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.details[0].path).toBe('code');
    expect((await post({ code: 'sistema', name: 'Otra', kind: 'INSTITUCION' })).statusCode).toBe(409);
  });

  it('refuses to delete an institution with users; deletes an empty one', async () => {
    const inst = (await post({ code: 'BORRAR', name: 'Para borrar', kind: 'INSTITUCION' })).json();
    const u = await t.createUser();
    await t.request({
      method: 'PUT',
      url: `/api/users/${u.id}`,
      token: admin.token,
      payload: { email: u.email, firstName: 'A', lastName: 'B', institutionIds: [inst.id] },
    });
    const refused = await t.request({ method: 'DELETE', url: `/api/institutions/${inst.id}`, token: admin.token });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/tiene usuarios \(en total: 1\)/);
    await t.request({
      method: 'PUT',
      url: `/api/users/${u.id}`,
      token: admin.token,
      payload: { email: u.email, firstName: 'A', lastName: 'B' },
    });
    expect((await t.request({ method: 'DELETE', url: `/api/institutions/${inst.id}`, token: admin.token })).statusCode).toBe(204);
  });

  it('lists with filters and exports', async () => {
    const res = await t.request({ method: 'GET', url: '/api/institutions?kind=SISTEMA', token: admin.token });
    expect(res.json().items.map((i: { code: string }) => i.code)).toEqual(['SISTEMA']);
    const xlsx = await t.request({ method: 'GET', url: '/api/institutions/export?format=xlsx', token: admin.token });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});
