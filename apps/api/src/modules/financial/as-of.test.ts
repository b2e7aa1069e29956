import {
  addDays,
  allocatePayment,
  type Cents,
  centsToDecimal,
  decimalToCents,
  guatemalaToday,
  interestBetween,
  type OrderMoney,
  orderBalance,
  type RateFrom,
} from '@aporta/domain';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../platform/context.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { contributorFixtures } from '../contributors/fixtures.ts';
import { insertOrder, interestRates } from '../payments/orders.ts';

/**
 * Statements, the arrears ranking and the order lists as of a past date are recomputed from the history
 * (payments up to the date, their allocations, the rates in force), never read from today's columns
 * (issue 25, item 12).
 */

let t: TestApp;
let admin: TestUser;
let rates: RateFrom[];
const today = guatemalaToday();
const OFFICE = 'ASOF';
let n = 0;
const key = () => `asof-${Date.now()}-${++n}`;

const get = (url: string) => t.request({ method: 'GET', url, token: admin.token });
const pay = (orderIds: number[], payDate: string, amount: string) =>
  t.request({
    method: 'POST',
    url: '/api/payments',
    token: admin.token,
    payload: { idempotencyKey: key(), orderIds, bank: 'Banrural', payDate, bankReference: key(), amount, office: OFFICE },
  });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  const r = await t.request({
    method: 'POST',
    url: '/api/receipt-ranges',
    token: admin.token,
    payload: {
      office: OFFICE,
      series: 'AO',
      firstNumber: 1,
      lastNumber: 900_000,
      authorizationRef: 'Res. as-of',
      authorizationDate: '2024-01-02',
    },
  });
  expect(r.statusCode, r.body).toBe(201);
  rates = await interestRates(t.database.db);
});
afterAll(() => t.close());

async function order(entityId: number, period: string, principal: Cents, dueDate: string) {
  return insertOrder(systemContext(t.database.db), t.database.db, {
    kind: 'LABORAL',
    entityId,
    period,
    principal,
    dueDate,
    issueDate: addDays(dueDate, -20),
  });
}

interface ShownOrder {
  id: number;
  state: string;
  balance: string;
  interestDue: string;
  principalPaid: string;
  paid: string;
}

async function ordersAsOf(entityId: number, asOf: string, extra = ''): Promise<ShownOrder[]> {
  const r = await get(`/api/payment-orders?entityId=${entityId}&asOf=${asOf}&pageSize=100${extra}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json().items;
}

async function rankingRow(entityId: number, asOf: string) {
  const r = await get(`/api/financial/arrears?asOf=${asOf}`);
  expect(r.statusCode, r.body).toBe(200);
  return (r.json().items as { entityId: number; total: string; orders: number }[]).find((x) => x.entityId === entityId);
}

describe('as of a past date', () => {
  it('an order of 1,000.00 due 2026-03-20 with 500.00 paid on 2026-06-01 owes 1,013.81 on 2026-05-01 (statement, list, order, ranking)', async () => {
    // The rule (DOMAIN "Payment orders"): 1,000.00 × 12 % × 42 days (2026-03-21 … 2026-05-01) / 365 = 13.8082 → 13.81.
    const fx = await contributorFixtures(t.database.db);
    const e = fx.entityA.id;
    const o = await order(e, '2026-02', 100_000n, '2026-03-20');
    expect((await pay([o.id], '2026-06-01', '500.00')).statusCode).toBe(201);

    const s = (await get(`/api/financial/statement?entityId=${e}&asOf=2026-05-01`)).json();
    const feb = s.periods.find((p: { period: string }) => p.period === '2026-02');
    expect(feb).toMatchObject({ ordered: '1000.00', paid: '0.00', interest: '13.81', balance: '1013.81' });

    const [shown] = await ordersAsOf(e, '2026-05-01');
    expect(shown).toMatchObject({
      state: 'VENCIDA',
      balance: '1013.81',
      interestDue: '13.81',
      principalPaid: '0.00',
      paid: '0.00',
    });
    const one = (await get(`/api/payment-orders/${o.id}?asOf=2026-05-01`)).json();
    expect(one).toMatchObject({ state: 'VENCIDA', balance: '1013.81', interestDue: '13.81' });
    const totals = (await get(`/api/payment-orders/totals?entityId=${e}&asOf=2026-05-01`)).json();
    expect(totals).toMatchObject({ count: 1, paid: '0.00', interestDue: '13.81', balance: '1013.81' });
    expect(await rankingRow(e, '2026-05-01')).toMatchObject({ total: '1013.81', orders: 1 });

    // On the day of the payment: 24.00 of interest (73 days) was paid first, 476.00 of principal.
    const [onPay] = await ordersAsOf(e, '2026-06-01');
    expect(onPay).toMatchObject({ balance: '524.00', interestDue: '0.00', principalPaid: '476.00', paid: '500.00' });
  });

  it('an order paid after the date appears unpaid as of the date: in the list (state filter), the statement and the ranking', async () => {
    const fx = await contributorFixtures(t.database.db);
    const e = fx.entityA.id;
    const o = await order(e, '2026-03', 250_000n, '2026-04-20');
    const later = await order(e, '2026-08', 10_000n, '2026-09-21');
    const full = 250_000n + interestBetween(250_000n, '2026-04-20', '2026-07-01', rates);
    expect((await pay([o.id], '2026-07-01', centsToDecimal(full))).statusCode).toBe(201);
    expect((await get(`/api/payment-orders/${o.id}`)).json().state).toBe('PAGADA');

    const asOf = '2026-06-15';
    const overdue = await ordersAsOf(e, asOf, '&state=VENCIDA');
    expect(overdue.map((x) => x.id)).toEqual([o.id]);
    const want = 250_000n + interestBetween(250_000n, '2026-04-20', asOf, rates);
    expect(decimalToCents(overdue[0].balance)).toBe(want);
    // Issued after the date: not in the list as of the date.
    expect((await ordersAsOf(e, asOf)).map((x) => x.id)).toEqual([o.id]);
    expect((await ordersAsOf(e, asOf, '&state=PAGADA')).length).toBe(0);
    expect((await ordersAsOf(e, '2026-07-01', '&state=PAGADA')).map((x) => x.id)).toEqual([o.id]);
    expect(await rankingRow(e, asOf)).toMatchObject({ total: centsToDecimal(want), orders: 1 });
    const s = (await get(`/api/financial/statement?entityId=${e}&asOf=${asOf}`)).json();
    expect(s.periods.map((p: { period: string }) => p.period)).toEqual(['2026-03']);
    expect(s.periods[0].balance).toBe(centsToDecimal(want));
    expect(s.solvent).toBe(false);
    // Today: paid, nothing overdue but the later order.
    expect(await rankingRow(e, today)).toMatchObject({ orders: 1 });
    expect(later.id).toBeGreaterThan(o.id);
  });

  it('property: for random payment histories, the statement, the order list and the ranking as of any date equal replaying the history to that date with the domain rules', async () => {
    const start = '2025-01-01';
    const span = Math.min(700, Math.round((Date.parse(today) - Date.parse(start)) / 86_400_000));
    const orderArb = fc.record({
      principal: fc.bigInt({ min: 1n, max: 50_000_000n }),
      dueOffset: fc.integer({ min: 10, max: 200 }),
    });
    const payArb = fc.record({
      day: fc.integer({ min: 0, max: span }),
      mask: fc.integer({ min: 1, max: 7 }),
      permille: fc.integer({ min: 1, max: 1000 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(orderArb, { minLength: 1, maxLength: 3 }),
        fc.array(payArb, { minLength: 0, maxLength: 5 }),
        fc.array(fc.integer({ min: 0, max: span }), { minLength: 1, maxLength: 3 }),
        async (orderSpecs, paySpecs, askDays) => {
          const fx = await contributorFixtures(t.database.db);
          const e = fx.entityA.id;
          const orders = [];
          for (const [i, spec] of orderSpecs.entries()) {
            const row = await order(e, `2024-0${i + 1}`, spec.principal, addDays(start, spec.dueOffset));
            orders.push(row);
          }
          // The history, as registered: each payment names some open orders and pays part of their balance.
          const history: { date: string; orderIds: number[]; amount: Cents }[] = [];
          for (const p of [...paySpecs].sort((a, b) => a.day - b.day)) {
            const date = addDays(start, p.day);
            const state = replay(orders, history, date);
            const named = orders.filter((o, i) => (p.mask >> i) & 1 && state.get(o.id)!.open && o.issueDate <= date);
            if (!named.length) continue;
            const total = named.reduce((s, o) => s + state.get(o.id)!.balance.total, 0n);
            let amount = (total * BigInt(p.permille)) / 1000n;
            if (amount < 1n) amount = 1n;
            const r = await pay(
              named.map((o) => o.id),
              date,
              centsToDecimal(amount),
            );
            expect(r.statusCode, r.body).toBe(201);
            history.push({ date, orderIds: named.map((o) => o.id), amount });
          }
          const asks = new Set([...askDays.map((d) => addDays(start, d)), ...history.map((h) => addDays(h.date, -1)), today]);
          for (const asOf of asks) {
            const want = replay(orders, history, asOf);
            const issued = orders.filter((o) => o.issueDate <= asOf);
            // The order list.
            const shown = await ordersAsOf(e, asOf);
            expect(shown.map((x) => x.id).sort()).toEqual(issued.map((o) => o.id).sort());
            for (const x of shown) {
              const w = want.get(x.id)!;
              const o = orders.find((y) => y.id === x.id)!;
              const label = `${asOf} order ${x.id}`;
              expect(decimalToCents(x.balance), label).toBe(w.open ? w.balance.total : 0n);
              expect(decimalToCents(x.interestDue), label).toBe(w.open ? w.balance.interestDue : 0n);
              expect(decimalToCents(x.principalPaid), label).toBe(w.money.principalPaid);
              // Not yet due: issued, or partly paid when something was paid (a computed state).
              const notDue = w.money.principalPaid + w.money.interestPaid > 0n ? 'PAGADA_PARCIAL' : 'EMITIDA';
              expect(x.state, label).toBe(!w.open ? 'PAGADA' : o.dueDate < asOf ? 'VENCIDA' : notDue);
            }
            // The statement, period by period.
            const s = (await get(`/api/financial/statement?entityId=${e}&asOf=${asOf}`)).json();
            for (const o of issued) {
              const w = want.get(o.id)!;
              const row = s.periods.find((p: { period: string }) => p.period === o.period);
              expect(row, `${asOf} ${o.period}`).toMatchObject({
                ordered: centsToDecimal(o.principal),
                paid: centsToDecimal(w.money.principalPaid + w.money.interestPaid),
                interest: centsToDecimal(w.money.interestPaid + (w.open ? w.balance.interestDue : 0n)),
                balance: centsToDecimal(w.open ? w.balance.total : 0n),
              });
            }
            // The ranking: the overdue orders still open on the date.
            const overdue = issued.filter((o) => want.get(o.id)!.open && o.dueDate < asOf);
            const rank = await rankingRow(e, asOf);
            if (!overdue.length) expect(rank, asOf).toBeUndefined();
            else
              expect(rank, asOf).toMatchObject({
                orders: overdue.length,
                total: centsToDecimal(overdue.reduce((sum, o) => sum + want.get(o.id)!.balance.total, 0n)),
              });
          }
        },
      ),
      { numRuns: 12 },
    );
  }, 240_000);
});

/**
 * The domain's replay of a history up to `asOf`: every payment dated up to it, in order, applied as the
 * DOMAIN says (orderBalance at the payment date, allocatePayment: oldest first, interest first, fixing the
 * interest to the payment date), then each order's balance on `asOf`.
 */
function replay(
  orders: { id: number; principal: Cents; dueDate: string }[],
  history: { date: string; orderIds: number[]; amount: Cents }[],
  asOf: string,
) {
  const money = new Map<number, OrderMoney>(
    orders.map((o) => [
      o.id,
      { principal: o.principal, principalPaid: 0n, interestAccrued: 0n, interestPaid: 0n, accruedTo: o.dueDate },
    ]),
  );
  for (const h of history) {
    if (h.date > asOf) break;
    const named = orders.filter((o) => h.orderIds.includes(o.id));
    const balances = new Map(named.map((o) => [o.id, orderBalance(money.get(o.id)!, h.date, rates)]));
    const { allocations, excess } = allocatePayment(
      h.amount,
      named.map((o) => ({
        orderId: o.id,
        dueDate: o.dueDate,
        interestDue: balances.get(o.id)!.interestDue,
        principalDue: balances.get(o.id)!.principalDue,
      })),
    );
    if (excess !== 0n) throw new Error('replay: excess');
    for (const o of named) {
      const m = money.get(o.id)!;
      const a = allocations.find((x) => x.orderId === o.id) ?? { interest: 0n, principal: 0n };
      const b = balances.get(o.id)!;
      money.set(o.id, {
        ...m,
        principalPaid: m.principalPaid + a.principal,
        interestAccrued: m.interestAccrued + b.interestNew,
        interestPaid: m.interestPaid + a.interest,
        accruedTo: [h.date, m.accruedTo].sort()[1],
      });
    }
  }
  return new Map(
    orders.map((o) => {
      const m = money.get(o.id)!;
      return [o.id, { money: m, balance: orderBalance(m, asOf, rates), open: m.principalPaid < m.principal }];
    }),
  );
}
