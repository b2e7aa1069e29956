import { readFile } from 'node:fs/promises';
import { collectionNames, type Grant } from '@aporta/domain';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  banks,
  contributorTypes,
  delegates,
  departments,
  institutions,
  municipalEntities,
  regions,
  userInstitutions,
} from '../../db/schema/index.ts';
import { DEMO_PASSWORD, seedAccountsDemo } from '../../seed/accounts.ts';
import { seedBanks, seedCatalogDemo } from '../../seed/catalogs.ts';
import { seedReference } from '../../seed/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { registry } from './registry.ts';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
});
afterAll(() => t.close());

const get = (url: string, token = admin.token) => t.request({ method: 'GET', url, token });
const post = (url: string, payload: unknown, token = admin.token) =>
  t.request({ method: 'POST', url, token, payload: payload as object });
const patch = (url: string, payload: unknown, token = admin.token) =>
  t.request({ method: 'PATCH', url, token, payload: payload as object });
const del = (url: string, token = admin.token) => t.request({ method: 'DELETE', url, token });
let seq = 0;
const uid = () => `${Date.now().toString(36)}${(seq++).toString(36)}`.toUpperCase();

async function idOf(collection: string, q: string): Promise<number> {
  const res = await get(`/api/collections/${collection}?q=${encodeURIComponent(q)}`);
  return res.json().items[0].id;
}

describe('seeds', () => {
  it('installs the eight regions with their departments, one municipalidad per municipality but the capital', async () => {
    const db = t.database.db;
    expect((await db.select().from(regions)).map((r) => r.name).sort()).toEqual(
      ['Central', 'Metropolitana', 'Nororiente', 'Noroccidente', 'Norte', 'Petén', 'Suroccidente', 'Suroriente'].sort(),
    );
    const [{ n: unassigned }] = await db
      .select({ n: count() })
      .from(departments)
      .where(eq(departments.regionId, null as never));
    expect(unassigned).toBe(0);
    const [{ n }] = await db.select({ n: count() }).from(municipalEntities);
    expect(n).toBe(339);
    const res = await get('/api/collections/municipal-entities?q=Cob%C3%A1n');
    expect(res.json().items[0]).toMatchObject({ name: 'Municipalidad de Cobán', labels: { classificationId: 'Municipalidad' } });
    const capital = await get('/api/collections/municipal-entities?q=MUNI-0101');
    expect(capital.json().total).toBe(0);
    const [inst] = await db.select().from(institutions).where(eq(institutions.code, 'MUNI-1601'));
    expect(inst.kind).toBe('ENTIDAD');
    expect(inst.entityId).toBe(res.json().items[0].id);
    const lines = (await get('/api/collections/budget-lines?pageSize=50')).json().items;
    const subject = lines
      .filter((l: { isSubjectToContribution: boolean }) => l.isSubjectToContribution)
      .map((l: { code: string }) => l.code);
    expect(subject).toEqual(['011', '021', '022', '031', '035', '036']);
    const statuses = (await get('/api/collections/planilla-statuses')).json().items.map((s: { code: string }) => s.code);
    expect(statuses).toEqual([
      'BORRADOR',
      'ENVIANDO',
      'ENVIADA',
      'EN_REVISION',
      'APROBADA',
      'OBSERVADA',
      'RECHAZADA',
      'PAGADA',
      'ANULADA',
    ]);
  });

  it('runs again without changing anything', async () => {
    await seedReference(t.database.db);
    const [{ n }] = await t.database.db.select({ n: count() }).from(municipalEntities);
    expect(n).toBe(339);
    expect((await t.database.db.select().from(regions)).length).toBe(8);
  });
});

describe('a catalogue declared once (issue 26)', () => {
  it('binds a catalogue without special needs by itself: its table by name, its rows named by its display field', () => {
    expect(registry.banks.table).toBe(banks);
    expect(registry['contributor-catalogs'].table).toBe(contributorTypes);
    expect(Object.keys(registry.banks.columns)).toEqual(['code', 'name', 'isActive']);
  });

  it('serves the banks where payments are received, seeded once with the Guatemalan banks', async () => {
    const list = (await get('/api/collections/banks?pageSize=50')).json();
    expect(list.total).toBe(seedBanks.length);
    expect(list.items.find((b: { code: string }) => b.code === 'BANRURAL')).toMatchObject({
      name: 'Banco de Desarrollo Rural, S. A.',
      label: 'Banco de Desarrollo Rural, S. A.',
      isActive: true,
    });
    const bi = await idOf('banks', 'INDUSTRIAL');
    expect((await del(`/api/collections/banks/${bi}`)).statusCode).toBe(204);
    // The seed runs at every start and never brings back a bank an administrator removed.
    await seedReference(t.database.db);
    expect((await get('/api/collections/banks?pageSize=50')).json().total).toBe(seedBanks.length - 1);
    const again = await post('/api/collections/banks', { code: 'banrural', name: 'Otro' });
    expect(again.statusCode).toBe(409);
    const created = await post('/api/collections/banks', { code: 'industrial', name: 'Banco Industrial, S. A.' });
    expect(created.json()).toMatchObject({ code: 'INDUSTRIAL', isActive: true });
  });
});

describe('collections listing and schema', () => {
  it('GET /api/collections answers the names the user may read, differing by role', async () => {
    const all = (await get('/api/collections')).json();
    expect(all).toEqual(collectionNames);
    const clerk = await t.createUser({
      grants: [
        { resource: 'regions', action: 'READ', scope: 'ALL' },
        { resource: 'budget-lines', action: 'UPDATE', scope: 'ALL' },
      ],
    });
    expect((await get('/api/collections', clerk.token)).json()).toEqual(['regions']);
    const nobody = await t.createUser();
    expect((await get('/api/collections', nobody.token)).json()).toEqual([]);
    expect((await get('/api/collections')).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/collections' })).statusCode).toBe(401);
  });

  it('serves the schema with the actions the user holds; unknown → 404, unreadable → 403', async () => {
    const res = await get('/api/collections/municipal-entities/schema');
    expect(res.statusCode).toBe(200);
    const s = res.json();
    expect(s.fields.find((f: { name: string }) => f.name === 'municipalityId')).toMatchObject({
      type: 'reference',
      required: true,
      reference: { collection: 'municipalities', displayField: 'name' },
    });
    expect(s.actions).toEqual(['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT']);
    const statuses = (await get('/api/collections/planilla-statuses/schema')).json();
    expect(statuses.actions).toEqual(['READ', 'UPDATE', 'EXPORT']);
    const unknown = await get('/api/collections/no-existe/schema');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('La colección «no-existe» no existe.');
    expect((await get('/api/collections/no-existe')).statusCode).toBe(404);
    const reader = await t.createUser({ grants: [{ resource: 'regions', action: 'READ', scope: 'ALL' }] });
    expect((await get('/api/collections/delegates/schema', reader.token)).statusCode).toBe(403);
    expect((await get('/api/collections/regions/schema', reader.token)).json().actions).toEqual(['READ']);
  });

  it('summarises counts per readable collection', async () => {
    const res = (await get('/api/collections/summary')).json();
    expect(res.find((r: { name: string }) => r.name === 'municipalities').count).toBe(340);
  });
});

describe('generic CRUD', () => {
  it('creates, reads, updates, searches, sorts and filters, auditing each change', async () => {
    const code = `R${uid()}`;
    const created = await post('/api/collections/regions', { code: code.toLowerCase(), name: 'Región de prueba' });
    expect(created.statusCode).toBe(201);
    const region = created.json();
    expect(region).toMatchObject({ code, name: 'Región de prueba', isActive: true, label: 'Región de prueba' });
    const updated = await patch(`/api/collections/regions/${region.id}`, { name: 'Región editada' });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().name).toBe('Región editada');
    expect((await get(`/api/collections/regions/${region.id}`)).json().name).toBe('Región editada');
    // The history: the platform's one shape (a page of entries, each field before → after), newest first.
    const history = (await get(`/api/collections/regions/${region.id}/history`)).json();
    expect(history.total).toBe(2);
    expect(history.items.map((h: { action: string }) => h.action)).toEqual(['UPDATE', 'CREATE']);
    expect(history.items[0]).toMatchObject({
      actorEmail: admin.email,
      changes: [{ field: 'name', before: 'Región de prueba', after: 'Región editada' }],
    });
    const paged = (await get(`/api/collections/regions/${region.id}/history?page=2&pageSize=1`)).json();
    expect(paged).toMatchObject({ total: 2, items: [{ action: 'CREATE' }] });

    const found = (await get(`/api/collections/regions?q=${code}`)).json();
    expect(found).toMatchObject({ total: 1, items: [{ id: region.id }] });
    const sorted = (await get('/api/collections/regions?sort=-name&pageSize=3')).json();
    expect(sorted.items.map((r: { name: string }) => r.name)).toEqual(
      [...sorted.items.map((r: { name: string }) => r.name)].sort((a: string, b: string) => b.localeCompare(a, 'es')),
    );
    const byDept = (await get('/api/collections/municipalities?departmentId=17&pageSize=200')).json();
    const peten = await get(`/api/collections/departments?q=Pet%C3%A9n`);
    const petenId = peten.json().items[0].id;
    const petenMunis = (await get(`/api/collections/municipalities?departmentId=${petenId}&pageSize=200`)).json();
    expect(petenMunis.total).toBe(14);
    expect(petenMunis.items.every((m: { labels: { departmentId: string } }) => m.labels.departmentId === 'Petén')).toBe(true);
    expect(byDept.items).toBeDefined();
    const inactive = (await get('/api/collections/regions?isActive=false')).json();
    expect(inactive.items.every((r: { isActive: boolean }) => !r.isActive)).toBe(true);
  });

  it('sorts by a reference field through its label', async () => {
    const res = (await get('/api/collections/municipalities?sort=departmentId&pageSize=5')).json();
    expect(res.items[0].labels.departmentId).toBe('Alta Verapaz');
  });

  it('refuses bad input with field details, never a 500', async () => {
    const cases: [string, unknown][] = [
      ['/api/collections/regions', { code: 'X', name: 5 }],
      ['/api/collections/regions', { code: 'X', name: 'n', extra: true }],
      ['/api/collections/budget-lines', { code: '1', name: 'x', isSubjectToContribution: true }],
      [
        '/api/collections/municipal-entities',
        { code: 'E1', name: 'E', classificationId: 1, municipalityId: 1, nit: '8977112-0' },
      ],
      ['/api/collections/delegates', { userId: admin.id, cui: '1680352240101' }],
    ];
    for (const [url, body] of cases) {
      const res = await post(url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.details.length).toBeGreaterThan(0);
    }
    const nit = await post('/api/collections/municipal-entities', {
      code: 'E1',
      name: 'E',
      classificationId: 1,
      municipalityId: 1,
      nit: '8977112-0',
    });
    expect(nit.json().error.details[0]).toMatchObject({ path: 'nit', message: 'El dígito verificador del NIT no es válido.' });
    const missingRef = await post('/api/collections/municipal-entities', {
      code: `E${uid()}`,
      name: 'E',
      classificationId: 1,
      municipalityId: 999999,
    });
    expect(missingRef.statusCode).toBe(400);
    expect(missingRef.json().error.details).toEqual([
      {
        path: 'municipalityId',
        message: 'Municipio: el registro 999999 no existe.',
        key: 'catalogs.referenceNotFound',
        params: { field: 'Municipio', id: 999999 },
      },
    ]);
    expect((await get('/api/collections/regions?sort=nope')).statusCode).toBe(400);
    expect((await get('/api/collections/regions/abc')).statusCode).toBe(400);
    expect((await get('/api/collections/regions/999999')).statusCode).toBe(404);
  });

  it('caps the page size at 200', async () => {
    const res = (await get('/api/collections/municipalities?pageSize=5000')).json();
    expect(res.items.length).toBe(200);
    expect(res.total).toBe(340);
  });

  it('answers 409 naming the field on a duplicate code or combination', async () => {
    const dup = await post('/api/collections/regions', { code: 'ii', name: 'Otra' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toMatchObject({ code: 'DUPLICATE', details: [{ path: 'code' }] });
    expect(dup.json().error.message).toBe('Ya existe un registro en «Regiones» con Código «II».');
    const ent = await idOf('municipal-entities', 'MUNI-1601');
    const norte = await idOf('regions', 'Norte');
    const pair = await post('/api/collections/entity-regions', { entityId: ent, regionId: norte });
    expect(pair.statusCode).toBe(409);
    expect(pair.json().error.details.map((d: { path: string }) => d.path)).toEqual(['entityId', 'regionId']);
    const other = (await get('/api/collections/regions?q=Central')).json().items[0];
    const rename = await patch(`/api/collections/regions/${other.id}`, { code: 'II' });
    expect(rename.statusCode).toBe(409);
  });

  it('refuses to delete a referenced row naming what uses it, and deletes a free one', async () => {
    const norte = await idOf('regions', 'Norte');
    const res = await del(`/api/collections/regions/${norte}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(
      /^No se puede eliminar «Norte»: lo usan \d+ registros de «Regiones de entidades» y 2 registros de «Departamentos»\. Puede desactivarlo en su lugar\.$/,
    );
    const free = (await post('/api/collections/regions', { code: `X${uid()}`, name: 'Temporal' })).json();
    expect((await del(`/api/collections/regions/${free.id}`)).statusCode).toBe(204);
    expect((await get(`/api/collections/regions/${free.id}`)).statusCode).toBe(404);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'regions'), eq(auditLog.entityId, String(free.id)), eq(auditLog.action, 'DELETE')));
    expect(audit.before).toMatchObject({ name: 'Temporal' });
    expect((await get(`/api/collections/regions/${free.id}/history`)).json().total).toBe(2);
  });

  it('keeps lifecycle codes fixed and reference data for the super administrator', async () => {
    const st = (await get('/api/collections/planilla-statuses?q=BORRADOR')).json().items[0];
    expect((await patch(`/api/collections/planilla-statuses/${st.id}`, { code: 'OTRO' })).statusCode).toBe(400);
    const ok = await patch(`/api/collections/planilla-statuses/${st.id}`, { label: 'En borrador', color: 'grape' });
    expect(ok.json()).toMatchObject({ code: 'BORRADOR', label: 'En borrador', color: 'grape' });
    expect((await post('/api/collections/planilla-statuses', { label: 'x', color: 'red', sortOrder: 9 })).statusCode).toBe(409);
    expect((await del(`/api/collections/planilla-statuses/${st.id}`)).statusCode).toBe(409);

    const editor = await t.createUser({
      grants: (['READ', 'UPDATE', 'CREATE'] as const).map((action): Grant => ({ resource: 'departments', action, scope: 'ALL' })),
    });
    const dep = (await get('/api/collections/departments?q=Pet%C3%A9n', editor.token)).json().items[0];
    const refused = await patch(`/api/collections/departments/${dep.id}`, { name: 'Peten' }, editor.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toMatch(/solo el super administrador/);
    expect((await get('/api/collections/departments/schema', editor.token)).json().actions).toEqual(['READ']);
    expect((await patch(`/api/collections/departments/${dep.id}`, { name: 'Petén' })).statusCode).toBe(200);
  });

  it('creates a delegate linked to a user, with reference options for the user select', async () => {
    const person = await t.createUser();
    const opts = (await get(`/api/collections/delegates/options/userId?q=${encodeURIComponent(person.email)}`)).json();
    expect(opts).toEqual([{ value: person.id, label: expect.stringContaining(person.email) }]);
    const d = await post('/api/collections/delegates', { userId: person.id, cui: '1580 35224 0101', phone: '5555 1234' });
    expect(d.statusCode).toBe(201);
    expect(d.json()).toMatchObject({ cui: '1580352240101', labels: { userId: expect.stringContaining(person.email) } });
    const again = await post('/api/collections/delegates', { userId: person.id, cui: '1587564440904' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.details[0].path).toBe('userId');
    const byIds = (await get(`/api/collections/delegates/options/userId?ids=${person.id}`)).json();
    expect(byIds[0].value).toBe(person.id);
    expect((await get('/api/collections/delegates/options/nope')).statusCode).toBe(404);
    await t.database.db.delete(delegates).where(eq(delegates.userId, person.id));
  });
});

describe('contributor catalogue', () => {
  it('serves the contributor types on the same registry: seeded in order, created, unique, deletable when unused', async () => {
    const list = (await get('/api/collections/contributor-catalogs')).json();
    expect(list.items.map((r: { code: string }) => r.code).slice(0, 4)).toEqual([
      'ACTIVO',
      'VOLUNTARIO',
      'PENSIONADO',
      'BENEFICIARIO',
    ]);
    const code = `TIPO${uid()}`;
    const created = await post('/api/collections/contributor-catalogs', { code, name: 'Jubilado especial', sortOrder: 9 });
    expect(created.statusCode).toBe(201);
    const dup = await post('/api/collections/contributor-catalogs', { code, name: 'Otro', sortOrder: 10 });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.details[0].path).toBe('code');
    expect((await del(`/api/collections/contributor-catalogs/${created.json().id}`)).statusCode).toBe(204);
    const clerk = await t.createUser({ grants: [{ resource: 'contributors', action: 'READ', scope: 'ALL' }] });
    expect((await get('/api/collections/contributor-catalogs', clerk.token)).statusCode).toBe(403);
  });
});

describe('export', () => {
  it('exports the filtered list as xlsx with the same rows as the list', async () => {
    const list = (await get('/api/collections/municipalities?q=San%20Juan&sort=code&pageSize=200')).json();
    const res = await t.request({
      method: 'GET',
      url: '/api/collections/municipalities/export?format=xlsx&q=San%20Juan&sort=code',
      token: admin.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as never);
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).values).toEqual([undefined, 'ID', 'Código', 'Nombre', 'Departamento']);
    const rows: unknown[][] = [];
    ws.eachRow((row, i) => {
      if (i > 1) rows.push((row.values as unknown[]).slice(1));
    });
    expect(rows).toEqual(
      list.items.map((m: { id: number; code: string; name: string; labels: { departmentId: string } }) => [
        m.id,
        m.code,
        m.name,
        m.labels.departmentId,
      ]),
    );
  });

  it('exports csv and needs the EXPORT permission', async () => {
    const res = await get('/api/collections/budget-lines/export?format=csv&isSubjectToContribution=false');
    expect(res.statusCode).toBe(200);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('ID,Código,Nombre,Afecto a cuota,Activo');
    expect(lines.slice(1).every((l) => l.includes(',No,'))).toBe(true);
    const reader = await t.createUser({ grants: [{ resource: 'budget-lines', action: 'READ', scope: 'ALL' }] });
    expect((await get('/api/collections/budget-lines/export', reader.token)).statusCode).toBe(403);
  });
});

describe('the NIT field (shared NIT schema, issue 10)', () => {
  it('stores one form (576937K), finds it typed with or without dash, and shows it with the dash in exports', async () => {
    const cls = await post('/api/collections/classifications', { code: `N${uid()}`, name: 'Con NIT' });
    expect(cls.statusCode).toBe(201);
    const municipalityId = await idOf('municipalities', 'Cobán');
    const code = `NIT${uid()}`;
    const created = await post('/api/collections/municipal-entities', {
      code,
      name: 'Entidad con NIT',
      classificationId: cls.json().id,
      municipalityId,
      nit: '000576937-k',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().nit).toBe('576937K');
    // The full NIT in any form, or a fragment (the search contains it: the table is one row per employer).
    for (const q of ['576937-K', '576937k', '5769', '0576937', '576937-', '5.769.37']) {
      const found = (await get(`/api/collections/municipal-entities?q=${encodeURIComponent(q)}`)).json();
      expect(
        found.items.map((e: { code: string }) => e.code),
        q,
      ).toContain(code);
    }
    const csv = (await get(`/api/collections/municipal-entities/export?format=csv&q=${code}`)).body;
    expect(csv).toContain(`,${code},Entidad con NIT,576937-K,`);
  });

  it('migration 0015 rewrites the dashed NITs catalogues stored before to the shared form', async () => {
    const db = t.database.db;
    const cls = await post('/api/collections/classifications', { code: `M${uid()}`, name: 'Migración' });
    const municipalityId = await idOf('municipalities', 'Cobán');
    const stored = ['576937-K', '000576937-k', '8977112-0', 'sin NIT', null];
    const ids: number[] = [];
    for (const [i, nit] of stored.entries()) {
      const [row] = await db
        .insert(municipalEntities)
        .values({ code: `MIG${uid()}${i}`, name: `M${i}`, classificationId: cls.json().id, municipalityId, nit })
        .returning({ id: municipalEntities.id });
      ids.push(row.id);
    }
    const file = new URL('../../../drizzle/0015_catalog_nit_shared_form.sql', import.meta.url);
    await db.execute(sql.raw(await readFile(file, 'utf8')));
    const rows = await db
      .select({ id: municipalEntities.id, nit: municipalEntities.nit })
      .from(municipalEntities)
      .where(inArray(municipalEntities.id, ids));
    const byId = new Map(rows.map((r) => [r.id, r.nit]));
    // A NIT-shaped value takes the one form (a wrong check digit stays wrong, refused on its next edit).
    expect(ids.map((id) => byId.get(id))).toEqual(['576937K', '576937K', '89771120', 'sin NIT', null]);
  });
});

describe('data scope', () => {
  let delegateUser: TestUser;
  let entityUser: TestUser;
  let norteIds: number[];
  beforeAll(async () => {
    const scoped = (scope: 'REGION' | 'ENTITY'): Grant[] => [
      { resource: 'municipal-entities', action: 'READ', scope },
      { resource: 'municipal-entities', action: 'UPDATE', scope },
      { resource: 'municipal-entities', action: 'EXPORT', scope },
      { resource: 'entity-regions', action: 'READ', scope },
      { resource: 'entity-regions', action: 'CREATE', scope },
    ];
    delegateUser = await t.createUser({ grants: scoped('REGION') });
    entityUser = await t.createUser({ grants: scoped('ENTITY') });
    const norte = await idOf('regions', 'Norte');
    const del1 = (await post('/api/collections/delegates', { userId: delegateUser.id, cui: '1587564440904' })).json();
    expect((await post('/api/collections/region-delegates', { regionId: norte, delegateId: del1.id })).statusCode).toBe(201);
    const extra = await idOf('municipal-entities', 'MUNI-0501');
    expect((await post('/api/collections/entity-assignment', { entityId: extra, delegateId: del1.id })).statusCode).toBe(201);
    const norteLinks = (await get(`/api/collections/entity-regions?regionId=${norte}&pageSize=200`)).json();
    norteIds = [...norteLinks.items.map((l: { entityId: number }) => l.entityId), extra].sort((a, b) => a - b);
    const [inst] = await t.database.db.select().from(institutions).where(eq(institutions.code, 'MUNI-1601'));
    await t.database.db.insert(userInstitutions).values({ userId: entityUser.id, institutionId: inst.id });
  });

  it('a delegate sees only the entities of their regions and those assigned to them', async () => {
    const res = (await get('/api/collections/municipal-entities?pageSize=200&sort=id', delegateUser.token)).json();
    expect(res.items.map((e: { id: number }) => e.id)).toEqual(norteIds);
    expect(res.total).toBe(norteIds.length);
    expect(res.items.some((e: { code: string }) => e.code === 'MUNI-0501')).toBe(true);
    const outside = await idOf('municipal-entities', 'MUNI-0901');
    expect((await get(`/api/collections/municipal-entities/${outside}`, delegateUser.token)).statusCode).toBe(404);
    expect(
      (await patch(`/api/collections/municipal-entities/${outside}`, { phone: '5555 0000' }, delegateUser.token)).statusCode,
    ).toBe(404);
    const csv = (await get('/api/collections/municipal-entities/export?format=csv', delegateUser.token)).body
      .trim()
      .split('\r\n');
    expect(csv.length - 1).toBe(norteIds.length);
    const opts = (await get('/api/collections/entity-regions/options/entityId?q=Municipalidad', delegateUser.token)).json();
    expect(opts.every((o: { value: number }) => norteIds.includes(o.value))).toBe(true);
    const summary = (await get('/api/collections/summary', delegateUser.token)).json();
    expect(summary.find((s: { name: string }) => s.name === 'municipal-entities').count).toBe(norteIds.length);
    const cobanOutsideRegion = await post(
      '/api/collections/entity-regions',
      { entityId: outside, regionId: 1 },
      delegateUser.token,
    );
    expect(cobanOutsideRegion.statusCode).toBe(400);
    expect(cobanOutsideRegion.json().error.details[0].message).toBe('Entidad: la entidad está fuera de su alcance.');
  });

  it('an entity clerk sees only their own entity', async () => {
    const res = (await get('/api/collections/municipal-entities', entityUser.token)).json();
    expect(res.items.map((e: { code: string }) => e.code)).toEqual(['MUNI-1601']);
  });

  it('a deactivated delegate sees nothing', async () => {
    await t.database.db.update(delegates).set({ isActive: false }).where(eq(delegates.userId, delegateUser.id));
    expect((await get('/api/collections/municipal-entities', delegateUser.token)).json().total).toBe(0);
    await t.database.db.update(delegates).set({ isActive: true }).where(eq(delegates.userId, delegateUser.id));
  });
});

describe('demo data', () => {
  it('seeds delegates who can sign in and see only their regions, idempotently', async () => {
    await seedAccountsDemo(t.database.db);
    await seedCatalogDemo(t.database.db);
    const token = await t.login('delegado@demo.aporta.local', DEMO_PASSWORD);
    const names = (await get('/api/collections', token)).json();
    expect(names).toEqual(['municipal-entities', 'entity-regions', 'entity-assignment']);
    const ents = (await get('/api/collections/municipal-entities?pageSize=200', token)).json();
    expect(ents.items.some((e: { name: string }) => e.name === 'Municipalidad de Cobán')).toBe(true);
    expect(ents.items.some((e: { name: string }) => e.name === 'Municipalidad de Escuintla')).toBe(false);
    expect(ents.items.some((e: { name: string }) => e.name === 'Mancomunidad Costa Sur')).toBe(true);
    await seedCatalogDemo(t.database.db);
  });
});
