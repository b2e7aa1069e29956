import { formatCui, type Job } from '@aporta/domain';
import { and, count, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, contributors, jobs, storedFiles } from '../../db/schema/index.ts';
import { seedRoles } from '../../seed/accounts.ts';
import { seedContributorDemo } from '../../seed/contributors.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';

let t: TestApp;
let exporter: TestUser;
let other: TestUser;
let watcher: TestUser;
let nosy: TestUser;
let scoped: TestUser;
let rows: number;

const poll = async (token: string, id: number, until: (j: Job) => boolean, timeoutMs = 60_000): Promise<Job> => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.request({ method: 'GET', url: `/api/jobs/${id}`, token });
    expect(res.statusCode).toBe(200);
    const job = res.json() as Job;
    if (until(job)) return job;
    if (Date.now() > end) throw new Error(`job ${id} stuck: ${res.body}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};
const finished = (j: Job) => ['DONE', 'FAILED', 'CANCELLED'].includes(j.state);

beforeAll(async () => {
  t = await createTestApp();
  // Enough rows for several export chunks (100 rows each).
  await seedContributorDemo(t.database.db, { people: 8000, contributors: 450 });
  [{ n: rows }] = await t.database.db.select({ n: count() }).from(contributors);
  exporter = await t.createUser({ grants: [{ resource: 'contributor-list', action: 'EXPORT', scope: 'ALL' }] });
  other = await t.createUser({ grants: [{ resource: 'contributor-list', action: 'EXPORT', scope: 'ALL' }] });
  // Procesos (everyone's) and the export's own permission over everything: may read others' exports.
  watcher = await t.createUser({
    grants: [
      { resource: 'jobs', action: 'READ', scope: 'ALL' },
      { resource: 'contributor-list', action: 'READ', scope: 'ALL' },
      { resource: 'contributor-list', action: 'EXPORT', scope: 'ALL' },
    ],
  });
  // Procesos alone, or with the export's permission over one entity only: others' exports are not theirs to read.
  nosy = await t.createUser({ grants: [{ resource: 'jobs', action: 'READ', scope: 'ALL' }] });
  scoped = await t.createUser({
    grants: [
      { resource: 'jobs', action: 'READ', scope: 'ALL' },
      { resource: 'contributor-list', action: 'EXPORT', scope: 'ENTITY' },
    ],
  });
}, 120_000);
afterAll(async () => {
  await t.close();
});

describe('Procesos API and the background contributors export', () => {
  it('exports every contributor to a csv file with progress, downloadable by its starter only', async () => {
    expect(rows).toBeGreaterThan(300);
    const start = await t.request({ method: 'POST', url: '/api/contributors/export-jobs?format=csv', token: exporter.token });
    expect(start.statusCode).toBe(202);
    const { jobId } = start.json();
    const queued = await poll(exporter.token, jobId, () => true);
    expect(queued).toMatchObject({ state: 'QUEUED', title: 'Exportación de afiliados', canCancel: true, hasFile: false });

    await t.app.jobs.start();
    const done = await poll(exporter.token, jobId, finished);
    await t.app.jobs.stop();
    expect(done).toMatchObject({ state: 'DONE', done: rows, total: rows, hasFile: true, canCancel: false, error: null });
    expect(done.result).toMatchObject({ rows, filename: expect.stringMatching(/^afiliados-\d{4}-\d{2}-\d{2}\.csv$/) });

    const file = await t.request({ method: 'GET', url: `/api/jobs/${jobId}/file`, token: exporter.token });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('text/csv');
    expect(file.headers['content-disposition']).toMatch(/attachment; filename="afiliados-.*\.csv"/);
    const lines = file.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toContain('Nombre completo');
    expect(lines).toHaveLength(rows + 1);
    const [first] = await t.database.db.select().from(contributors).orderBy(contributors.id).limit(1);
    expect(lines[1]).toContain(formatCui(first.cui));

    // Someone else: not told the job exists; a Procesos reader sees it but cannot download its data.
    expect((await t.request({ method: 'GET', url: `/api/jobs/${jobId}`, token: other.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/jobs/${jobId}/file`, token: other.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/jobs/${jobId}`, token: watcher.token })).json()).toMatchObject({
      hasFile: false,
      userEmail: exporter.email,
    });
    expect((await t.request({ method: 'GET', url: `/api/jobs/${jobId}/file`, token: watcher.token })).statusCode).toBe(403);
    // Procesos without the export's permission over everything: every jobs route answers as if it did not exist.
    for (const user of [nosy, scoped]) {
      for (const [method, url] of [
        ['GET', `/api/jobs/${jobId}`],
        ['GET', `/api/jobs/${jobId}/file`],
        ['POST', `/api/jobs/${jobId}/cancel`],
      ] as const) {
        const res = await t.request({ method, url, token: user.token });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json().error.message).toBe('El proceso no existe.');
      }
      const listed = await t.request({ method: 'GET', url: '/api/jobs?scope=all', token: user.token });
      expect(listed.json().items.map((j: Job) => j.id)).not.toContain(jobId);
    }
  });

  it('a job of the system is read only by who may run its kind over everything', async () => {
    const [sweep] = await t.database.db
      .insert(jobs)
      .values({ kind: 'pensions.renap-check', state: 'DONE', userId: null, scope: 'ALL', result: { checked: 10, deaths: 2 } })
      .returning();
    // The read-only Consulta role: jobs READ and every READ/EXPORT, but not the sweep's APPROVE.
    const consulta = seedRoles.find((r) => r.name === 'Consulta');
    const reader = await t.createUser({ grants: consulta?.grants ?? [] });
    expect((await t.request({ method: 'GET', url: `/api/jobs/${sweep.id}`, token: reader.token })).statusCode).toBe(404);
    const all = await t.request({ method: 'GET', url: '/api/jobs?scope=all&pageSize=200', token: reader.token });
    expect(all.statusCode).toBe(200);
    expect(all.json().items.map((j: Job) => j.id)).not.toContain(sweep.id);
    // Who may run the sweep reads it, without Procesos; an ENTITY grant of the same permission does not.
    const runner = await t.createUser({ grants: [{ resource: 'supervivencia', action: 'APPROVE', scope: 'ALL' }] });
    const res = await t.request({ method: 'GET', url: `/api/jobs/${sweep.id}`, token: runner.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ userEmail: 'Sistema', result: { deaths: 2 } });
    const narrow = await t.createUser({ grants: [{ resource: 'supervivencia', action: 'APPROVE', scope: 'ENTITY' }] });
    expect((await t.request({ method: 'GET', url: `/api/jobs/${sweep.id}`, token: narrow.token })).statusCode).toBe(404);
  });

  it('writes an xlsx with the filters applied', async () => {
    const [c] = await t.database.db.select().from(contributors).limit(1);
    const start = await t.request({
      method: 'POST',
      url: `/api/contributors/export-jobs?format=xlsx&q=${c.cui}`,
      token: exporter.token,
    });
    await t.app.jobs.start();
    const job = await poll(exporter.token, start.json().jobId, finished);
    await t.app.jobs.stop();
    expect(job).toMatchObject({ state: 'DONE', done: 1, total: 1 });
    const file = await t.request({ method: 'GET', url: `/api/jobs/${job.id}/file`, token: exporter.token });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.rawPayload as never);
    const ws = wb.worksheets[0];
    expect(ws.name).toBe('Afiliados');
    expect(ws.rowCount).toBe(2);
    expect(String(ws.getRow(2).getCell(1).value)).toBe(formatCui(c.cui));
  });

  it('refuses a bad sort before any job exists, and answers 403 without EXPORT', async () => {
    const bad = await t.request({ method: 'POST', url: '/api/contributors/export-jobs?sort=password', token: exporter.token });
    expect(bad.statusCode).toBe(400);
    const noGrant = await t.request({ method: 'POST', url: '/api/contributors/export-jobs', token: nosy.token });
    expect(noGrant.statusCode).toBe(403);
  });

  it('lists my jobs; everyone’s only with the Procesos permission', async () => {
    const mine = await t.request({ method: 'GET', url: '/api/jobs', token: exporter.token });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().total).toBeGreaterThanOrEqual(2);
    expect(mine.json().items.every((j: Job) => j.userId === exporter.id)).toBe(true);
    expect((await t.request({ method: 'GET', url: '/api/jobs', token: other.token })).json().total).toBe(0);
    expect((await t.request({ method: 'GET', url: '/api/jobs?scope=all', token: other.token })).statusCode).toBe(403);
    const all = await t.request({
      method: 'GET',
      url: `/api/jobs?scope=all&userId=${exporter.id}&state=DONE`,
      token: watcher.token,
    });
    expect(all.statusCode).toBe(200);
    expect(all.json().total).toBeGreaterThanOrEqual(2);
  });

  it('cancels a queued job (audited), refuses to cancel it twice, and leaves no file', async () => {
    const { jobId } = (await t.request({ method: 'POST', url: '/api/contributors/export-jobs', token: exporter.token })).json();
    expect((await t.request({ method: 'POST', url: `/api/jobs/${jobId}/cancel`, token: other.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'POST', url: `/api/jobs/${jobId}/cancel`, token: watcher.token })).statusCode).toBe(403);
    const res = await t.request({ method: 'POST', url: `/api/jobs/${jobId}/cancel`, token: exporter.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ state: 'CANCELLED', canCancel: false, hasFile: false });
    const again = await t.request({ method: 'POST', url: `/api/jobs/${jobId}/cancel`, token: exporter.token });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toMatch(/ya terminó/);
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'job'), eq(auditLog.entityId, String(jobId)), eq(auditLog.action, 'CANCEL')));
    expect(audits).toHaveLength(1);
    expect((await t.request({ method: 'GET', url: `/api/jobs/${jobId}/file`, token: exporter.token })).statusCode).toBe(404);
  });

  it('cancels a running export: it stops at its next chunk and removes the partial file', async () => {
    const filesBefore = (await t.database.db.select({ n: count() }).from(storedFiles))[0].n;
    const { jobId } = (
      await t.request({ method: 'POST', url: '/api/contributors/export-jobs?format=xlsx', token: exporter.token })
    ).json();
    await t.app.jobs.start();
    await poll(exporter.token, jobId, (j) => (j.state === 'RUNNING' && j.done > 0) || finished(j));
    const res = await t.request({ method: 'POST', url: `/api/jobs/${jobId}/cancel`, token: exporter.token });
    const job = await poll(exporter.token, jobId, finished);
    await t.app.jobs.stop();
    // On a fast machine the export may end before the cancel is seen: asked after the end, cancel says 409;
    // asked while its last chunk was being written (seen at the next progress report, which never came),
    // the job ends DONE with its whole file. Otherwise it is CANCELLED and leaves no partial file.
    const files = async () => (await t.database.db.select({ n: count() }).from(storedFiles))[0].n;
    if (res.statusCode === 200 && job.state === 'DONE') {
      expect(job.result).toMatchObject({ fileId: expect.any(Number) });
      expect(await files()).toBe(filesBefore + 1);
    } else if (res.statusCode === 200) {
      expect(job.state).toBe('CANCELLED');
      expect(await files()).toBe(filesBefore);
    } else {
      expect(res.statusCode).toBe(409);
      expect(job.state).toBe('DONE');
    }
  });

  it('says the file is gone once storage lost it', async () => {
    const { jobId } = (
      await t.request({ method: 'POST', url: '/api/contributors/export-jobs?format=csv&state=INACTIVO', token: exporter.token })
    ).json();
    await t.app.jobs.start();
    const job = await poll(exporter.token, jobId, finished);
    await t.app.jobs.stop();
    const [file] = await t.database.db
      .select()
      .from(storedFiles)
      .where(eq(storedFiles.id, (job.result as { fileId: number }).fileId));
    await t.app.files.delete(file.key);
    const res = await t.request({ method: 'GET', url: `/api/jobs/${jobId}/file`, token: exporter.token });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toMatch(/ya no está disponible/);
  });

  it('removes expired export files from storage and the database; the download then says the file is gone', async () => {
    const { jobId } = (
      await t.request({ method: 'POST', url: '/api/contributors/export-jobs?format=csv&state=ACTIVO', token: exporter.token })
    ).json();
    await t.app.jobs.start();
    const job = await poll(exporter.token, jobId, finished);
    await t.app.jobs.stop();
    const fileId = (job.result as { fileId: number }).fileId;
    const [file] = await t.database.db.select().from(storedFiles).where(eq(storedFiles.id, fileId));
    expect(file.expiresAt).not.toBeNull();
    expect((await t.request({ method: 'GET', url: `/api/jobs/${jobId}/file`, token: exporter.token })).statusCode).toBe(200);

    // Not yet expired: kept (files of the earlier tests, older, may go).
    await t.app.jobs.purgeExpiredFiles(new Date(file.expiresAt!.getTime() - 1000));
    expect(await t.database.db.select().from(storedFiles).where(eq(storedFiles.id, fileId))).toHaveLength(1);
    // Past its expiry: gone from the table and from the store.
    expect(await t.app.jobs.purgeExpiredFiles(new Date(file.expiresAt!.getTime() + 1000))).toBeGreaterThanOrEqual(1);
    expect(await t.database.db.select().from(storedFiles).where(eq(storedFiles.id, fileId))).toEqual([]);
    await expect(t.app.files.get(file.key)).rejects.toThrow();
    const res = await t.request({ method: 'GET', url: `/api/jobs/${jobId}/file`, token: exporter.token });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toMatch(/ya no está disponible/);
  });
});
