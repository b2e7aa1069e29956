import {
  addBusinessDays,
  addDays,
  guatemalaToday,
  initialSettings,
  interestBetween,
  orderDueDate,
  periodOf,
  previousPeriod,
} from '@aporta/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentOrders, planillas } from '../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { contributorFixtures, newCui } from '../contributors/fixtures.ts';
import { interestRates } from './orders.ts';

/**
 * DOMAIN "Interest, further" (issue 28): a planilla submitted on time but approved after its legal due
 * date issues orders due N business days after the approval (setting
 * `paymentOrders.businessDaysAfterLateApproval`), so no interest accrues for the days of the review; a
 * late planilla keeps the legal date. The approval is today (the real clock); the submission day is set
 * on the planilla before it is approved, and the periods are old enough for the legal date to be past.
 */

let t: TestApp;
let admin: TestUser;
let reviewer: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;

const today = guatemalaToday();
const cal = initialSettings()['calendar.holidays'];
const DUE_DAY = initialSettings()['paymentOrders.dueDay'];
/** Periods whose legal due date (day 20 of the next month at the latest) is before today. */
const monthsBack = (n: number) => {
  let p = periodOf(today);
  for (let i = 0; i < n; i++) p = previousPeriod(p);
  return p;
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  reviewer = await t.createUser({ system: true });
  fx = await contributorFixtures(t.database.db);
  await t.app.jobs.start();
});
afterAll(() => t.close());

const req = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.request({ method, url, token, ...(payload === undefined ? {} : { payload: payload as object }) });

/** Noon in Guatemala (UTC−6) of `day`. */
const noonOf = (day: string) => new Date(`${day}T18:00:00.000Z`);

/** Submits planilla `id` through the API and waits until its job has sent it. */
async function submit(id: number) {
  const sent = await req(admin.token, 'POST', `/api/planillas/${id}/transitions`, { to: 'ENVIANDO' });
  expect(sent.statusCode, sent.body).toBe(200);
  for (let tries = 0; (await req(admin.token, 'GET', `/api/planillas/${id}`)).json().state !== 'ENVIADA'; tries++) {
    expect(tries, 'the submit job did not send the planilla').toBeLessThan(1200);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const move = async (id: number, to: string, comment?: string) => {
  const r = await req(reviewer.token, 'POST', `/api/planillas/${id}/transitions`, { to, ...(comment ? { comment } : {}) });
  expect(r.statusCode, r.body).toBe(200);
};

/**
 * A planilla of `period` with one line, submitted through the API (its submission then dated `submittedOn`)
 * and approved today by another user; its orders. `returned`: the reviewer first returns it for corrections
 * and the entity submits it again today.
 */
async function approvedPlanilla(period: string, submittedOn: string, opts: { returned?: boolean } = {}) {
  const p = await req(admin.token, 'POST', '/api/planillas', { entityId: fx.entityA.id, period });
  expect(p.statusCode, p.body).toBe(201);
  const id = p.json().id as number;
  const line = await req(admin.token, 'POST', `/api/planillas/${id}/lines`, {
    cui: newCui(),
    fullName: 'Ana López',
    budgetLine: '011',
    salary: '10000.00',
  });
  expect(line.statusCode, line.body).toBe(201);
  await submit(id);
  await t.database.db
    .update(planillas)
    .set({ submittedAt: noonOf(submittedOn) })
    .where(eq(planillas.id, id));
  if (opts.returned) {
    await move(id, 'EN_REVISION');
    await move(id, 'OBSERVADA', 'Revise el salario declarado.');
    await submit(id);
  }
  await move(id, 'EN_REVISION');
  await move(id, 'APROBADA');
  const orders = await t.database.db
    .select()
    .from(paymentOrders)
    .where(eq(paymentOrders.planillaId, id))
    .orderBy(paymentOrders.kind);
  expect(orders.map((o) => o.kind)).toEqual(['LABORAL', 'PATRONAL']);
  return orders;
}

const orderAsOf = async (id: number, asOf: string) => {
  const r = await req(admin.token, 'GET', `/api/payment-orders/${id}?asOf=${asOf}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
};

describe('due date after the institution’s review (issue 28)', () => {
  it('a timely planilla approved after the legal date: due N business days after the approval, no interest until then', async () => {
    const period = monthsBack(2);
    const legal = orderDueDate(period, DUE_DAY, cal);
    expect(legal < today).toBe(true);
    const orders = await approvedPlanilla(period, addDays(legal, -5));
    const due = addBusinessDays(today, 5, cal);
    for (const o of orders) {
      expect(o).toMatchObject({ issueDate: today, dueDate: due, accruedTo: due, dueBasis: 'AFTER_REVIEW' });
      const onDue = await orderAsOf(o.id, due);
      expect(onDue).toMatchObject({ dueDate: due, dueBasis: 'AFTER_REVIEW', interestDue: '0.00', state: 'EMITIDA' });
      expect((await orderAsOf(o.id, today)).interestDue).toBe('0.00');
      // Accrues only after: from the day after the due date.
      const after = addDays(due, 30);
      const later = await orderAsOf(o.id, after);
      const expected = interestBetween(o.principal, due, after, await interestRates(t.database.db));
      expect(expected > 0n).toBe(true);
      expect(later).toMatchObject({ state: 'VENCIDA', overdueDays: 30 });
      expect(later.interestDue).toBe((Number(expected) / 100).toFixed(2));
    }
  });

  it('a late planilla keeps the legal date: interest from the day after it, the review days included', async () => {
    const period = monthsBack(3);
    const legal = orderDueDate(period, DUE_DAY, cal);
    const orders = await approvedPlanilla(period, addDays(legal, 1));
    const rates = await interestRates(t.database.db);
    for (const o of orders) {
      expect(o).toMatchObject({ dueDate: legal, dueBasis: 'LEGAL' });
      const got = await orderAsOf(o.id, today);
      expect(got).toMatchObject({ dueDate: legal, dueBasis: 'LEGAL', state: 'VENCIDA' });
      expect(got.interestDue).toBe((Number(interestBetween(o.principal, legal, today, rates)) / 100).toFixed(2));
      expect((await orderAsOf(o.id, addDays(legal, 1))).interestDue).not.toBe('0.00');
    }
  });

  it('a timely planilla returned for corrections and submitted again after the legal date counts as late', async () => {
    const period = monthsBack(5);
    const legal = orderDueDate(period, DUE_DAY, cal);
    const orders = await approvedPlanilla(period, addDays(legal, -10), { returned: true });
    const [p] = await t.database.db.select().from(planillas).where(eq(planillas.id, orders[0].planillaId!));
    expect(guatemalaToday(p.submittedAt!)).toBe(today);
    for (const o of orders) expect(o).toMatchObject({ dueDate: legal, dueBasis: 'LEGAL' });
  });

  it('the setting in force on the approval day decides N', async () => {
    const set = await req(admin.token, 'POST', '/api/settings/paymentOrders.businessDaysAfterLateApproval/values', {
      value: 10,
      effectiveFrom: today,
      reason: 'Plazo ampliado por acuerdo de la junta directiva',
      retroactive: true,
    });
    expect(set.statusCode, set.body).toBe(201);
    const period = monthsBack(4);
    const legal = orderDueDate(period, DUE_DAY, cal);
    const orders = await approvedPlanilla(period, legal);
    for (const o of orders) expect(o).toMatchObject({ dueDate: addBusinessDays(today, 10, cal), dueBasis: 'AFTER_REVIEW' });
  });
});
