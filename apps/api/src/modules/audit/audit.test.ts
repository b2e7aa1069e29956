import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { systemActor, writeAudit } from '../../platform/audit.ts';
import { canonicalAuditRow, chainHash, sealAuditChain } from '../../platform/audit-chain.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  // A planilla change as the planillas module will write it, plus catalogue changes through the API.
  await writeAudit(t.database.db, systemActor, {
    action: 'SUBMIT',
    entityType: 'planilla',
    entityId: 77,
    before: { status: 'BORRADOR' },
    after: { status: 'ENVIADA' },
  });
  const r = await t.request({
    method: 'POST',
    url: '/api/collections/regions',
    token: admin.token,
    payload: { code: 'AUD1', name: 'Auditada' },
  });
  await t.request({
    method: 'PATCH',
    url: `/api/collections/regions/${r.json().id}`,
    token: admin.token,
    payload: { name: 'Auditada 2' },
  });
});
afterAll(() => t.close());

const get = (url: string, token = admin.token) => t.request({ method: 'GET', url, token });

describe('general audit view', () => {
  it('filters by user, entity type, record, action and date range', async () => {
    const byActor = (await get(`/api/audit?actor=${encodeURIComponent(admin.email)}&entityType=regions`)).json();
    expect(byActor.items.map((e: { action: string }) => e.action)).toEqual(['UPDATE', 'CREATE']);
    expect(byActor.items[0]).toMatchObject({ before: { name: 'Auditada' }, after: { name: 'Auditada 2' } });
    const byActorId = (await get(`/api/audit?actorId=${admin.id}&action=CREATE&entityType=regions`)).json();
    expect(byActorId.total).toBe(1);
    const rec = (await get('/api/audit?entityType=planilla&entityId=77')).json();
    expect(rec.items[0]).toMatchObject({ action: 'SUBMIT', actorEmail: 'sistema' });
    const today = new Date(Date.now() - 6 * 3_600_000).toISOString().slice(0, 10);
    expect((await get(`/api/audit?from=${today}&to=${today}&entityType=regions`)).json().total).toBe(2);
    expect((await get('/api/audit?to=2000-01-01')).json().total).toBe(0);
    expect((await get('/api/audit?from=01/01/2020')).statusCode).toBe(400);
    const facets = (await get('/api/audit/facets')).json();
    expect(facets.entityTypes).toEqual(expect.arrayContaining(['planilla', 'regions', 'session']));
  });

  it('exports with the same filters', async () => {
    const res = await get('/api/audit/export?format=xlsx&entityType=regions');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as never);
    expect(wb.worksheets[0].rowCount).toBe(3);
    expect(wb.worksheets[0].getRow(2).getCell(4).value).toBe('UPDATE');
  });

  it('needs the audit permission', async () => {
    const other = await t.createUser({ grants: [{ resource: 'planilla-audit-logs', action: 'READ', scope: 'ALL' }] });
    expect((await get('/api/audit', other.token)).statusCode).toBe(403);
    expect((await get('/api/audit/planillas', other.token)).statusCode).toBe(200);
  });
});

describe('planilla audit view', () => {
  it('shows only planilla rows, whatever entity type is asked for', async () => {
    const res = (await get('/api/audit/planillas?entityType=regions')).json();
    expect(res.total).toBe(1);
    expect(res.items[0]).toMatchObject({ entityType: 'planilla', entityId: '77' });
    expect((await get('/api/audit/planillas/facets')).json()).toEqual({ entityTypes: ['planilla'], actions: ['SUBMIT'] });
  });
});

describe('audit rows and the data scope', () => {
  it('migration 0005 back-fills the entity of rows written before the column', async () => {
    const { readFileSync } = await import('node:fs');
    const { eq, sql } = await import('drizzle-orm');
    const { auditLog } = await import('../../db/schema/index.ts');
    const { contributorFixtures } = await import('../contributors/fixtures.ts');
    const db = t.database.db;
    const fx = await contributorFixtures(db);
    const [{ id }] = await db
      .insert(auditLog)
      .values([
        { action: 'UPDATE', entityType: 'municipal-entities', entityId: String(fx.entityB.id) },
        { action: 'DELETE', entityType: 'entity-regions', entityId: '999', before: { entityId: fx.entityA.id, regionId: 1 } },
        { action: 'UPDATE', entityType: 'role', entityId: '1' },
      ])
      .returning({ id: auditLog.id });
    const file = new URL('../../../drizzle/0006_audit_scope_entity.sql', import.meta.url);
    const statements = readFileSync(file, 'utf8').split('--> statement-breakpoint').slice(2);
    for (const s of statements) await db.execute(sql.raw(s));
    const rows = await db.select().from(auditLog).where(sql`${auditLog.id} >= ${id}`).orderBy(auditLog.id);
    expect(rows.map((r) => r.scopeEntityId)).toEqual([fx.entityB.id, fx.entityA.id, null]);
    // Rows the writer produces carry it directly (here a municipal entity edited through the catalogue).
    await t.request({
      method: 'PATCH',
      url: `/api/collections/municipal-entities/${fx.entityA.id}`,
      token: admin.token,
      payload: { name: 'Entidad auditada' },
    });
    const [written] = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(fx.entityA.id)))
      .orderBy(sql`${auditLog.id} desc`)
      .limit(1);
    expect(written).toMatchObject({ entityType: 'municipal-entities', scopeEntityId: fx.entityA.id });
  });
});

describe('one record history', () => {
  it('answers the changes of one record, newest first and paged, only within the audit scope', async () => {
    const { auditLog } = await import('../../db/schema/index.ts');
    const db = t.database.db;
    await db.insert(auditLog).values([
      {
        action: 'CREATE',
        entityType: 'contributor',
        entityId: '9001',
        after: { name: 'Ana', salary: '100.00' },
        scopeEntityId: null,
      },
      {
        action: 'UPDATE',
        entityType: 'contributor',
        entityId: '9001',
        before: { name: 'Ana', salary: '100.00', tags: ['a'] },
        after: { name: 'Ana María', salary: '100.00', tags: ['a', 'b'] },
      },
      { action: 'UPDATE', entityType: 'contributor', entityId: '9002', before: { name: 'Otro' }, after: { name: 'Otra' } },
    ]);
    const all = await get('/api/audit/records/contributor/9001');
    expect(all.statusCode).toBe(200);
    const body = all.json();
    expect(body.total).toBe(2);
    expect(body.items.map((e: { action: string }) => e.action)).toEqual(['UPDATE', 'CREATE']);
    expect(body.items[0].changes).toEqual([
      { field: 'name', before: 'Ana', after: 'Ana María' },
      { field: 'tags', before: '["a"]', after: '["a","b"]' },
    ]);
    expect(body.items[1].changes).toEqual([
      { field: 'name', before: null, after: 'Ana' },
      { field: 'salary', before: null, after: '100.00' },
    ]);
    const page2 = (await get('/api/audit/records/contributor/9001?page=2&pageSize=1')).json();
    expect(page2).toMatchObject({ total: 2, items: [{ action: 'CREATE' }] });

    // Rows of no entity (users, roles, catalogues, here) are seen only with an ALL grant.
    const entityReader = await t.createUser({ grants: [{ resource: 'audit', action: 'READ', scope: 'ENTITY' }] });
    const scoped = await get('/api/audit/records/contributor/9001', entityReader.token);
    expect(scoped.statusCode).toBe(200);
    expect(scoped.json()).toEqual({ items: [], total: 0 });
    // The planilla view's permission is not the general trail's.
    const planillaReader = await t.createUser({ grants: [{ resource: 'planilla-audit-logs', action: 'READ', scope: 'ALL' }] });
    expect((await get('/api/audit/records/contributor/9001', planillaReader.token)).statusCode).toBe(403);
  });

  it('refuses malformed record names with a 400 naming the path', async () => {
    const bad = await get('/api/audit/records/Contributor%20X/1');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION');
    expect((await get('/api/audit/records/contributor/9001?pageSize=500')).statusCode).toBe(400);
  });
});

describe('the hash chain for auditors', () => {
  it('verifies the chain: intact up to the last row, for an ALL grant only', async () => {
    const res = await get('/api/audit/verify');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const { sql } = await import('drizzle-orm');
    const [{ max }] = rowsOf<{ max: number }>(await t.database.db.execute(sql`select max(id)::int as max from audit_log`));
    expect(body).toMatchObject({ intact: true, broken: null, intactThroughId: max, pendingRows: 0 });
    expect(body.headHash).toMatch(/^[0-9a-f]{64}$/);
    const entityReader = await t.createUser({ grants: [{ resource: 'audit', action: 'READ', scope: 'ENTITY' }] });
    const refused = await get('/api/audit/verify', entityReader.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.key).toBe('accounts.auditVerifyRequiresAllScope');
    const planillaReader = await t.createUser({ grants: [{ resource: 'planilla-audit-logs', action: 'READ', scope: 'ALL' }] });
    expect((await get('/api/audit/verify', planillaReader.token)).statusCode).toBe(403);
  });

  it('names a row changed in SQL on the route the screen calls', async () => {
    const { sql } = await import('drizzle-orm');
    const db = t.database.db;
    await sealAuditChain(db, { untilNow: true });
    const [{ id }] = rowsOf<{ id: number }>(
      await db.execute(sql`select min(id)::int as id from audit_log where entity_type = 'regions'`),
    );
    const [{ kept }] = rowsOf<{ kept: string }>(
      await db.execute(sql`select after::text as kept from audit_log where id = ${id}`),
    );
    await db.execute(sql`update audit_log set after = '{"name":"Cambiado a mano"}'::jsonb where id = ${id}`);
    const body = (await get('/api/audit/verify')).json();
    expect(body).toMatchObject({ intact: false, broken: { kind: 'CHANGED', id } });
    expect(body.intactThroughId).toBeLessThan(id);
    await db.execute(sql`update audit_log set after = ${kept}::jsonb where id = ${id}`);
    expect((await get('/api/audit/verify')).json().intact).toBe(true);
  });

  it('exports each row with its chain: an auditor recomputes every hash from the file', async () => {
    await sealAuditChain(t.database.db, { untilNow: true });
    const res = await get('/api/audit/export?format=xlsx&entityType=regions&sort=id');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as never);
    const sheet = wb.worksheets[0];
    const headers = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
    expect(headers).toEqual(expect.arrayContaining(['Posición en la cadena', 'Hash anterior', 'Hash', 'Marca de tiempo (UTC)']));
    const col = (name: string) => headers.indexOf(name) + 1;
    const cell = (r: number, name: string) => {
      const v = sheet.getRow(r).getCell(col(name)).value;
      return v == null || v === '' ? null : String(v);
    };
    expect(sheet.rowCount).toBeGreaterThanOrEqual(3);
    for (let r = 2; r <= sheet.rowCount; r++) {
      const row = {
        id: cell(r, 'ID')!,
        seq: cell(r, 'Posición en la cadena'),
        prevId: cell(r, 'Registro anterior en la cadena'),
        at: cell(r, 'Marca de tiempo (UTC)')!,
        actorId: cell(r, 'ID de usuario'),
        actorEmail: cell(r, 'Usuario'),
        action: cell(r, 'Acción')!,
        entityType: cell(r, 'Tipo de registro')!,
        entityId: cell(r, 'Registro'),
        before: cell(r, 'Antes'),
        after: cell(r, 'Después'),
        ip: cell(r, 'IP'),
        scopeEntityId: cell(r, 'Entidad'),
        prevHash: cell(r, 'Hash anterior'),
        hash: cell(r, 'Hash'),
      };
      expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(chainHash(row.prevHash!, canonicalAuditRow(row, row.seq!, row.prevId))).toBe(row.hash);
    }
  });
});
