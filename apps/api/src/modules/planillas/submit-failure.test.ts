import { guatemalaToday, periodOf, previousPeriod } from '@aporta/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, planillas } from '../../db/schema/index.ts';
import { JobWorker, jobMessages } from '../../platform/jobs.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { contributorFixtures, newCui } from '../contributors/fixtures.ts';
import { SUBMIT_MESSAGES } from './submit.ts';

/**
 * A planilla submit job that fails for good puts its planilla back at once (issue 25, item 6): before, it
 * stayed ENVIANDO — nobody could edit or submit it — until someone opened it or the server restarted.
 */

let t: TestApp;
let admin: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  fx = await contributorFixtures(t.database.db);
  // The machine may be busy: opening a cloned database can take longer than the default hook timeout.
}, 180_000);
afterAll(() => t.close());

describe('planilla submit job failing for good', () => {
  it('after its last crash the planilla is back in BORRADOR with the reason, without anyone reading it', async () => {
    const db = t.database.db;
    const created = await t.request({
      method: 'POST',
      url: '/api/planillas',
      token: admin.token,
      payload: { entityId: fx.entityA.id, period: previousPeriod(periodOf(guatemalaToday())) },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    const line = await t.request({
      method: 'POST',
      url: `/api/planillas/${id}/lines`,
      token: admin.token,
      payload: { cui: newCui(), fullName: 'Ana López', budgetLine: '011', salary: '3000.00' },
    });
    expect(line.statusCode, line.body).toBe(201);
    const sub = await t.request({
      method: 'POST',
      url: `/api/planillas/${id}/transitions`,
      token: admin.token,
      payload: { to: 'ENVIANDO' },
    });
    expect(sub.statusCode, sub.body).toBe(200);
    const jobId = sub.json().submitJobId as number;

    // Every attempt crashes when it sends the planilla (an unexpected database error).
    await db.execute(
      sql.raw(`create or replace function test_crash() returns trigger language plpgsql as $$
      begin raise exception 'caída simulada'; end $$`),
    );
    await db.execute(
      sql.raw(
        `create trigger test_crash before update on planillas for each row when (new.state = 'ENVIADA') execute function test_crash()`,
      ),
    );
    const worker = new JobWorker({ db, files: t.app.files, concurrency: 1, pollMs: 10, retryDelayMs: 10 });
    try {
      await worker.start();
      for (let i = 0; ; i++) {
        const [j] = await db.select().from(jobs).where(eq(jobs.id, jobId));
        if (j.state === 'FAILED') {
          expect(j).toMatchObject({ attempts: 3, error: jobMessages.unexpected });
          break;
        }
        expect(i, `job stayed ${j.state}`).toBeLessThan(3000);
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await worker.stop();
      await db.execute(sql.raw('drop trigger test_crash on planillas'));
    }
    // Read from the table, not through the API (reading it would settle it on main too).
    const [p] = await db.select().from(planillas).where(eq(planillas.id, id));
    expect(p).toMatchObject({ state: 'BORRADOR', submitMessage: SUBMIT_MESSAGES.failed });
  });
});
