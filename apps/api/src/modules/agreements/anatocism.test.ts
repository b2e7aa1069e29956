import { readdirSync, readFileSync } from 'node:fs';
import {
  addDays,
  allocate,
  centsToDecimal,
  decimalToCents,
  guatemalaToday,
  interestBetween,
  type RateFrom,
} from '@aporta/domain';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contributors, paymentAgreementOrders, paymentAgreements, paymentOrders } from '../../db/schema/index.ts';
import { systemContext } from '../../platform/context.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { contributorFixtures, newCui } from '../contributors/fixtures.ts';
import { insertOrder, interestRates } from '../payments/orders.ts';
import { paidMonths } from '../payments/voluntary.ts';

/**
 * No anatocism (DOMAIN "Interest, further"; issue 25, item 13): interest accrues only on principal — a
 * late agreement instalment on its principal share, never on the consolidated interest or the
 * administrative charge; a restructuring keeps unpaid interest as interest; a voluntary order's months
 * sum exactly to what was paid.
 */

let t: TestApp;
let admin: TestUser;
let rates: RateFrom[];
const today = guatemalaToday();
const OFFICE = 'ANATO';
let n = 0;
const key = () => `an-${Date.now()}-${++n}`;

const req = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.request({ method, url, token: admin.token, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  const r = await req('POST', '/api/receipt-ranges', {
    office: OFFICE,
    series: 'AN',
    firstNumber: 1,
    lastNumber: 10_000,
    authorizationRef: 'Res. anatocismo',
    authorizationDate: '2024-01-02',
  });
  expect(r.statusCode, r.body).toBe(201);
  rates = await interestRates(t.database.db);
});
afterAll(() => t.close());

/** An entity with overdue orders (interest accrued since 2025) and an agreement over them. */
async function agreementOverArrears(instalments = 3) {
  const fx = await contributorFixtures(t.database.db);
  const ctx = systemContext(t.database.db);
  for (const [period, principal] of [
    ['2025-01', 150_000n],
    ['2025-02', 123_457n],
  ] as const) {
    await insertOrder(ctx, t.database.db, {
      kind: 'PATRONAL',
      entityId: fx.entityA.id,
      period,
      principal,
      issueDate: `${period}-28`,
    });
  }
  const debt = (await req('GET', `/api/payment-agreements/debt?entityId=${fx.entityA.id}`)).json();
  expect(decimalToCents(debt.interest)).toBeGreaterThan(0n);
  const r = await req('POST', '/api/payment-agreements', {
    entityId: fx.entityA.id,
    downPayment: debt.minDownPayment,
    instalments,
    firstDueDate: addDays(today, 30),
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as { id: number; principal: string; interest: string; adminCharge: string; debt: string };
}

/** The live instalment orders of an agreement, in schedule order. */
async function instalmentOrders(agreementId: number) {
  return t.database.db
    .select({ o: paymentOrders, number: paymentAgreementOrders.number, schedule: paymentAgreementOrders.schedule })
    .from(paymentAgreementOrders)
    .innerJoin(paymentOrders, eq(paymentOrders.id, paymentAgreementOrders.orderId))
    .where(
      and(
        eq(paymentAgreementOrders.agreementId, agreementId),
        eq(paymentAgreementOrders.role, 'CUOTA'),
        isNull(paymentAgreementOrders.replacedAt),
      ),
    )
    .orderBy(asc(paymentAgreementOrders.number));
}

/** Makes an instalment `days` days late (as if it had fallen due then). */
async function makeLate(orderId: number, days: number) {
  const due = addDays(today, -days);
  await t.database.db.update(paymentOrders).set({ dueDate: due, accruedTo: due }).where(eq(paymentOrders.id, orderId));
  return due;
}

const sum = (xs: bigint[]) => xs.reduce((s, x) => s + x, 0n);

describe('no anatocism', () => {
  it("each instalment carries its principal and interest shares (summing exactly to the agreement's); a late one accrues on its principal share only", async () => {
    const ag = await agreementOverArrears(3);
    const lines = await instalmentOrders(ag.id);
    expect(lines).toHaveLength(4);
    expect(sum(lines.map((l) => l.o.principalShare ?? -1n))).toBe(decimalToCents(ag.principal));
    expect(sum(lines.map((l) => l.o.interestShare ?? -1n))).toBe(decimalToCents(ag.interest));
    expect(sum(lines.map((l) => l.o.principal - (l.o.principalShare ?? 0n) - (l.o.interestShare ?? 0n)))).toBe(
      decimalToCents(ag.adminCharge),
    );
    const late = lines[1].o;
    const share = late.principalShare ?? 0n;
    expect(share).toBeLessThan(late.principal);
    const due = await makeLate(late.id, 100);
    const shown = (await req('GET', `/api/payment-orders/${late.id}`)).json();
    const want = interestBetween(share, due, today, rates);
    expect(want).toBeGreaterThan(0n);
    expect(shown.interestDue).toBe(centsToDecimal(want));
    expect(decimalToCents(shown.interestDue)).toBeLessThan(interestBetween(late.principal, due, today, rates));
    // The list and the agreement say the same.
    const list = (await req('GET', `/api/payment-orders?entityId=${late.entityId}&state=VENCIDA&kind=CONVENIO`)).json();
    expect(list.items.find((x: { id: number }) => x.id === late.id).interestDue).toBe(centsToDecimal(want));

    // A payment covers the late interest, then the instalment's interest and charge before its principal
    // share: paying the late interest and less than the rest leaves the whole share accruing.
    const rest = late.principal - share;
    const p = await req('POST', '/api/payments', {
      idempotencyKey: key(),
      orderIds: [late.id],
      bank: 'Banrural',
      payDate: today,
      bankReference: key(),
      amount: centsToDecimal(want + rest),
      office: OFFICE,
    });
    expect(p.statusCode, p.body).toBe(201);
    const after = (await req('GET', `/api/payment-orders/${late.id}?asOf=${addDays(today, 365)}`)).json();
    expect(after.interestDue).toBe(centsToDecimal(interestBetween(share, today, addDays(today, 365), rates)));
    expect(after.balance).toBe(centsToDecimal(share + interestBetween(share, today, addDays(today, 365), rates)));
  });

  it('a restructuring keeps unpaid interest as interest: the new instalments accrue on the unpaid principal shares only', async () => {
    const ag = await agreementOverArrears(3);
    const lines = await instalmentOrders(ag.id);
    const late = lines[0].o;
    const due = await makeLate(late.id, 60);
    const lateInterest = interestBetween(late.principalShare ?? 0n, due, today, rates);
    expect(lateInterest).toBeGreaterThan(0n);
    const owed = sum(lines.map((l) => l.o.principal)) + lateInterest;
    const r = await req('POST', `/api/payment-agreements/${ag.id}/restructure`, {
      downPayment: centsToDecimal(owed / 2n),
      instalments: 4,
      firstDueDate: addDays(today, 20),
    });
    expect(r.statusCode, r.body).toBe(200);
    const fresh = await instalmentOrders(ag.id);
    expect(fresh).toHaveLength(5);
    expect(fresh.every((l) => l.schedule === 1)).toBe(true);
    expect(sum(fresh.map((l) => l.o.principal))).toBe(owed);
    // Principal stays principal; the consolidated interest and the late interest stay interest; the charge stays charge.
    expect(sum(fresh.map((l) => l.o.principalShare ?? -1n))).toBe(sum(lines.map((l) => l.o.principalShare ?? 0n)));
    expect(sum(fresh.map((l) => l.o.interestShare ?? -1n))).toBe(sum(lines.map((l) => l.o.interestShare ?? 0n)) + lateInterest);
    // A new instalment late 30 days accrues on its principal share only.
    const next = fresh[1].o;
    const nextDue = await makeLate(next.id, 30);
    const shown = (await req('GET', `/api/payment-orders/${next.id}`)).json();
    expect(shown.interestDue).toBe(centsToDecimal(interestBetween(next.principalShare ?? 0n, nextDue, today, rates)));
    expect(next.principalShare ?? 0n).toBeLessThan(next.principal);
  });

  it('an overdue instalment of a defaulted agreement consolidated again brings its interest and charge as they are', async () => {
    const ag = await agreementOverArrears(2);
    const lines = await instalmentOrders(ag.id);
    // The agreement defaulted with its instalments overdue; the entity signs another one over its overdue
    // orders, the instalments among them.
    for (const l of lines) await makeLate(l.o.id, 40);
    await t.database.db
      .update(paymentAgreements)
      .set({ state: 'INCUMPLIDO', defaultedOn: today })
      .where(eq(paymentAgreements.id, ag.id));
    const debt = (await req('GET', `/api/payment-agreements/debt?entityId=${lines[0].o.entityId}`)).json();
    const mine = debt.orders.filter((o: { orderId: number }) => lines.some((l) => l.o.id === o.orderId));
    expect(mine).toHaveLength(lines.length);
    for (const o of mine) {
      const l = lines.find((x) => x.o.id === o.orderId)!.o;
      const late = interestBetween(l.principalShare ?? 0n, addDays(today, -40), today, rates);
      expect(o).toMatchObject({
        principalDue: centsToDecimal(l.principalShare ?? 0n),
        interestDue: centsToDecimal((l.interestShare ?? 0n) + late),
        chargeDue: centsToDecimal(l.principal - (l.principalShare ?? 0n) - (l.interestShare ?? 0n)),
        balance: centsToDecimal(l.principal + late),
      });
    }
    const again = await req('POST', '/api/payment-agreements', {
      entityId: lines[0].o.entityId,
      downPayment: debt.minDownPayment,
      instalments: 2,
      firstDueDate: addDays(today, 30),
    });
    expect(again.statusCode, again.body).toBe(201);
    const ag2 = again.json();
    expect(ag2.principal).toBe(debt.principal);
    expect(ag2.interest).toBe(debt.interest);
    expect(ag2.debt).toBe(debt.debt);
    const shares = await instalmentOrders(ag2.id);
    expect(sum(shares.map((l) => l.o.principalShare ?? -1n))).toBe(decimalToCents(debt.principal));
  });

  it('the data migration gives the instalments of existing agreements the shares scheduleShares gives', async () => {
    const ag = await agreementOverArrears(5);
    const before = await instalmentOrders(ag.id);
    const ids = before.map((l) => l.o.id);
    await t.database.db
      .update(paymentOrders)
      .set({ principalShare: null, interestShare: null })
      .where(inArray(paymentOrders.id, ids));
    // Found by its name: the integrator may renumber it.
    const dir = new URL('../../../drizzle/', import.meta.url);
    const file = readdirSync(dir).find((f) => f.endsWith('_instalment_shares_data.sql'));
    expect(file).toBeDefined();
    const migration = readFileSync(new URL(file ?? '', dir), 'utf8');
    await t.database.db.execute(sql.raw(migration));
    const after = await instalmentOrders(ag.id);
    expect(after.map((l) => [l.o.principalShare, l.o.interestShare])).toEqual(
      before.map((l) => [l.o.principalShare, l.o.interestShare]),
    );
  });

  it("a voluntary order's months sum exactly to what was paid (no truncation), in the history too", async () => {
    const fx = await contributorFixtures(t.database.db);
    const cui = newCui();
    const [c] = await t.database.db
      .insert(contributors)
      .values({
        cui,
        firstName: 'Ana',
        firstSurname: 'Voluntaria',
        searchName: 'ANA VOLUNTARIA',
        birthDate: '1980-01-01',
        sex: 'F',
        typeId: fx.typeId,
      })
      .returning();
    const periods = ['2026-01', '2026-02', '2026-03'];
    // 100.00 over three months: 33.34 + 33.33 + 33.33 (it was 33.33 each, a cent lost).
    const o = await insertOrder(systemContext(t.database.db), t.database.db, {
      kind: 'VOLUNTARIO',
      contributorId: c.id,
      period: periods[0],
      periods,
      salary: 500_000n,
      principal: 10_000n,
      dueDate: today,
    });
    const p = await req('POST', '/api/payments', {
      idempotencyKey: key(),
      orderIds: [o.id],
      bank: 'Banrural',
      payDate: today,
      bankReference: key(),
      amount: '100.00',
      office: OFFICE,
    });
    expect(p.statusCode, p.body).toBe(201);
    const paid = await paidMonths(t.database.db, cui);
    const months = periods.map((m) => paid.voluntary.get(m)!);
    expect(months.map((m) => m.amount)).toEqual(allocate(10_000n, 3).map(centsToDecimal));
    expect(sum(months.map((m) => decimalToCents(m.amount)))).toBe(10_000n);
    const h = await req('GET', `/api/contribution-history/contributor?cui=${cui}`);
    expect(h.statusCode, h.body).toBe(200);
    const shown = (h.json().months as { period: string; employeeAmount: string; employerAmount: string }[]).filter((m) =>
      periods.includes(m.period),
    );
    expect(shown).toHaveLength(3);
    expect(sum(shown.map((m) => decimalToCents(m.employeeAmount) + decimalToCents(m.employerAmount)))).toBe(10_000n);
  });
});
