import { addDays, guatemalaToday, paymentReference, periodOf } from '@aporta/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankFileRows, bankFiles, banks, jobs, paymentOrders, payments, receiptRanges } from '../../db/schema/index.ts';
import { JobWorker, jobMessages, recoverJobs } from '../../platform/jobs.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { attachUserToEntity, contributorFixtures } from '../contributors/fixtures.ts';
import { NOT_APPLIED_MESSAGES } from './bank-files.ts';

/**
 * A money job that fails for good never strands money (issue 25, item 6): the bank file's apply job is
 * queued in the import's transaction; a job that crashes until its attempts are spent, or is cancelled,
 * leaves every matched row without payment NO_APLICADA with the reason, listed and counted on the home
 * page, to apply again (each payment once) or resolve by hand; a start-up recovery settles rows whose job
 * vanished. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */

let t: TestApp;
let admin: TestUser;
let cashier: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;
let worker: JobWorker | null = null;
const today = guatemalaToday();
const OFFICE = 'TESORERIA-STRANDED';
let sequence = 0;
/** The bank the files name: the seeded catalogue's Banrural. */
let bank: { id: number; name: string };

beforeAll(async () => {
  t = await createTestApp();
  [bank] = await t.database.db.select({ id: banks.id, name: banks.name }).from(banks).where(eq(banks.code, 'BANRURAL'));
  admin = await t.createUser({ system: true });
  fx = await contributorFixtures(t.database.db);
  cashier = await t.createUser({
    grants: [
      { resource: 'planilla-payments', action: 'READ', scope: 'ENTITY' },
      { resource: 'planilla-payments', action: 'CREATE', scope: 'ENTITY' },
    ],
  });
  await attachUserToEntity(t.database.db, cashier.id, fx.entityA.id);
  await t.database.db.insert(receiptRanges).values({
    office: OFFICE,
    series: 'S',
    firstNumber: 1,
    lastNumber: 100_000,
    nextNumber: 1,
    authorizationRef: 'CGC-STRANDED',
    authorizationDate: addDays(today, -30),
  });
  // The machine may be busy: opening a cloned database can take longer than the default hook timeout.
}, 180_000);
afterAll(async () => {
  await worker?.stop();
  await t.close();
});

/** `n` open orders of Q 100.00 of entity A, issued a week ago and due in ten days (balance = principal). */
async function openOrders(n: number) {
  const period = periodOf(addDays(today, -40));
  const rows = Array.from({ length: n }, () => {
    sequence += 1;
    return {
      kind: 'LABORAL' as const,
      entityId: fx.entityA.id,
      period,
      periods: [period],
      reference: paymentReference({
        ownerId: 9_000_000 + Math.floor(sequence / 999),
        period,
        kind: 'LABORAL',
        sequence: (sequence % 999) + 1,
      }),
      issueDate: addDays(today, -7),
      dueDate: addDays(today, 10),
      accruedTo: addDays(today, 10),
      principal: 10_000n,
    };
  });
  return t.database.db.insert(paymentOrders).values(rows).returning();
}

const csvOf = (orders: { reference: string }[]) =>
  ['fecha,referencia,monto', ...orders.map((o) => `${today},${o.reference},100.00`)].join('\n');

const importFile = (orders: { reference: string }[]) =>
  t.request({
    method: 'POST',
    url: '/api/bank-files',
    token: admin.token,
    payload: { bankId: bank.id, office: OFFICE, content: csvOf(orders), fileName: `deposits-${sequence}.csv` },
  });

const applyJobsOf = (fileId: number) =>
  t.database.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, 'payments.apply-bank-file'), sql`(${jobs.payload}->>'fileId')::int = ${fileId}`))
    .orderBy(jobs.id);

const rowsOfFile = (fileId: number) =>
  t.database.db.select().from(bankFileRows).where(eq(bankFileRows.fileId, fileId)).orderBy(bankFileRows.rowNumber);

/** A worker of our own, retrying at once (the app's waits 5 s, 10 s… between attempts). */
async function startWorker() {
  worker = new JobWorker({ db: t.database.db, files: t.app.files, concurrency: 1, pollMs: 20, retryDelayMs: 10 });
  await worker.start();
}
async function stopWorker() {
  await worker?.stop();
  worker = null;
}

async function waitForJob(id: number, states: string[] = ['DONE', 'FAILED', 'CANCELLED']) {
  for (let i = 0; ; i++) {
    const [j] = await t.database.db.select().from(jobs).where(eq(jobs.id, id));
    if (states.includes(j.state)) return j;
    expect(i, `job ${id} stayed ${j.state}`).toBeLessThan(1500);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The home queue of stranded bank rows, as `token` sees it (undefined when not offered). */
async function strandedQueue(token: string) {
  const res = await t.request({ method: 'GET', url: '/api/home/queues', token });
  expect(res.statusCode).toBe(200);
  return (res.json().items as { id: string; count: number; alert?: boolean; link: string }[]).find(
    (q) => q.id === 'bank-rows-not-applied',
  );
}

/** Every payment of the bank file rows `rowIds` (one each when applied once). */
const paymentsOfRows = (rowIds: number[]) => t.database.db.select().from(payments).where(inArray(payments.bankFileRowId, rowIds));

/** Runs `fn` with a trigger that makes `table`'s inserts fail (a crash in the database), then drops it. */
async function withFailingInsert<T>(table: 'payments' | 'jobs', when: string, fn: () => Promise<T>): Promise<T> {
  const db = t.database.db;
  await db.execute(
    sql.raw(`create or replace function test_crash() returns trigger language plpgsql as $$
    begin raise exception 'caída simulada'; end $$`),
  );
  await db.execute(
    sql.raw(`create trigger test_crash before insert on ${table} for each row when (${when}) execute function test_crash()`),
  );
  try {
    return await fn();
  } finally {
    await db.execute(sql.raw(`drop trigger test_crash on ${table}`));
  }
}

describe('bank file apply job: never leaves money stranded', () => {
  it('queues the apply job in the import transaction: no enqueue, no file (nothing matched without its job)', async () => {
    const orders = await openOrders(2);
    const filesBefore = (await t.database.db.select({ id: bankFiles.id }).from(bankFiles)).length;
    // The enqueue fails (as a crash between the import and the enqueue would): the whole import is undone.
    const res = await withFailingInsert('jobs', `new.kind = 'payments.apply-bank-file'`, () => importFile(orders));
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect((await t.database.db.select({ id: bankFiles.id }).from(bankFiles)).length).toBe(filesBefore);
    const orphan = await t.database.db
      .select()
      .from(bankFileRows)
      .where(
        inArray(
          bankFileRows.orderId,
          orders.map((o) => o.id),
        ),
      );
    expect(orphan).toEqual([]);
  });

  it('a transaction that fails after the enqueue leaves no job', async () => {
    const orders = await openOrders(1);
    const jobsBefore = (await t.database.db.select({ id: jobs.id }).from(jobs)).length;
    // Fails at commit, after every statement of the import (the enqueue included) ran.
    const db = t.database.db;
    await db.execute(
      sql.raw(`create or replace function test_fail_commit() returns trigger language plpgsql as $$
      begin raise exception 'fallo al confirmar'; end $$`),
    );
    await db.execute(
      sql.raw(`create constraint trigger test_fail_commit after insert on bank_files deferrable initially deferred
        for each row execute function test_fail_commit()`),
    );
    try {
      expect((await importFile(orders)).statusCode).toBeGreaterThanOrEqual(400);
    } finally {
      await db.execute(sql.raw('drop trigger test_fail_commit on bank_files'));
    }
    expect((await t.database.db.select({ id: jobs.id }).from(jobs)).length).toBe(jobsBefore);
  });

  it('after three crashes every matched row is NO_APLICADA with the reason, listed, counted at home, resolvable; a retry pays each once', async () => {
    const orders = await openOrders(3);
    const imported = await importFile(orders);
    expect(imported.statusCode, imported.body).toBe(201);
    const fileId = imported.json().id as number;
    expect(imported.json()).toMatchObject({ matched: 3, notApplied: 0, applyJobId: expect.any(Number) });
    const [job] = await applyJobsOf(fileId);
    expect(job.state).toBe('QUEUED');

    // Every attempt crashes while registering the first payment (an unexpected database error).
    const failed = await withFailingInsert('payments', 'true', async () => {
      await startWorker();
      const j = await waitForJob(job.id);
      await stopWorker();
      return j;
    });
    expect(failed).toMatchObject({ state: 'FAILED', attempts: 3, error: jobMessages.unexpected });
    const rows = await rowsOfFile(fileId);
    expect(rows.map((r) => r.state)).toEqual(['NO_APLICADA', 'NO_APLICADA', 'NO_APLICADA']);
    for (const r of rows) {
      expect(r.paymentId).toBeNull();
      expect(r.message).toBe(NOT_APPLIED_MESSAGES.failed(jobMessages.unexpected));
    }
    expect(await paymentsOfRows(rows.map((r) => r.id))).toEqual([]);

    // The API says so: the file counts them, the pending list shows them with the reason.
    const file = (await t.request({ method: 'GET', url: `/api/bank-files/${fileId}`, token: admin.token })).json();
    expect(file).toMatchObject({ matched: 0, notApplied: 3, applyJobId: null });
    const pending = (
      await t.request({ method: 'GET', url: `/api/bank-files/${fileId}/rows?state=PENDIENTES`, token: admin.token })
    ).json().items as { id: number; state: string; message: string }[];
    expect(pending.map((r) => r.state)).toEqual(['NO_APLICADA', 'NO_APLICADA', 'NO_APLICADA']);
    expect(pending[0].message).toContain('falló');
    const withStranded = (
      await t.request({ method: 'GET', url: '/api/bank-files?state=NO_APLICADAS', token: admin.token })
    ).json().items as { id: number }[];
    expect(withStranded.map((f) => f.id)).toContain(fileId);

    // The home page's stranded-money check counts them for those who work bank files (scope ALL) only.
    const queue = await strandedQueue(admin.token);
    expect(queue).toMatchObject({ count: 3, alert: true, link: '/planilla/pagos-planillas?tab=bank' });
    expect(await strandedQueue(cashier.token)).toBeUndefined();

    // A person resolves one by hand (no 409 "ya está resuelta").
    const resolved = await t.request({
      method: 'POST',
      url: `/api/bank-files/${fileId}/rows/${rows[0].id}/resolve`,
      token: admin.token,
      payload: { decision: 'PAGAR', orderIds: [rows[0].orderId] },
    });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json()).toMatchObject({ state: 'RESUELTA', paymentId: expect.any(Number) });
    expect((await strandedQueue(admin.token))?.count).toBe(2);

    // "Reintentar": the rest are applied by a new job, each payment once.
    const retry = await t.request({ method: 'POST', url: `/api/bank-files/${fileId}/retry`, token: admin.token });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toMatchObject({ notApplied: 0, applyJobId: expect.any(Number) });
    // A second retry while the first is queued: refused.
    expect((await t.request({ method: 'POST', url: `/api/bank-files/${fileId}/retry`, token: admin.token })).statusCode).toBe(
      409,
    );
    await startWorker();
    expect(await waitForJob(retry.json().applyJobId)).toMatchObject({ state: 'DONE' });
    await stopWorker();
    const after = await rowsOfFile(fileId);
    expect(after.map((r) => r.state)).toEqual(['RESUELTA', 'CONCILIADA', 'CONCILIADA']);
    const paid = await paymentsOfRows(after.map((r) => r.id));
    expect(paid.length).toBe(3);
    expect(new Set(paid.map((p) => p.bankFileRowId)).size).toBe(3);
    for (const r of after) expect(paid.find((p) => p.bankFileRowId === r.id)?.id).toBe(r.paymentId);
    const paidOrders = await t.database.db
      .select()
      .from(paymentOrders)
      .where(
        inArray(
          paymentOrders.id,
          orders.map((o) => o.id),
        ),
      );
    expect(paidOrders.every((o) => o.state === 'PAGADA')).toBe(true);
    expect((await strandedQueue(admin.token))?.count).toBe(0);
    // Nothing left to apply.
    expect((await t.request({ method: 'POST', url: `/api/bank-files/${fileId}/retry`, token: admin.token })).statusCode).toBe(
      409,
    );
  });

  it('a row whose payment was registered but never linked (an older version) is linked on retry, not paid twice', async () => {
    const [order] = await openOrders(1);
    const imported = await importFile([order]);
    const fileId = imported.json().id as number;
    const [job] = await applyJobsOf(fileId);
    // The job is cancelled before it runs: the row is left NO_APLICADA with the reason.
    expect((await t.request({ method: 'POST', url: `/api/jobs/${job.id}/cancel`, token: admin.token })).statusCode).toBe(200);
    const [row] = await rowsOfFile(fileId);
    expect(row).toMatchObject({ state: 'NO_APLICADA', message: NOT_APPLIED_MESSAGES.cancelled, paymentId: null });
    // The payment exists under the row's key (as the job before this change could leave it).
    const key = `banco-${row.reference}-${row.payDate}`;
    const direct = await t.request({
      method: 'POST',
      url: '/api/payments',
      token: admin.token,
      payload: {
        idempotencyKey: key,
        bankReference: key,
        orderIds: [order.id],
        // The payment the job registers names the file's bank as the catalogue called it.
        bank: bank.name,
        office: OFFICE,
        payDate: today,
        amount: '100.00',
      },
    });
    expect(direct.statusCode, direct.body).toBe(201);
    const retry = await t.request({ method: 'POST', url: `/api/bank-files/${fileId}/retry`, token: admin.token });
    expect(retry.statusCode, retry.body).toBe(200);
    await startWorker();
    await waitForJob(retry.json().applyJobId);
    await stopWorker();
    const [linked] = await rowsOfFile(fileId);
    expect(linked).toMatchObject({ state: 'CONCILIADA', paymentId: direct.json().payment.id });
    const all = await t.database.db.select().from(payments).where(eq(payments.idempotencyKey, key));
    expect(all.length).toBe(1);
  });

  it('a job whose lease ran out on its last attempt (the process killed three times) leaves the rows NO_APLICADA', async () => {
    const orders = await openOrders(2);
    const fileId = (await importFile(orders)).json().id as number;
    const [job] = await applyJobsOf(fileId);
    // What the third killed process leaves: RUNNING, attempts spent, its lease expired.
    await t.database.db
      .update(jobs)
      .set({ state: 'RUNNING', attempts: 3, leaseOwner: 'dead', leaseExpiresAt: sql`now() - interval '1 minute'` })
      .where(eq(jobs.id, job.id));
    const reaper = new JobWorker({ db: t.database.db, files: t.app.files, concurrency: 1 });
    expect(await reaper.reap(false)).toBeGreaterThanOrEqual(1);
    expect((await waitForJob(job.id)).error).toBe(jobMessages.interrupted);
    const rows = await rowsOfFile(fileId);
    expect(rows.map((r) => [r.state, r.message])).toEqual([
      ['NO_APLICADA', NOT_APPLIED_MESSAGES.failed(jobMessages.interrupted)],
      ['NO_APLICADA', NOT_APPLIED_MESSAGES.failed(jobMessages.interrupted)],
    ]);
  });

  it('recovery at start marks the rows a vanished job left matched without payment, and leaves those a live job will apply', async () => {
    const strandedOrders = await openOrders(2);
    const strandedFile = (await importFile(strandedOrders)).json().id as number;
    const liveOrders = await openOrders(1);
    const liveFile = (await importFile(liveOrders)).json().id as number;
    // The stranded file's job ended without its hook (the process died in between; or it was deleted).
    const [gone] = await applyJobsOf(strandedFile);
    await t.database.db.delete(jobs).where(eq(jobs.id, gone.id));
    expect((await rowsOfFile(strandedFile)).map((r) => r.state)).toEqual(['CONCILIADA', 'CONCILIADA']);
    const before = (await strandedQueue(admin.token))?.count ?? 0;
    // Matched with no job left: counted as stranded already, before any recovery.
    expect(before).toBeGreaterThanOrEqual(2);

    const recovered = await recoverJobs(t.database.db);
    expect(recovered['payments.apply-bank-file']).toBe(2);
    const stranded = await rowsOfFile(strandedFile);
    expect(stranded.map((r) => [r.state, r.message])).toEqual([
      ['NO_APLICADA', NOT_APPLIED_MESSAGES.ended],
      ['NO_APLICADA', NOT_APPLIED_MESSAGES.ended],
    ]);
    // The live file's row waits for its queued job; it is not stranded.
    expect((await rowsOfFile(liveFile)).map((r) => r.state)).toEqual(['CONCILIADA']);
    expect((await strandedQueue(admin.token))?.count).toBe(before);
    // Idempotent: a second start finds nothing.
    expect(await recoverJobs(t.database.db)).toEqual({});

    await startWorker();
    const [liveJob] = await applyJobsOf(liveFile);
    await waitForJob(liveJob.id);
    const retry = await t.request({ method: 'POST', url: `/api/bank-files/${strandedFile}/retry`, token: admin.token });
    expect(retry.statusCode, retry.body).toBe(200);
    await waitForJob(retry.json().applyJobId);
    await stopWorker();
    expect((await rowsOfFile(liveFile)).map((r) => r.state)).toEqual(['CONCILIADA']);
    const applied = await rowsOfFile(strandedFile);
    expect(applied.map((r) => r.state)).toEqual(['CONCILIADA', 'CONCILIADA']);
    expect((await paymentsOfRows(applied.map((r) => r.id))).length).toBe(2);
  });
});
