import { addDays } from '@aporta/domain';
import { and, count, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  jobSchedules,
  jobs,
  pensionBeneficiaries,
  pensionReviews,
  pensionSuspensions,
  pensions,
  renapPeople,
  survivalChecks,
} from '../db/schema/index.ts';
import '../modules/pensions/jobs.ts';
import { JobWorker, runDueSchedules } from '../platform/jobs.ts';
import { createTestApp, type TestApp, type TestUser } from '../test/harness.ts';
import { seedContributorDemo } from './contributors.ts';
import { seedPensionDemo } from './pensions.ts';

let t: TestApp;
let admin: TestUser;
const today = '2026-06-15';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  await seedContributorDemo(t.database.db, { people: 6000, contributors: 50 });
  await seedPensionDemo(t.database.db, { pensions: 600, today, deaths: 3 });
}, 180_000);
afterAll(async () => {
  await t.close();
});

describe('pension demo data', () => {
  it('spreads pensions over the four types and states, with checks, beneficiaries and RENAP deaths; a second run adds nothing', async () => {
    const db = t.database.db;
    const rows = await db
      .select({ type: pensions.type, state: pensions.state, n: count() })
      .from(pensions)
      .groupBy(pensions.type, pensions.state);
    const total = rows.reduce((s, r) => s + r.n, 0);
    expect(total).toBeGreaterThan(550);
    for (const type of ['JUBILACION', 'INVALIDEZ', 'VIUDEZ', 'ORFANDAD'])
      expect(
        rows.some((r) => r.type === type && r.state === 'ACTIVA'),
        type,
      ).toBe(true);
    // Beyond grace on the seed's day: suspended by the real daily job, with their suspension rows.
    const suspended = rows.filter((r) => r.state === 'SUSPENDIDA').reduce((s, r) => s + r.n, 0);
    expect(suspended).toBeGreaterThan(0);
    const [{ n: open }] = await db
      .select({ n: count() })
      .from(pensionSuspensions)
      .where(eq(pensionSuspensions.reason, 'SUPERVIVENCIA'));
    // The demo payroll's RENAP check (issue 28) suspends a pensioner recorded dead: a death, not survival.
    const [{ n: deaths }] = await db
      .select({ n: count() })
      .from(pensionSuspensions)
      .where(eq(pensionSuspensions.reason, 'FALLECIMIENTO'));
    expect(open + deaths).toBe(suspended);
    const [{ n: checks }] = await db.select({ n: count() }).from(survivalChecks);
    expect(checks).toBeGreaterThan(total / 2);
    const [{ n: bens }] = await db.select({ n: count() }).from(pensionBeneficiaries);
    expect(bens).toBeGreaterThan(0);
    // Checks due now: birthdays in the window before the seed's day, not yet presented.
    const due = await t.request({ method: 'GET', url: `/api/survival?kind=due&asOf=${today}`, token: admin.token });
    expect(due.json().pensions.total).toBeGreaterThan(0);
    // A few open pensioners are deceased in the offline registry (the demo payroll already suspended those it
    // found: RENAP deaths are checked when a payroll is generated).
    const dead = await db
      .select({ n: count() })
      .from(pensions)
      .innerJoin(renapPeople, eq(renapPeople.cui, pensions.cui))
      .where(and(eq(pensions.state, 'ACTIVA'), isNotNull(renapPeople.deathDate)));
    const [{ n: suspendedDead }] = await db
      .select({ n: count() })
      .from(pensionSuspensions)
      .where(eq(pensionSuspensions.reason, 'FALLECIMIENTO'));
    expect(dead[0].n + suspendedDead).toBe(3);

    await seedPensionDemo(t.database.db, { pensions: 600, today });
    const [{ n: again }] = await db.select({ n: count() }).from(pensions);
    expect(again).toBe(total);
  });

  it('the daily schedules suspend overdue checks and act on RENAP deaths, as the system, without anyone starting them', async () => {
    const db = t.database.db;
    const keys = ['pensions.survival-suspension', 'pensions.renap-check'];
    // First sight (the day of installation): nothing runs.
    expect(await runDueSchedules(db, new Date(`${today}T12:00:00Z`), undefined, keys)).toEqual([]);
    const [{ n: before }] = await db.select({ n: count() }).from(pensions).where(eq(pensions.state, 'SUSPENDIDA'));
    // The demo payroll already found one of the deceased (its RENAP check opened that review).
    const [{ n: reviewsBefore }] = await db.select({ n: count() }).from(pensionReviews);
    // Two months later: checks have fallen beyond grace, and the deceased are found.
    const later = addDays(today, 60);
    expect(await runDueSchedules(db, new Date(`${later}T12:00:00Z`), undefined, keys)).toEqual(keys);
    // Each day's run is a job of the system, listed in Procesos with its progress: the workers run them.
    const started = await db.select().from(jobSchedules);
    const jobIds = keys.map((k) => started.find((o) => o.key === k)?.lastJobId as number);
    // A worker of its own, without the schedules (the app's would also start today's runs by the real clock).
    const worker = new JobWorker({ db, files: t.app.files, concurrency: 2, pollMs: 50 });
    await worker.start();
    const runs = [];
    for (const id of jobIds) {
      const deadline = Date.now() + 120_000;
      for (;;) {
        const [j] = await db.select().from(jobs).where(eq(jobs.id, id));
        if (!['QUEUED', 'RUNNING'].includes(j.state) || Date.now() > deadline) {
          runs.push(j);
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    await worker.stop();
    expect(runs.map((j) => [j.kind, j.state, j.userId])).toEqual([
      ['daily.pensions.survival-suspension', 'DONE', null],
      ['daily.pensions.renap-check', 'DONE', null],
    ]);
    // The RENAP check reported its progress: every open pension looked up.
    expect(runs[1].total).toBeGreaterThan(500);
    expect(runs[1].done).toBe(runs[1].total);
    const procesos = await t.request({ method: 'GET', url: '/api/jobs?scope=all', token: admin.token });
    expect(
      procesos
        .json()
        .items.filter((j: { userEmail: string }) => j.userEmail === 'Sistema')
        .map((j: { title: string }) => j.title),
    ).toEqual(
      expect.arrayContaining(['Suspensión diaria por supervivencia vencida', 'Verificación diaria de pensionados en RENAP']),
    );
    const [{ n: after }] = await db.select({ n: count() }).from(pensions).where(eq(pensions.state, 'SUSPENDIDA'));
    expect(after).toBeGreaterThan(before);
    const outcomes = await db.select().from(jobSchedules);
    expect(outcomes.find((o) => o.key === 'pensions.renap-check')).toMatchObject({
      lastSlot: later,
      lastError: null,
      lastResult: { deaths: 3, reviewsOpened: 3 - reviewsBefore },
    });
    expect(outcomes.find((o) => o.key === 'pensions.survival-suspension')?.lastResult).toMatchObject({ asOf: later });
    const reviews = await t.request({ method: 'GET', url: '/api/pension-reviews?state=ABIERTA', token: admin.token });
    expect(reviews.json().total).toBe(3);
  });
});
