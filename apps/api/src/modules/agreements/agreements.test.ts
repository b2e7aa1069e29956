import { addDays, decimalToCents, type Grant, guatemalaToday } from '@aporta/domain';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications, paymentAgreements, paymentOrders } from '../../db/schema/index.ts';
import { systemContext } from '../../platform/context.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { attachUserToEntity, contributorFixtures } from '../contributors/fixtures.ts';
import { insertOrder } from '../payments/orders.ts';
import { detectAgreements } from './detection.ts';

let t: TestApp;
let admin: TestUser;
let clerk: TestUser;
const today = guatemalaToday();
const OFFICE = 'CONVENIOS';
let keyN = 0;
const key = () => `cv-${Date.now()}-${++keyN}`;

const g = (scope: Grant['scope'], entries: [Grant['resource'], Grant['action'][]][]): Grant[] =>
  entries.flatMap(([resource, actions]) => actions.map((action) => ({ resource, action, scope })));

const req = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.request({ method, url, token, ...(payload === undefined ? {} : { payload: payload as object }) });

/** A fresh entity with overdue employee and employer orders for each period (amounts in cents). */
async function entityInArrears(
  periods: [string, bigint][] = [
    ['2025-01', 150_000n],
    ['2025-02', 123_457n],
  ],
) {
  const fx = await contributorFixtures(t.database.db);
  const ctx = systemContext(t.database.db);
  for (const [period, principal] of periods) {
    for (const kind of ['LABORAL', 'PATRONAL'] as const) {
      await insertOrder(ctx, t.database.db, { kind, entityId: fx.entityA.id, period, principal, issueDate: `${period}-28` });
    }
  }
  return fx.entityA;
}

const firstDue = addDays(today, 30);
const terms = (entityId: number, over: Record<string, unknown> = {}) => ({
  entityId,
  downPayment: '1000.00',
  instalments: 6,
  firstDueDate: firstDue,
  ...over,
});

/** The minimum down payment of the entity's debt today, as text. */
async function minDown(entityId: number) {
  const r = await req(admin.token, 'GET', `/api/payment-agreements/debt?entityId=${entityId}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as {
    debt: string;
    minDownPayment: string;
    orders: { orderId: number; principalDue: string; interestDue: string }[];
  };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  clerk = await t.createUser({
    grants: g('ENTITY', [
      ['payment-agreements', ['READ', 'CREATE']],
      ['planilla-payments', ['READ', 'CREATE']],
    ]),
  });
  const rng = await req(admin.token, 'POST', '/api/receipt-ranges', {
    office: OFFICE,
    series: 'CV',
    firstNumber: 1,
    lastNumber: 500,
    authorizationRef: 'Res. convenios',
    authorizationDate: '2024-01-02',
  });
  expect(rng.statusCode, rng.body).toBe(201);
});
afterAll(() => t.close());

describe('the debt of an agreement', () => {
  it('lists the overdue orders with interest to today and adds the administrative charge (5 %)', async () => {
    const e = await entityInArrears();
    const d = await minDown(e.id);
    expect(d.orders).toHaveLength(4);
    const principal = d.orders.reduce((s, o) => s + decimalToCents(o.principalDue), 0n);
    const interest = d.orders.reduce((s, o) => s + decimalToCents(o.interestDue), 0n);
    expect(principal).toBe(2n * 150_000n + 2n * 123_457n);
    expect(interest).toBeGreaterThan(0n);
    // 5 % of principal + interest, rounded half-up once.
    const charge = ((principal + interest) * 5n * 10n + 500n) / 1000n;
    expect(decimalToCents(d.debt)).toBe(principal + interest + charge);
    // 10 % minimum down payment.
    expect(decimalToCents(d.minDownPayment)).toBe((decimalToCents(d.debt) * 10n * 10n + 500n) / 1000n);
  });
});

describe('simulating', () => {
  it('gives a schedule that sums exactly to the debt, the down payment first', async () => {
    const e = await entityInArrears();
    const d = await minDown(e.id);
    const r = await req(
      admin.token,
      'POST',
      '/api/payment-agreements/simulate',
      terms(e.id, { downPayment: d.minDownPayment, instalments: 7 }),
    );
    expect(r.statusCode, r.body).toBe(200);
    const sim = r.json();
    expect(sim.schedule).toHaveLength(8);
    expect(sim.schedule[0]).toMatchObject({ number: 0, amount: d.minDownPayment });
    const sum = sim.schedule.reduce((s: bigint, x: { amount: string }) => s + decimalToCents(x.amount), 0n);
    expect(sum).toBe(decimalToCents(d.debt));
    expect(sim.total).toBe(d.debt);
    // Nothing was created.
    expect((await req(admin.token, 'GET', `/api/payment-agreements?entityId=${e.id}`)).json().items).toHaveLength(0);
  });

  it('refuses, naming the field: no overdue orders, down payment below the minimum, too many instalments, a first due date in the past', async () => {
    const fx = await contributorFixtures(t.database.db);
    const none = await req(admin.token, 'POST', '/api/payment-agreements/simulate', terms(fx.entityA.id));
    expect(none.statusCode, none.body).toBe(400);
    expect(none.json().error.details[0].path).toBe('orderIds');

    const e = await entityInArrears();
    const d = await minDown(e.id);
    const below = await req(
      admin.token,
      'POST',
      '/api/payment-agreements/simulate',
      terms(e.id, { downPayment: (Number(d.minDownPayment) - 0.01).toFixed(2) }),
    );
    expect(below.statusCode).toBe(400);
    expect(below.json().error.details[0]).toMatchObject({ path: 'downPayment' });
    expect(below.json().error.message).toContain(d.minDownPayment);

    const many = await req(
      admin.token,
      'POST',
      '/api/payment-agreements/simulate',
      terms(e.id, { downPayment: d.minDownPayment, instalments: 37 }),
    );
    expect(many.statusCode).toBe(400);
    expect(many.json().error.details[0]).toEqual({
      path: 'instalments',
      message: 'Número de cuotas: el máximo vigente es 36.',
      key: 'agreements.instalmentsAboveMaximum',
      params: { max: 36 },
    });

    const past = await req(
      admin.token,
      'POST',
      '/api/payment-agreements/simulate',
      terms(e.id, { downPayment: d.minDownPayment, firstDueDate: addDays(today, -1) }),
    );
    expect(past.statusCode).toBe(400);
    expect(past.json().error.details[0].path).toBe('firstDueDate');
  });

  it('a debt below the configured minimum (agreements.minDebt, Q 1,000 initially) is refused: simulate and create', async () => {
    // The issue's case: four orders of Q 0.01 became an agreement of four instalments of Q 0.01.
    const e = await entityInArrears([
      ['2025-03', 1n],
      ['2025-04', 1n],
    ]);
    const d = await minDown(e.id);
    for (const url of ['/api/payment-agreements/simulate', '/api/payment-agreements']) {
      const r = await req(admin.token, 'POST', url, terms(e.id, { downPayment: '0.01', instalments: 1 }));
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json().error).toMatchObject({
        code: 'VALIDATION',
        message: `La deuda (Q ${d.debt}) es menor que el mínimo para un convenio (Q 1,000.00): páguela de una vez.`,
        details: [{ path: 'orderIds' }],
      });
    }
    expect((await req(admin.token, 'GET', `/api/payment-agreements?entityId=${e.id}`)).json().items).toHaveLength(0);
  });

  it('an entity outside the scope is absent (404)', async () => {
    const e = await entityInArrears();
    const r = await req(clerk.token, 'POST', '/api/payment-agreements/simulate', terms(e.id));
    expect(r.statusCode).toBe(404);
  });
});

describe('creating, paying, default', () => {
  it('consolidates the orders (they leave the arrears, history kept) and issues one order per instalment; paying the down payment issues a receipt', async () => {
    const e = await entityInArrears();
    await attachUserToEntity(t.database.db, clerk.id, e.id);
    const d = await minDown(e.id);
    const created = await req(
      clerk.token,
      'POST',
      '/api/payment-agreements',
      terms(e.id, { downPayment: d.minDownPayment, instalments: 5 }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const ag = created.json();
    expect(ag.state).toBe('VIGENTE');
    expect(ag.number).toMatch(/^CP-\d{4}-\d{6}$/);
    expect(ag.debt).toBe(d.debt);
    expect(ag.instalments).toHaveLength(6);
    const sum = ag.instalments.reduce((s: bigint, i: { amount: string }) => s + decimalToCents(i.amount), 0n);
    expect(sum).toBe(decimalToCents(d.debt));
    expect(ag.orders.map((o: { orderId: number }) => o.orderId).sort()).toEqual(d.orders.map((o) => o.orderId).sort());

    // The consolidated orders: CONVENIDA, nothing owed on them any more, their history intact.
    const consolidated = await t.database.db
      .select()
      .from(paymentOrders)
      .where(
        inArray(
          paymentOrders.id,
          d.orders.map((o) => o.orderId),
        ),
      );
    expect(consolidated.every((o) => o.state === 'CONVENIDA')).toBe(true);
    const overdue = await req(admin.token, 'GET', `/api/payment-orders?entityId=${e.id}&state=VENCIDA`);
    expect(overdue.json().items).toHaveLength(0);
    const one = await req(admin.token, 'GET', `/api/payment-orders/${d.orders[0].orderId}`);
    expect(one.json()).toMatchObject({ state: 'CONVENIDA', balance: '0.00' });
    // A payment against a consolidated order is refused.
    const refused = await req(admin.token, 'POST', '/api/payments', {
      idempotencyKey: key(),
      orderIds: [d.orders[0].orderId],
      bank: 'Banrural',
      payDate: today,
      bankReference: `BR-${key()}`,
      amount: '1.00',
      office: OFFICE,
    });
    expect(refused.statusCode).toBe(409);

    // The down payment is an order of kind CONVENIO: paying it issues a 7-B receipt.
    const down = ag.instalments.find((i: { number: number }) => i.number === 0);
    const paid = await req(clerk.token, 'POST', '/api/payments', {
      idempotencyKey: key(),
      orderIds: [down.orderId],
      bank: 'Banrural',
      payDate: today,
      bankReference: `BR-${key()}`,
      amount: down.amount,
      office: OFFICE,
    });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json().payment.receipt.series).toBe('CV');
    const after = (await req(clerk.token, 'GET', `/api/payment-agreements/${ag.id}`)).json();
    expect(after.paid).toBe(down.amount);
    expect(after.instalments[0].state).toBe('PAGADA');

    // The PDF for signature.
    const pdf = await req(clerk.token, 'GET', `/api/payment-agreements/${ag.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');

    // Two instalments overdue the day after the second one's due date: INCUMPLIDO, the rest due at once.
    const second = ag.instalments.find((i: { number: number }) => i.number === 2);
    const ctx = systemContext(t.database.db);
    const before = await detectAgreements(ctx, second.dueDate);
    expect(before.defaulted).toBe(0);
    const dayAfter = addDays(second.dueDate, 1);
    const r = await detectAgreements(ctx, dayAfter);
    expect(r.defaulted).toBeGreaterThanOrEqual(1);
    const defaulted = (await req(clerk.token, 'GET', `/api/payment-agreements/${ag.id}`)).json();
    expect(defaulted.state).toBe('INCUMPLIDO');
    expect(defaulted.defaultedAt).toBe(dayAfter);
    const rest = await t.database.db
      .select()
      .from(paymentOrders)
      .where(
        inArray(
          paymentOrders.id,
          defaulted.instalments.filter((i: { number: number }) => i.number > 2).map((i: { orderId: number }) => i.orderId),
        ),
      );
    expect(rest.every((o) => o.dueDate === dayAfter)).toBe(true);
    const notes = await t.database.db.select().from(notifications).where(eq(notifications.userId, clerk.id));
    expect(notes.some((n) => n.title.includes(ag.number) && n.title.includes('incumplido'))).toBe(true);
    // Idempotent.
    expect((await detectAgreements(ctx, dayAfter)).defaulted).toBe(0);
  });

  it('two agreements over the same orders at once: one wins, the other is refused (409)', async () => {
    const e = await entityInArrears();
    const d = await minDown(e.id);
    const body = terms(e.id, { downPayment: d.minDownPayment });
    const [x, y] = await Promise.all([
      req(admin.token, 'POST', '/api/payment-agreements', body),
      req(admin.token, 'POST', '/api/payment-agreements', body),
    ]);
    expect([x.statusCode, y.statusCode].sort()).toEqual([201, 409]);
    const rows = await t.database.db.select().from(paymentAgreements).where(eq(paymentAgreements.entityId, e.id));
    expect(rows).toHaveLength(1);
  });

  it('paying every instalment completes the agreement (CUMPLIDO)', async () => {
    const e = await entityInArrears([['2025-03', 100_000n]]);
    const d = await minDown(e.id);
    const ag = (
      await req(admin.token, 'POST', '/api/payment-agreements', terms(e.id, { downPayment: d.minDownPayment, instalments: 2 }))
    ).json();
    for (const i of ag.instalments) {
      const p = await req(admin.token, 'POST', '/api/payments', {
        idempotencyKey: key(),
        orderIds: [i.orderId],
        bank: 'Banrural',
        payDate: today,
        bankReference: `BR-${key()}`,
        amount: i.amount,
        office: OFFICE,
      });
      expect(p.statusCode, p.body).toBe(201);
    }
    const r = await detectAgreements(systemContext(t.database.db), today);
    expect(r.completed).toBeGreaterThanOrEqual(1);
    expect((await req(admin.token, 'GET', `/api/payment-agreements/${ag.id}`)).json()).toMatchObject({
      state: 'CUMPLIDO',
      balance: '0.00',
    });
  });

  it('the detection job starts from its route (202)', async () => {
    const r = await req(admin.token, 'POST', '/api/payment-agreements/detection-jobs', { asOf: today });
    expect(r.statusCode, r.body).toBe(202);
    expect(r.json().jobId).toBeGreaterThan(0);
  });
});

describe('restructuring and voiding', () => {
  it('replaces the unpaid instalments with a new schedule of what they owe; refused beyond the limit (2)', async () => {
    const e = await entityInArrears();
    const d = await minDown(e.id);
    const ag = (
      await req(admin.token, 'POST', '/api/payment-agreements', terms(e.id, { downPayment: d.minDownPayment, instalments: 4 }))
    ).json();
    const owed = decimalToCents(ag.balance);
    const again = async () => {
      const min = ((owed * 10n * 10n + 500n) / 1000n + 100n).toString();
      return req(admin.token, 'POST', `/api/payment-agreements/${ag.id}/restructure`, {
        downPayment: `${min.slice(0, -2)}.${min.slice(-2)}`,
        instalments: 10,
        firstDueDate: addDays(today, 20),
      });
    };
    const r1 = await again();
    expect(r1.statusCode, r1.body).toBe(200);
    const re = r1.json();
    expect(re.restructurings).toBe(1);
    const live = re.instalments.filter((i: { state: string }) => i.state !== 'REEMPLAZADA');
    const replaced = re.instalments.filter((i: { state: string }) => i.state === 'REEMPLAZADA');
    expect(live).toHaveLength(11);
    expect(replaced).toHaveLength(5);
    expect(live.reduce((s: bigint, i: { amount: string }) => s + decimalToCents(i.amount), 0n)).toBe(owed);
    expect(re.balance).toBe(ag.balance);
    expect((await again()).statusCode).toBe(200);
    const r3 = await again();
    expect(r3.statusCode).toBe(409);
    expect(r3.json().error.message).toContain('límite vigente es 2');
  });

  it('voiding an agreement without payments returns its orders to the arrears; with a payment it is refused', async () => {
    const e = await entityInArrears();
    const d = await minDown(e.id);
    const ag = (await req(admin.token, 'POST', '/api/payment-agreements', terms(e.id, { downPayment: d.minDownPayment }))).json();
    const noReason = await req(admin.token, 'POST', `/api/payment-agreements/${ag.id}/void`, { reason: '' });
    expect(noReason.statusCode).toBe(400);
    const v = await req(admin.token, 'POST', `/api/payment-agreements/${ag.id}/void`, { reason: 'Firmado por error' });
    expect(v.statusCode, v.body).toBe(200);
    expect(v.json().state).toBe('ANULADO');
    const back = await minDown(e.id);
    expect(back.orders.map((o) => o.orderId).sort()).toEqual(d.orders.map((o) => o.orderId).sort());
    const live = await t.database.db
      .select({ id: paymentOrders.id })
      .from(paymentOrders)
      .where(
        sql`${paymentOrders.entityId} = ${e.id} and ${paymentOrders.kind} = 'CONVENIO' and ${paymentOrders.state} <> 'ANULADA'`,
      );
    expect(live).toHaveLength(0);

    const ag2 = (
      await req(admin.token, 'POST', '/api/payment-agreements', terms(e.id, { downPayment: back.minDownPayment }))
    ).json();
    expect(ag2.state).toBe('VIGENTE');
    const down = ag2.instalments[0];
    await req(admin.token, 'POST', '/api/payments', {
      idempotencyKey: key(),
      orderIds: [down.orderId],
      bank: 'Banrural',
      payDate: today,
      bankReference: `BR-${key()}`,
      amount: '10.00',
      office: OFFICE,
    });
    const refused = await req(admin.token, 'POST', `/api/payment-agreements/${ag2.id}/void`, { reason: 'Otra razón' });
    expect(refused.statusCode).toBe(409);
  });

  it('a second agreement while one is in force is refused (409)', async () => {
    const e = await entityInArrears();
    const d = await minDown(e.id);
    expect(
      (await req(admin.token, 'POST', '/api/payment-agreements', terms(e.id, { downPayment: d.minDownPayment }))).statusCode,
    ).toBe(201);
    const again = await req(admin.token, 'POST', '/api/payment-agreements', terms(e.id, { downPayment: d.minDownPayment }));
    expect(again.statusCode).toBe(409);
  });
});
