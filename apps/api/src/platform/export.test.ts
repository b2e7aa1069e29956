import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../test/harness.ts';
import { registerErrorHandling } from './errors.ts';
import { sendExport } from './export.ts';

/**
 * Exports read in keyset chunks of 1 000 rows: every row exactly once and in sort order even when the
 * sort values repeat across chunk borders or are NULL, and other requests are answered while one runs.
 */
let t: TestApp;
let admin: TestUser;
const CONTRIBUTORS = 2_600;
const AUDIT_ROWS = 2_300;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  const db = t.database.db;
  await db.execute(sql`insert into contributor_types (code, name) values ('EXP-T', 'Tipo de prueba de exportación')`);
  // Seven birth dates only: every chunk border falls inside a run of equal sort values.
  await db.execute(sql`
    insert into contributors (cui, first_name, first_surname, search_name, birth_date, sex, type_id)
    select '9' || lpad(g::text, 12, '0'), 'ANA', 'LOPEZ', 'ANA LOPEZ', date '1980-01-01' + (g % 7), 'F',
           (select id from contributor_types where code = 'EXP-T')
    from generate_series(1, ${CONTRIBUTORS}) g`);
  // A nullable sort column: one row in three without an e-mail.
  await db.execute(sql`
    insert into audit_log (actor_email, action, entity_type, entity_id)
    select case when g % 3 = 0 then null else 'u' || (g % 4) || '@prueba.gt' end, 'EXPORT_TEST', 'export-test', g::text
    from generate_series(1, ${AUDIT_ROWS}) g`);
});
afterAll(() => t.close());

const csvRows = (body: string) => Papa.parse<string[]>(body.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data.slice(1);

describe('keyset exports', () => {
  for (const sort of ['birthDate', '-birthDate', 'name', '-updatedAt', 'id', '-id']) {
    it(`exports every contributor exactly once, in order, sorted by ${sort}`, async () => {
      const res = await t.request({ method: 'GET', url: `/api/contributors/export?format=csv&sort=${sort}`, token: admin.token });
      expect(res.statusCode).toBe(200);
      const cuis = csvRows(res.body).map((r) => r[0].replace(/\D/g, ''));
      const field = sort.replace('-', '');
      const column = { birthDate: 'birth_date', name: 'search_name', updatedAt: 'updated_at', id: 'id' }[field];
      const dir = sort.startsWith('-') ? 'desc' : 'asc';
      const expected = await t.database.db.execute<{ cui: string }>(
        sql.raw(`select cui from contributors order by ${column} ${dir}, id ${column === 'id' ? '' : dir}`),
      );
      const rows = (expected as unknown as { rows: { cui: string }[] }).rows ?? (expected as unknown as { cui: string }[]);
      expect(cuis.length).toBeGreaterThanOrEqual(CONTRIBUTORS);
      expect(new Set(cuis).size).toBe(cuis.length);
      expect(cuis).toEqual(rows.map((r) => r.cui));
    });
  }

  for (const sort of ['actorEmail', '-actorEmail', 'entityId']) {
    it(`exports every audit row exactly once with a nullable sort column (${sort})`, async () => {
      const res = await t.request({
        method: 'GET',
        url: `/api/audit/export?format=csv&action=EXPORT_TEST&sort=${sort}`,
        token: admin.token,
      });
      expect(res.statusCode).toBe(200);
      const ids = csvRows(res.body).map((r) => Number(r[0]));
      const column = sort.replace('-', '') === 'actorEmail' ? 'actor_email' : 'entity_id';
      const dir = sort.startsWith('-') ? 'desc' : 'asc';
      const expected = await t.database.db.execute(
        sql.raw(`select id from audit_log where action = 'EXPORT_TEST' order by ${column} ${dir}, id ${dir}`),
      );
      const rows = (expected as unknown as { rows: { id: string | number }[] }).rows ?? (expected as unknown as { id: number }[]);
      expect(ids.length).toBe(AUDIT_ROWS);
      expect(new Set(ids).size).toBe(AUDIT_ROWS);
      expect(ids).toEqual(rows.map((r) => Number(r.id)));
    });
  }

  it('exports xlsx with every row (header + rows)', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/contributors/export?format=xlsx&sort=-birthDate',
      token: admin.token,
    });
    expect(res.statusCode).toBe(200);
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets[0].actualRowCount).toBeGreaterThan(CONTRIBUTORS);
  });

  it('answers other requests while an export is in progress', async () => {
    let exportDone = false;
    const exporting = t
      .request({ method: 'GET', url: '/api/contributors/export?format=csv&sort=birthDate', token: admin.token })
      .then((res) => {
        exportDone = true;
        return res;
      });
    // Wait until the export has started reading, then ask for health and a list.
    await new Promise((resolve) => setImmediate(resolve));
    const health = await t.request({ method: 'GET', url: '/api/health' });
    const healthAnsweredDuringExport = !exportDone;
    const list = await t.request({ method: 'GET', url: '/api/contributors?pageSize=5', token: admin.token });
    expect(health.statusCode).toBe(200);
    expect(list.statusCode).toBe(200);
    expect(healthAnsweredDuringExport).toBe(true);
    expect((await exporting).statusCode).toBe(200);
  });
});

describe('an export that fails', () => {
  /** A bare server whose export yields `good` batches, then fails. */
  async function failingServer(good: number) {
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    const logged: unknown[] = [];
    app.get('/x', async (request, reply) => {
      request.log.error = ((obj: unknown) => logged.push(obj)) as typeof request.log.error;
      async function* batches() {
        for (let i = 0; i < good; i++) yield Array.from({ length: 500 }, (_, k) => ({ n: i * 500 + k, text: 'x'.repeat(200) }));
        throw new AppError('VALIDATION', undefined, [{ path: 'consulta.sort', message: 'No se puede ordenar.' }]);
      }
      return sendExport(reply, {
        format: (request.query as { format: 'csv' | 'xlsx' }).format,
        filename: 'prueba',
        columns: [
          { header: 'N', value: (r: { n: number }) => r.n },
          { header: 'Texto', value: (r: { text: string }) => r.text },
        ],
        batches: batches(),
      });
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    return { app, port: (app.server.address() as AddressInfo).port, logged };
  }

  const fetchRaw = (port: number, path: string) =>
    new Promise<{ status: number; type: string; body: string; complete: boolean }>((resolve) => {
      get({ host: '127.0.0.1', port, path }, (res) => {
        let body = '';
        res.setEncoding('latin1');
        res.on('data', (c) => {
          body += c;
        });
        const done = (complete: boolean) =>
          resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body, complete });
        res.on('end', () => done(res.complete));
        res.on('error', () => done(false));
        res.on('aborted', () => done(false));
      });
    });

  it('answers a failure of the first batch with a JSON error and no file', async () => {
    const { app, port } = await failingServer(0);
    const res = await fetchRaw(port, '/x?format=csv');
    await app.close();
    expect(res.status).toBe(400);
    expect(res.type).toMatch(/application\/json/);
    expect(JSON.parse(res.body).error.details[0].path).toBe('consulta.sort');
  });

  for (const format of ['csv', 'xlsx']) {
    it(`aborts a ${format} download that fails after it started: the client sees an incomplete answer, the error is logged`, async () => {
      const { app, port, logged } = await failingServer(3);
      const res = await fetchRaw(port, `/x?format=${format}`);
      await app.close();
      expect(res.status).toBe(200);
      expect(res.body.length).toBeGreaterThan(0);
      expect(res.complete).toBe(false);
      expect(logged.length).toBe(1);
    });
  }
});
