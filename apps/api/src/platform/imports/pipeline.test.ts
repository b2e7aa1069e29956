import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ImportColumn, parseAmount, type Scope } from '@aporta/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, importBatches, importChunks, importRows, jobs, users } from '../../db/schema/index.ts';
import { attachUserToEntity, contributorFixtures } from '../../modules/contributors/fixtures.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { encryptedWorkbook, legacyWorkbook, utf16 } from '../../test/office.ts';
import { createContext, type RequestContext } from '../context.ts';
import { JobWorker, jobMessages, requestCancel } from '../jobs.ts';
import { loadCurrentUser } from '../session.ts';
import { defineImportKind } from './kind.ts';
import {
  CANCELLED_COMMIT_MESSAGE,
  CANCELLED_IMPORT_MESSAGE,
  commitBatch,
  discardBatch,
  exceptionsExport,
  FAILED_COMMIT_MESSAGE,
  findBatchRows,
  findOpenBatches,
  getBatch,
  IMPORT_CHUNK_ROWS,
  INTERRUPTED_IMPORT_MESSAGE,
  recoverImports,
  stageUpload,
} from './pipeline.ts';

/**
 * A second, tiny import kind defined here and nowhere else: it proves the seam. Lines of a "sheet":
 * CODIGO (the key: repeated codes are exceptions), MONTO (blocking when not a positive amount, a warning
 * above 1 000) and ENTIDAD (a municipal entity code, checked against the uploader's scope).
 */
type Key = 'code' | 'amount' | 'entity';
const columns: ImportColumn<Key>[] = [
  { key: 'code', header: 'CODIGO', required: true, aliases: ['CÓDIGO DE LÍNEA'] },
  { key: 'amount', header: 'MONTO', required: true },
  { key: 'entity', header: 'ENTIDAD', required: false },
];
/** Hooks the tests use to pause a validation between chunks, and a commit inside its transaction. */
const hooks = { beforeChunk: async () => {}, inCommit: async () => {}, checkCommit: async () => {} };

const sheetKind = defineImportKind<Key, { code: string; cents: string; entityId: number | null }, Map<string, number>, null>({
  kind: 'test-sheet',
  resource: 'contributor-bulk-upload',
  auditEntityType: 'test_sheet_import',
  columns,
  async prepare(ctx) {
    const rows = await ctx.db.execute<{ id: number; code: string }>(sql`select id, code from municipal_entities`);
    return new Map((rows as unknown as { rows: { id: number; code: string }[] }).rows.map((r) => [r.code, r.id]));
  },
  async prefetch() {
    await hooks.beforeChunk();
    return null;
  },
  validateRow(row, entities) {
    const errors = [];
    const warnings = [];
    const code = row.values.code?.trim() ?? '';
    if (!code) errors.push({ column: 'CODIGO', message: 'Falta el código.' });
    const amount = parseAmount(row.numberCells.has('amount') ? Number(row.values.amount) : (row.values.amount ?? ''));
    if (!amount.ok) errors.push({ column: 'MONTO', message: amount.message });
    else if (amount.cents <= 0n) errors.push({ column: 'MONTO', message: 'El monto debe ser mayor que cero.' });
    else if (amount.cents > 100_000n) warnings.push({ column: 'MONTO', message: 'Monto alto: revíselo.' });
    const entityCode = row.values.entity?.trim();
    const entityId = entityCode ? (entities.get(entityCode) ?? null) : null;
    if (entityCode && entityId == null) errors.push({ column: 'ENTIDAD', message: 'La entidad no existe.' });
    if (errors.length) return { key: code, errors, warnings };
    return { key: code, entityId, data: { code, cents: amount.ok ? String(amount.cents) : '0', entityId }, errors, warnings };
  },
  uniqueKey: { column: 'code', message: (first) => `Código repetido (fila ${first}).` },
  async checkCommit() {
    await hooks.checkCommit();
  },
  async commit(_ctx, tx, batch) {
    await hooks.inCommit();
    const r = await tx.execute<{ n: number }>(sql`
      with ins as (
        insert into test_sheet_lines (batch_id, code, cents, entity_id)
        select ${batch.id}::uuid, d.code, d.cents, d."entityId"
        from import_rows r, jsonb_to_record(r.data) as d(code text, cents bigint, "entityId" int)
        where r.batch_id = ${batch.id}::uuid and r.is_valid order by r.row_number
        returning 1)
      select count(*)::int as n from ins`);
    return (r as unknown as { rows: { n: number }[] }).rows[0].n;
  },
});

let t: TestApp;
let owner: TestUser;
let dir: string;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;

async function contextOf(user: TestUser, scope: Scope = 'ALL'): Promise<RequestContext> {
  const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
  const current = await loadCurrentUser(t.database.db, row);
  return createContext({ db: t.database.db, user: current, actor: { id: row.id, email: row.email }, scope });
}

async function csvFile(name: string, lines: string[]) {
  const path = join(dir, name);
  await writeFile(path, `${lines.join('\r\n')}\r\n`, 'utf8');
  return path;
}

async function waitFor(ctx: RequestContext, id: string, until = (s: string) => s !== 'VALIDANDO') {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const b = await getBatch(ctx, sheetKind, id);
    if (until(b.status) || Date.now() > deadline) return b;
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createUser({ grants: [{ resource: 'contributor-bulk-upload', action: 'CREATE', scope: 'ALL' }] });
  fx = await contributorFixtures(t.database.db);
  await t.database.db.execute(
    sql`create table test_sheet_lines (batch_id uuid, code text primary key, cents bigint not null, entity_id int)`,
  );
  dir = await mkdtemp(join(tmpdir(), 'aporta-pipeline-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the import pipeline with a second kind (the seam)', () => {
  it('stages, validates as a job with blocking errors and warnings, previews, exports exceptions and commits all at once', async () => {
    await t.app.jobs.start();
    const ctx = await contextOf(owner);
    const path = await csvFile('hoja.csv', [
      'Código de línea;MONTO;ENTIDAD;FILA_ORIGINAL;ERRORES',
      `A-1;100.50;${fx.entityA.code};;`,
      'A-2;2,500.00;;;',
      'A-3;0;;;',
      'A-1;10;;;',
      ';abc;NO-EXISTE;;',
      'A-4;5;;;;sobra',
    ]);
    const staged = await stageUpload(ctx, sheetKind, { fileName: 'hoja.csv', path });
    // The upload answers once the file is read; the rows are validated by the job.
    expect(staged).toMatchObject({ kind: 'test-sheet', status: 'VALIDANDO', phase: 'VALIDACION', totalRows: 6 });
    const done = await waitFor(ctx, staged.id);
    expect(done).toMatchObject({ status: 'VALIDADO', phase: null, totalRows: 6, processedRows: 6, validRows: 2, errorRows: 4 });
    expect(done.warningRows).toBe(1);

    const valid = await findBatchRows(ctx, sheetKind, staged.id, { kind: 'valid', page: 1, pageSize: 10 });
    expect(valid.items.map((r) => [r.rowNumber, r.key, r.warnings])).toEqual([
      [2, 'A-1', []],
      [3, 'A-2', [{ column: 'MONTO', cell: 'B3', message: 'Monto alto: revíselo.' }]],
    ]);
    const errors = await findBatchRows(ctx, sheetKind, staged.id, { kind: 'error', page: 1, pageSize: 10 });
    expect(errors.items.map((r) => [r.rowNumber, r.errors])).toEqual([
      [4, [{ column: 'MONTO', cell: 'B4', message: 'El monto debe ser mayor que cero.' }]],
      [5, [{ column: 'CODIGO', cell: 'A5', message: 'Código repetido (fila 2).' }]],
      [
        6,
        [
          { column: 'CODIGO', cell: 'A6', message: 'Falta el código.' },
          { column: 'MONTO', cell: 'B6', message: expect.stringContaining('"abc"') },
          { column: 'ENTIDAD', cell: 'C6', message: 'La entidad no existe.' },
        ],
      ],
      [
        7,
        [
          {
            column: '(fuera de la plantilla)',
            message: 'Hay datos en columnas sin encabezado.',
            key: 'platform.importDataOutsideColumns',
          },
        ],
      ],
    ]);

    // The exceptions file: the template's columns as read, the row and the reasons naming column and cell.
    const { columns: cols, batches } = await exceptionsExport(ctx, sheetKind, staged.id);
    expect(cols.map((c) => c.header)).toEqual(['CODIGO', 'MONTO', 'ENTIDAD', 'FILA_ORIGINAL', 'ERRORES']);
    const sheet: unknown[][] = [];
    for await (const chunk of batches) for (const r of chunk) sheet.push(cols.map((c) => c.value(r)));
    expect(sheet).toEqual([
      ['A-3', '0', '', 4, 'MONTO (B4): El monto debe ser mayor que cero.'],
      ['A-1', '10', '', 5, 'CODIGO (A5): Código repetido (fila 2).'],
      [
        '',
        'abc',
        'NO-EXISTE',
        6,
        expect.stringMatching(
          /^CODIGO \(A6\): Falta el código\. \| MONTO \(B6\): .*"abc".* \| ENTIDAD \(C6\): La entidad no existe\.$/,
        ),
      ],
      ['A-4', '5', '', 7, '(fuera de la plantilla): Hay datos en columnas sin encabezado.'],
    ]);

    // The commit answers at once (CONFIRMANDO, its job); the job writes every valid row in one transaction.
    const asked = await commitBatch(ctx, sheetKind, staged.id);
    expect(asked).toMatchObject({ status: 'CONFIRMANDO', committedRows: 0 });
    expect(asked.jobId).not.toBe(done.jobId);
    await expect(discardBatch(ctx, sheetKind, staged.id)).rejects.toMatchObject({ code: 'CONFLICT' });
    const committed = await waitFor(ctx, staged.id, (st) => st !== 'CONFIRMANDO');
    expect(committed).toMatchObject({ status: 'CONFIRMADO', committedRows: 2 });
    // The job's own row ends just after the batch is marked (its ending transaction follows the run).
    await vi.waitFor(
      async () => {
        const [commitJob] = await t.database.db.select().from(jobs).where(eq(jobs.id, asked.jobId!));
        expect(commitJob).toMatchObject({
          kind: 'imports.commit',
          state: 'DONE',
          done: 2,
          total: 2,
          result: { committedRows: 2 },
        });
      },
      { timeout: 10_000, interval: 25 },
    );
    const lines = await t.database.db.execute(sql`select code, cents::int as cents from test_sheet_lines order by code`);
    expect((lines as unknown as { rows: unknown[] }).rows).toEqual([
      { code: 'A-1', cents: 10050 },
      { code: 'A-2', cents: 250000 },
    ]);
    await expect(commitBatch(ctx, sheetKind, staged.id)).rejects.toMatchObject({ code: 'CONFLICT' });
    const audit = await t.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'test_sheet_import'), eq(auditLog.entityId, staged.id)));
    expect(audit.map((a) => a.action).sort()).toEqual(['IMPORT_COMMIT', 'IMPORT_VALIDATE']);
    // The kind's batches are not another kind's: the same id is unknown to a different kind.
    const { contributorImportKind } = await import('../../modules/contributor-imports/kind.ts');
    await expect(getBatch(ctx, contributorImportKind, staged.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses a whole file for a wrong header, naming the columns; nothing is kept', async () => {
    const ctx = await contextOf(owner);
    const path = await csvFile('mal.csv', ['CODIGO;COLOR', 'A;1']);
    await expect(stageUpload(ctx, sheetKind, { fileName: 'mal.csv', path })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'Las columnas no coinciden con la plantilla: faltan MONTO; no se reconocen COLOR.',
    });
    const open = await findOpenBatches(ctx, sheetKind);
    expect(open[0]).toMatchObject({ status: 'FALLIDO', fileName: 'mal.csv' });
    const rows = await t.database.db.select().from(importRows).where(eq(importRows.batchId, open[0].id));
    expect(rows).toHaveLength(0);
    expect((await discardBatch(ctx, sheetKind, open[0].id)).status).toBe('DESCARTADO');
  });

  it('tells the truth about a file: a password-protected workbook, an old .xls, UTF-16 text, headers only', async () => {
    const ctx = await contextOf(owner);
    const put = async (name: string, bytes: Uint8Array) => {
      const path = join(dir, name);
      await writeFile(path, bytes);
      return path;
    };
    // A workbook saved with a password is a compound file holding EncryptionInfo: said so, not «.xls antiguo».
    const locked = await put('clave.xlsx', encryptedWorkbook());
    await expect(stageUpload(ctx, sheetKind, { fileName: 'clave.xlsx', path: locked })).rejects.toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: expect.stringMatching(/^El archivo está protegido con contraseña/),
    });
    const old = await put('viejo.xls', legacyWorkbook());
    await expect(stageUpload(ctx, sheetKind, { fileName: 'viejo.xls', path: old })).rejects.toMatchObject({
      message: expect.stringMatching(/formato \.xls antiguo/),
    });
    // UTF-16 (Excel's «Texto Unicode»: tabs), little and big endian, with and without BOM: read like UTF-8.
    const text = ['CODIGO\tMONTO\tENTIDAD', 'Ñandú-1\t15.25\t', 'Ñandú-2\t7\t'].join('\r\n');
    for (const [endian, bom] of [
      ['le', true],
      ['le', false],
      ['be', true],
      ['be', false],
    ] as const) {
      const name = `unicode-${endian}-${bom}.csv`;
      const staged = await stageUpload(ctx, sheetKind, { fileName: name, path: await put(name, utf16(text, endian, bom)) });
      expect(staged, name).toMatchObject({ status: 'VALIDANDO', totalRows: 2 });
      const rows = await t.database.db
        .select({ rows: importChunks.rows })
        .from(importChunks)
        .where(eq(importChunks.batchId, staged.id));
      const raw = rows.flatMap((r) => JSON.parse(r.rows as string) as { raw: Record<string, unknown> }[]).map((r) => r.raw);
      expect(raw, name).toEqual([
        { code: 'Ñandú-1', amount: '15.25', entity: '' },
        { code: 'Ñandú-2', amount: '7', entity: '' },
      ]);
    }
    // Only the header row (and blank lines): refused, not accepted as an upload of 0 rows.
    for (const lines of [['CODIGO;MONTO'], ['CODIGO;MONTO', ';', '', ' ; ']]) {
      const path = await csvFile('solo-encabezados.csv', lines);
      await expect(stageUpload(ctx, sheetKind, { fileName: 'solo-encabezados.csv', path })).rejects.toMatchObject({
        code: 'VALIDATION',
        message: 'El archivo no tiene filas de datos.',
      });
    }
    const open = await findOpenBatches(ctx, sheetKind);
    expect(open.find((b) => b.fileName === 'solo-encabezados.csv')).toMatchObject({
      status: 'FALLIDO',
      message: 'El archivo no tiene filas de datos.',
    });
  });

  it('hides a batch for one entity once that entity is outside the caller’s scope', async () => {
    const clerk = await t.createUser({ grants: [{ resource: 'contributor-bulk-upload', action: 'CREATE', scope: 'ENTITY' }] });
    await attachUserToEntity(t.database.db, clerk.id, fx.entityA.id);
    const ctx = await contextOf(clerk, 'ENTITY');
    const path = await csvFile('entidad.csv', ['CODIGO;MONTO', 'E-1;1']);
    await expect(stageUpload(ctx, sheetKind, { fileName: 'b.csv', path, scopeEntityId: fx.entityB.id })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    const mine = await stageUpload(ctx, sheetKind, { fileName: 'a.csv', path, scopeEntityId: fx.entityA.id });
    expect((await waitFor(ctx, mine.id)).status).toBe('VALIDADO');
    // Moved to another entity: the batch of entity A is no longer theirs to see or commit.
    await t.database.db.execute(sql`delete from user_institutions where user_id = ${clerk.id}`);
    await expect(getBatch(ctx, sheetKind, mine.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await findOpenBatches(ctx, sheetKind)).map((b) => b.id)).not.toContain(mine.id);
    await expect(commitBatch(ctx, sheetKind, mine.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('a restart in the middle of a validation', () => {
  /** A file of `n` good lines: several chunks. */
  const bigFile = (name: string, n: number, prefix: string) =>
    csvFile(name, ['CODIGO;MONTO', ...Array.from({ length: n }, (_, i) => `${prefix}-${i};${(i % 90) + 1}.25`)]);

  it('resumes at the first chunk left when the job is taken back: every row once, counts exact', async () => {
    const ctx = await contextOf(owner);
    const n = IMPORT_CHUNK_ROWS * 2 + 500;
    const path = await bigFile('grande.csv', n, 'R');
    // Pause the validation after its first chunk, then "kill" the process that runs it.
    let release = () => {};
    let calls = 0;
    const paused = new Promise<void>((resolve) => {
      hooks.beforeChunk = async () => {
        calls += 1;
        if (calls === 2) {
          resolve();
          await new Promise<void>((r) => {
            release = r;
          });
        }
      };
    });
    const staged = await stageUpload(ctx, sheetKind, { fileName: 'grande.csv', path });
    await paused;
    const mid = await getBatch(ctx, sheetKind, staged.id);
    expect(mid).toMatchObject({ status: 'VALIDANDO', phase: 'VALIDACION', processedRows: IMPORT_CHUNK_ROWS, totalRows: n });
    await t.app.jobs.abandon(); // the process dies: its job stays RUNNING under a lease nobody renews
    release();
    // The abandoned run notices at its next progress report and writes nothing more.
    await new Promise((r) => setTimeout(r, 300));
    hooks.beforeChunk = async () => {};

    // The next start: nothing is failed (the job will resume it), then a worker takes the job back.
    expect(await recoverImports(t.database.db)).not.toContain(staged.id);
    expect((await getBatch(ctx, sheetKind, staged.id)).status).toBe('VALIDANDO');
    const next = new JobWorker({ db: t.database.db, files: t.app.files, concurrency: 1, reclaimAllOnStart: true });
    await next.start();
    try {
      const done = await waitFor(ctx, staged.id);
      expect(done).toMatchObject({ status: 'VALIDADO', totalRows: n, processedRows: n, validRows: n, errorRows: 0 });
      const [{ rows }] = (
        (await t.database.db.execute(
          sql`select count(*)::int as rows from import_rows where batch_id = ${staged.id}::uuid`,
        )) as unknown as {
          rows: { rows: number }[];
        }
      ).rows;
      expect(rows).toBe(n);
      expect(await t.database.db.select().from(importChunks).where(eq(importChunks.batchId, staged.id))).toHaveLength(0);
      await vi.waitFor(
        async () => {
          const [job] = await t.database.db
            .select()
            .from(jobs)
            .where(eq(jobs.kind, 'imports.validate'))
            .orderBy(sql`id desc`)
            .limit(1);
          expect(job).toMatchObject({ state: 'DONE', attempts: 2 });
        },
        { timeout: 10_000, interval: 25 },
      );
    } finally {
      await next.stop();
    }
  });

  it('a batch still reading its file when the process stopped is failed at start-up, with the reason, and can be discarded', async () => {
    const ctx = await contextOf(owner);
    const id = crypto.randomUUID();
    await t.database.db.insert(importBatches).values({
      id,
      kind: 'test-sheet',
      fileName: 'cortado.csv',
      format: 'csv',
      status: 'VALIDANDO',
      phase: 'LECTURA',
      createdBy: owner.id,
    });
    await t.database.db.insert(importChunks).values({ batchId: id, chunk: 1, rows: '[]' });
    expect(await recoverImports(t.database.db)).toContain(id);
    expect(await getBatch(ctx, sheetKind, id)).toMatchObject({ status: 'FALLIDO', message: INTERRUPTED_IMPORT_MESSAGE });
    expect(await t.database.db.select().from(importChunks).where(eq(importChunks.batchId, id))).toHaveLength(0);
    expect((await discardBatch(ctx, sheetKind, id)).status).toBe('DESCARTADO');
  });

  it('a cancelled validation job, or one that failed for good, leaves its batch FALLIDO, never VALIDANDO', async () => {
    const ctx = await contextOf(owner);
    const worker = new JobWorker({ db: t.database.db, files: t.app.files, concurrency: 1 });
    await worker.start();
    try {
      let release = () => {};
      const paused = new Promise<void>((resolve) => {
        hooks.beforeChunk = async () => {
          resolve();
          await new Promise<void>((r) => {
            release = r;
          });
        };
      });
      const staged = await stageUpload(ctx, sheetKind, { fileName: 'cancelar.csv', path: await bigFile('c.csv', 10, 'C') });
      await paused;
      const [b] = await t.database.db.select().from(importBatches).where(eq(importBatches.id, staged.id));
      await requestCancel(t.database.db, b.jobId!);
      hooks.beforeChunk = async () => {};
      release();
      const cancelled = await waitFor(ctx, staged.id);
      expect(cancelled).toMatchObject({ status: 'FALLIDO', message: CANCELLED_IMPORT_MESSAGE });
    } finally {
      await worker.stop();
    }

    // A job the queue gave up on (its attempts spent by crashes) while no worker of ours ran it.
    const orphan = await stageUpload(ctx, sheetKind, { fileName: 'perdido.csv', path: await bigFile('p.csv', 3, 'P') });
    const [b] = await t.database.db.select().from(importBatches).where(eq(importBatches.id, orphan.id));
    await t.database.db
      .update(jobs)
      .set({ state: 'FAILED', error: 'El proceso se interrumpió y se agotaron los reintentos.' })
      .where(eq(jobs.id, b.jobId!));
    expect(await getBatch(ctx, sheetKind, orphan.id)).toMatchObject({
      status: 'FALLIDO',
      message: 'El proceso se interrumpió y se agotaron los reintentos.',
    });
  });
});

describe('the commit as a job (issue 10)', () => {
  const lines = (prefix: string, n: number) =>
    csvFile(`${prefix}.csv`, ['CODIGO;MONTO', ...Array.from({ length: n }, (_, i) => `${prefix}-${i};${i + 1}`)]);
  const countLines = async (prefix: string) =>
    (
      (await t.database.db.execute(
        sql`select count(*)::int as n from test_sheet_lines where code like ${`${prefix}-%`}`,
      )) as unknown as { rows: { n: number }[] }
    ).rows[0].n;

  async function validated(ctx: RequestContext, prefix: string, n: number) {
    const worker = new JobWorker({ db: t.database.db, files: t.app.files, concurrency: 1 });
    await worker.start();
    try {
      const staged = await stageUpload(ctx, sheetKind, { fileName: `${prefix}.csv`, path: await lines(prefix, n) });
      expect(await waitFor(ctx, staged.id)).toMatchObject({ status: 'VALIDADO', validRows: n });
      return staged.id;
    } finally {
      await worker.stop();
    }
  }

  it('a process that dies inside the commit’s transaction writes nothing; the job runs again and commits every row once', async () => {
    const ctx = await contextOf(owner);
    const id = await validated(ctx, 'K', 30);
    const first = new JobWorker({ db: t.database.db, files: t.app.files, concurrency: 1 });
    let release = () => {};
    const inside = new Promise<void>((resolve) => {
      hooks.inCommit = async () => {
        resolve();
        await new Promise<void>((r) => {
          release = r;
        });
        // The process is gone: its transaction never commits.
        throw new Error('proceso terminado');
      };
    });
    await first.start();
    await commitBatch(ctx, sheetKind, id);
    await inside;
    const abandoned = first.abandon();
    release();
    await abandoned;
    hooks.inCommit = async () => {};
    expect(await countLines('K')).toBe(0);
    // The next start leaves it to its job (queued or running is not stuck), which commits it.
    expect(await recoverImports(t.database.db)).not.toContain(id);
    expect((await getBatch(ctx, sheetKind, id)).status).toBe('CONFIRMANDO');
    const next = new JobWorker({ db: t.database.db, files: t.app.files, concurrency: 1, reclaimAllOnStart: true });
    await next.start();
    try {
      expect(await waitFor(ctx, id, (st) => st !== 'CONFIRMANDO')).toMatchObject({ status: 'CONFIRMADO', committedRows: 30 });
      expect(await countLines('K')).toBe(30);
    } finally {
      await next.stop();
    }
  });

  it('a refusal found by the job (rows taken since the request) fails the batch naming the rows; nothing is written', async () => {
    const ctx = await contextOf(owner);
    const id = await validated(ctx, 'F', 3);
    let calls = 0;
    hooks.checkCommit = async () => {
      calls += 1;
      // The request's check passes; the job's, inside its transaction, finds a conflict.
      if (calls > 1) {
        const { AppError } = await import('@aporta/domain');
        throw new AppError('CONFLICT', 'Desde la validación cambiaron datos; vuelva a cargar el archivo.', [
          { path: 'CODIGO', row: 3, message: 'El código ya existe.' },
        ]);
      }
    };
    const worker = new JobWorker({ db: t.database.db, files: t.app.files, concurrency: 1 });
    await worker.start();
    try {
      await commitBatch(ctx, sheetKind, id);
      const failed = await waitFor(ctx, id, (st) => st !== 'CONFIRMANDO');
      expect(failed).toMatchObject({
        status: 'FALLIDO',
        message: 'Desde la validación cambiaron datos; vuelva a cargar el archivo. (fila 3: El código ya existe.)',
      });
      expect(await countLines('F')).toBe(0);
      // The job's own row ends just after the batch is marked (its ending transaction follows the run).
      await vi.waitFor(
        async () => {
          const [job] = await t.database.db.select().from(jobs).where(eq(jobs.id, failed.jobId!));
          expect(job).toMatchObject({ state: 'FAILED', error: failed.message });
        },
        { timeout: 10_000, interval: 25 },
      );
    } finally {
      hooks.checkCommit = async () => {};
      await worker.stop();
    }
  });

  it('a commit cancelled before it starts, or failed for good, leaves its batch committable again with the reason', async () => {
    const ctx = await contextOf(owner);
    const id = await validated(ctx, 'C', 2);
    // No worker runs: the job stays queued, and a cancel ends it at once.
    const asked = await commitBatch(ctx, sheetKind, id);
    await requestCancel(t.database.db, asked.jobId!);
    expect(await getBatch(ctx, sheetKind, id)).toMatchObject({ status: 'VALIDADO', message: CANCELLED_COMMIT_MESSAGE });
    expect(await findOpenBatches(ctx, sheetKind)).toContainEqual(expect.objectContaining({ id, status: 'VALIDADO' }));

    const again = await commitBatch(ctx, sheetKind, id);
    await expect(commitBatch(ctx, sheetKind, id)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'La carga ya se está confirmando; espere a que termine.',
    });
    await t.database.db.update(jobs).set({ state: 'FAILED', error: jobMessages.unexpected }).where(eq(jobs.id, again.jobId!));
    expect(await recoverImports(t.database.db)).toContain(id);
    expect(await getBatch(ctx, sheetKind, id)).toMatchObject({ status: 'VALIDADO', message: FAILED_COMMIT_MESSAGE });
    expect(await countLines('C')).toBe(0);

    const worker = new JobWorker({ db: t.database.db, files: t.app.files, concurrency: 1 });
    await worker.start();
    try {
      await commitBatch(ctx, sheetKind, id);
      expect(await waitFor(ctx, id, (st) => st !== 'CONFIRMANDO')).toMatchObject({ status: 'CONFIRMADO', committedRows: 2 });
      expect(await countLines('C')).toBe(2);
    } finally {
      await worker.stop();
    }
  });
});
