import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import Fastify from 'fastify';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../test/harness.ts';
import { registerErrorHandling } from './errors.ts';
import { type ExportColumn, liveXlsxWorkers, MAX_XLSX_WORKERS, sendExport, writeExportFile } from './export.ts';
import { localFileStore } from './files.ts';
import { xlsxRows } from './imports/reader.ts';
import { JobCancelledError } from './jobs.ts';

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

/**
 * Makes every xlsx worker die as the main thread sees it: gone without finishing its file. It is asked to
 * exit (the message export.ts's `close` sends) rather than terminated: a terminate() that lands inside a
 * zlib stream's constructor aborts the whole test process (node_zlib.cc "close before init").
 */
const killWorkers = () =>
  Promise.all(
    [...liveXlsxWorkers()].map((w) => {
      const gone = once(w, 'exit');
      w.postMessage({ type: 'stop' });
      return gone;
    }),
  );

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

describe('xlsx written by a worker thread', () => {
  interface Row {
    n: number;
    name: string;
    amount: string | null;
    day: Date;
    active: boolean;
  }
  const columns: ExportColumn<Row>[] = [
    { header: 'N', value: (r) => r.n },
    { header: 'Nombre', value: (r) => r.name, width: 30 },
    { header: 'Monto', value: (r) => r.amount, money: true },
    { header: 'Fecha', value: (r) => r.day },
    { header: 'Activo', value: (r) => r.active },
  ];
  const row = (n: number): Row => ({
    n,
    name: n % 5 === 0 ? '=SUMA(A1)' : `ÁNGELA PÉREZ ${n}`,
    amount: n % 7 === 0 ? null : `${n % 2 ? '-' : ''}${n}234567.8${n % 10}`,
    day: new Date(Date.UTC(2026, 0, 1 + (n % 300))),
    active: n % 2 === 0,
  });
  async function* batches(count: number, size: number, each?: (i: number) => void | Promise<void>): AsyncIterable<Row[]> {
    for (let i = 0; i < count; i++) {
      await each?.(i);
      yield Array.from({ length: size }, (_, k) => row(i * size + k + 1));
    }
  }
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'aporta-xlsx-worker-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const filesIn = (folder: string) => readdirSync(join(dir, folder), { recursive: true }).filter((f) => String(f).includes('.'));
  const workersGone = async () => {
    await Promise.all([...liveXlsxWorkers()].map((w) => once(w, 'exit')));
    expect(liveXlsxWorkers().size).toBe(0);
  };

  it('writes a file that ExcelJS and the imports reader read back: text as is, money numeric #,##0.00, dates, booleans, empty cells', async () => {
    const store = localFileStore(join(dir, 'ok'));
    const { rows, size } = await writeExportFile(store, 'x/ok.xlsx', {
      format: 'xlsx',
      sheetName: 'Prueba',
      columns,
      batches: batches(3, 40),
    });
    expect(rows).toBe(120);
    expect(size).toBeGreaterThan(0);
    await workersGone();

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(join(dir, 'ok', 'x', 'ok.xlsx'));
    const ws = wb.getWorksheet('Prueba');
    expect(ws?.actualRowCount).toBe(121);
    expect(ws?.getRow(1).values).toEqual([undefined, 'N', 'Nombre', 'Monto', 'Fecha', 'Activo']);
    expect(ws?.getRow(1).font?.bold).toBe(true);
    const money = ws?.getCell('C2');
    expect(money?.value).toBe(-1234567.81);
    expect(money?.numFmt).toBe('#,##0.00');
    expect(ws?.getCell('C8').value).toBeNull();
    expect(ws?.getCell('B6').value).toBe('=SUMA(A1)');
    expect(ws?.getCell('D2').value).toEqual(new Date(Date.UTC(2026, 0, 2)));
    expect(ws?.getCell('E2').value).toBe(false);
    expect(ws?.getCell('E3').value).toBe(true);

    const read = [];
    for await (const r of xlsxRows(join(dir, 'ok', 'x', 'ok.xlsx'))) read.push(r);
    expect(read).toHaveLength(121);
    expect(read[1].cells).toEqual([1, 'ÁNGELA PÉREZ 1', -1234567.81, new Date(Date.UTC(2026, 0, 2)), 'FALSO']);
    expect(read[120].cells[0]).toBe(120);
  });

  it('writes an export of one batch on the main thread, without starting a worker', async () => {
    const workersSeen: number[] = [];
    const store = {
      kind: 'local' as const,
      async put(_key: string, body: NodeJS.ReadableStream) {
        let size = 0;
        for await (const chunk of body) {
          workersSeen.push(liveXlsxWorkers().size);
          size += (chunk as Buffer).length;
        }
        return { size };
      },
      get: () => Promise.reject(new Error('not used')),
      delete: async () => {},
    };
    const { rows, size } = await writeExportFile(store, 'x/one.xlsx', { format: 'xlsx', columns, batches: batches(1, 50) });
    expect(rows).toBe(50);
    expect(size).toBeGreaterThan(0);
    expect(workersSeen.length).toBeGreaterThan(0);
    expect(workersSeen.every((n) => n === 0)).toBe(true);
  });

  it('builds no row XML on the main thread, and the main thread runs its timers while the worker writes a batch', async () => {
    const addWorksheet = vi.spyOn(ExcelJS.stream.xlsx.WorkbookWriter.prototype, 'addWorksheet');
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
    }, 1);
    // Batch 0 is large. When batch 2 is asked for, batch 1 was posted, which waits for the worker to take
    // batch 0: the ticks between asking for batch 1 and for batch 2 ran while the worker wrote batch 0.
    const ticksAt: number[] = [];
    const store = localFileStore(join(dir, 'free'));
    let sheetsOnMainThread = -1;
    try {
      await writeExportFile(store, 'x/free.xlsx', {
        format: 'xlsx',
        columns,
        batches: (async function* () {
          ticksAt.push(ticks);
          yield Array.from({ length: 20_000 }, (_, k) => row(k + 1));
          ticksAt.push(ticks);
          yield [row(20_001)];
          ticksAt.push(ticks);
        })(),
      });
    } finally {
      clearInterval(timer);
      sheetsOnMainThread = addWorksheet.mock.calls.length;
      addWorksheet.mockRestore();
    }
    expect(sheetsOnMainThread).toBe(0);
    // More than the one turn an export yields between batches by itself (the code before the worker: 0 or 1).
    expect(ticksAt[2] - ticksAt[1]).toBeGreaterThan(1);
    await workersGone();
  });

  it(`writes at most ${MAX_XLSX_WORKERS} files at once: a further export waits for a place, then completes`, async () => {
    const store = localFileStore(join(dir, 'cap'));
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let most = 0;
    const runs = Array.from({ length: MAX_XLSX_WORKERS + 1 }, (_, i) =>
      writeExportFile(store, `x/cap-${i}.xlsx`, {
        format: 'xlsx',
        columns,
        batches: batches(3, 10, async (b) => {
          most = Math.max(most, liveXlsxWorkers().size);
          // Batch 1 is read before the worker starts (an export of one batch needs none).
          if (b === 2) await gate;
        }),
      }),
    );
    const deadline = Date.now() + 20_000;
    while (liveXlsxWorkers().size < MAX_XLSX_WORKERS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(liveXlsxWorkers().size).toBe(MAX_XLSX_WORKERS);
    release();
    const done = await Promise.all(runs);
    expect(done.map((d) => d.rows)).toEqual(Array(MAX_XLSX_WORKERS + 1).fill(30));
    expect(most).toBeLessThanOrEqual(MAX_XLSX_WORKERS);
    expect(filesIn('cap')).toHaveLength(MAX_XLSX_WORKERS + 1);
    await workersGone();
  });

  it('fails in Spanish when the worker dies mid-export, leaving no file in the store', async () => {
    const store = localFileStore(join(dir, 'died'));
    const run = writeExportFile(store, 'x/died.xlsx', {
      format: 'xlsx',
      columns,
      batches: batches(50, 100, async (i) => {
        if (i === 3) await killWorkers();
      }),
    });
    await expect(run).rejects.toMatchObject({
      code: 'INTERNAL',
      message: expect.stringMatching(/^La exportación a Excel falló/),
    });
    await workersGone();
    expect(filesIn('died')).toEqual([]);
  });

  it('a cancelled job (its progress report throws) terminates the worker and leaves no file', async () => {
    const store = localFileStore(join(dir, 'cancel'));
    const seen = new Set<unknown>();
    const run = writeExportFile(store, 'x/cancel.xlsx', {
      format: 'xlsx',
      columns,
      batches: batches(50, 100),
      onBatch: async (done) => {
        for (const w of liveXlsxWorkers()) seen.add(w);
        if (done >= 300) throw new JobCancelledError();
      },
    });
    await expect(run).rejects.toBeInstanceOf(JobCancelledError);
    expect(seen.size).toBe(1);
    await workersGone();
    expect(filesIn('cancel')).toEqual([]);
  });

  it('terminates the worker and stops reading when the client of a download goes away', async () => {
    const app = Fastify({ logger: false });
    let read = 0;
    let stopped = false;
    app.get('/x', async (_request, reply) =>
      sendExport(reply, {
        format: 'xlsx',
        filename: 'prueba',
        columns,
        batches: (async function* () {
          try {
            for (let i = 0; i < 100_000; i++) {
              read += 1;
              yield Array.from({ length: 100 }, (_, k) => row(i * 100 + k + 1));
            }
          } finally {
            stopped = true;
          }
        })(),
      }),
    );
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => {
      const req = get({ host: '127.0.0.1', port, path: '/x' }, (r) => {
        let bytes = 0;
        r.on('data', (c: Buffer) => {
          bytes += c.length;
          // Gone after the first 200 KB.
          if (bytes > 200_000) {
            req.destroy();
            resolve();
          }
        });
      });
      req.on('error', () => {});
    });
    const deadline = Date.now() + 20_000;
    while ((liveXlsxWorkers().size > 0 || !stopped) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await app.close();
    expect(stopped).toBe(true);
    expect(read).toBeLessThan(100_000);
    expect(liveXlsxWorkers().size).toBe(0);
  });

  it('aborts a download whose worker dies after the first bytes: the client sees an incomplete answer', async () => {
    const app = Fastify({ logger: false });
    const logged: unknown[] = [];
    app.get('/x', async (request, reply) => {
      request.log.error = ((obj: unknown) => logged.push(obj)) as typeof request.log.error;
      return sendExport(reply, {
        format: 'xlsx',
        filename: 'prueba',
        columns,
        batches: batches(200, 100, async (i) => {
          if (i === 20) await killWorkers();
        }),
      });
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as AddressInfo).port;
    const res = await new Promise<{ status: number; bytes: number; complete: boolean }>((resolve) => {
      get({ host: '127.0.0.1', port, path: '/x' }, (r) => {
        let bytes = 0;
        r.on('data', (c: Buffer) => {
          bytes += c.length;
        });
        const done = (complete: boolean) => resolve({ status: r.statusCode ?? 0, bytes, complete });
        r.on('end', () => done(r.complete));
        r.on('error', () => done(false));
        r.on('aborted', () => done(false));
      });
    });
    await app.close();
    expect(res.status).toBe(200);
    expect(res.complete).toBe(false);
    expect(logged).toHaveLength(1);
    await workersGone();
  });
});
