import { addDays, decimalToCents, guatemalaToday, interestBetween } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityRegions, paymentAgreements, regions, solvencyCertificates } from '../../db/schema/index.ts';
import { systemContext } from '../../platform/context.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { contributorFixtures } from '../contributors/fixtures.ts';
import { insertOrder, interestRates } from '../payments/orders.ts';

let t: TestApp;
let admin: TestUser;
const today = guatemalaToday();
const OFFICE = 'FINANZAS';
let n = 0;
const key = () => `fin-${Date.now()}-${++n}`;

const get = (url: string, token: string | null = admin.token) => t.request({ method: 'GET', url, ...(token ? { token } : {}) });
const post = (url: string, payload: object) => t.request({ method: 'POST', url, token: admin.token, payload });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  const r = await post('/api/receipt-ranges', {
    office: OFFICE,
    series: 'FN',
    firstNumber: 1,
    lastNumber: 500,
    authorizationRef: 'Res. finanzas',
    authorizationDate: '2024-01-02',
  });
  expect(r.statusCode, r.body).toBe(201);
});
afterAll(() => t.close());

/** An order of `entityId` due `daysAgo` days before today (its accrual starts at the due date). */
async function orderDue(entityId: number, daysAgo: number, principal: bigint, period = '2025-01') {
  const due = addDays(today, -daysAgo);
  return insertOrder(systemContext(t.database.db), t.database.db, {
    kind: 'LABORAL',
    entityId,
    period,
    principal,
    dueDate: due,
    issueDate: addDays(due, -20),
  });
}

describe('arrears ranking', () => {
  it('ranks entities by overdue principal plus interest, split in age buckets (1–30, 31–90, 91–180, > 180), by region; exports', async () => {
    const fx = await contributorFixtures(t.database.db);
    const [region] = await t.database.db
      .insert(regions)
      .values({ code: `R-FIN-${n++}`, name: 'Región financiera' })
      .returning();
    await t.database.db.insert(entityRegions).values({ entityId: fx.entityA.id, regionId: region.id });
    const days = [10, 30, 31, 200];
    for (const dd of days) await orderDue(fx.entityA.id, dd, 100_000n);
    await orderDue(fx.entityB.id, 5, 50_000n);
    // Not overdue: due today.
    await orderDue(fx.entityB.id, 0, 999_999n);
    const rates = await interestRates(t.database.db);
    const amt = (dd: number) => 100_000n + interestBetween(100_000n, addDays(today, -dd), today, rates);
    const r = await get(`/api/financial/arrears?regionId=${region.id}`);
    expect(r.statusCode, r.body).toBe(200);
    const [row] = r.json().items;
    expect(r.json().items).toHaveLength(1);
    expect(row).toMatchObject({ rank: 1, entityId: fx.entityA.id, regionName: 'Región financiera', orders: 4 });
    expect(decimalToCents(row.d1_30)).toBe(amt(10) + amt(30));
    expect(decimalToCents(row.d31_90)).toBe(amt(31));
    expect(decimalToCents(row.d91_180)).toBe(0n);
    expect(decimalToCents(row.d181)).toBe(amt(200));
    expect(decimalToCents(row.total)).toBe(amt(10) + amt(30) + amt(31) + amt(200));

    const all = (await get('/api/financial/arrears')).json().items as { entityId: number; total: string }[];
    const a = all.findIndex((x) => x.entityId === fx.entityA.id);
    const b = all.findIndex((x) => x.entityId === fx.entityB.id);
    expect(a).toBeLessThan(b);
    expect(decimalToCents(all[b].total)).toBe(50_000n + interestBetween(50_000n, addDays(today, -5), today, rates));
    for (let i = 1; i < all.length; i++) expect(decimalToCents(all[i - 1].total) >= decimalToCents(all[i].total)).toBe(true);

    const csv = await get(`/api/financial/arrears/export?format=csv&regionId=${region.id}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(fx.entityA.name);
    expect(csv.body).not.toContain(fx.entityB.name);
  });
});

describe('solvency certificate', () => {
  it('refuses an entity in arrears with the reason; issues one to an entity al día; its code verifies without a session; forged or expired says so', async () => {
    const fx = await contributorFixtures(t.database.db);
    await orderDue(fx.entityA.id, 40, 10_000n);
    const refused = await post('/api/financial/certificates', { entityId: fx.entityA.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/^La entidad tiene 1 orden vencida por Q [\d,.]+: no está al día\.$/);

    const ok = await post('/api/financial/certificates', { entityId: fx.entityB.id });
    expect(ok.statusCode, ok.body).toBe(201);
    const cert = ok.json();
    expect(cert).toMatchObject({ entityId: fx.entityB.id, status: 'VIGENTE', issuedOn: today, validUntil: addDays(today, 30) });
    expect(cert.code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    const pdf = await get(`/api/financial/certificates/${cert.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['x-certificate-code']).toBe(cert.code);

    const verified = await get(`/api/solvency/verify/${cert.code.toLowerCase()}`, null);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toEqual({
      code: cert.code,
      entityName: fx.entityB.name,
      entityCode: fx.entityB.code,
      issuedOn: today,
      validUntil: addDays(today, 30),
      status: 'VIGENTE',
      statusReason: null,
    });

    const forged = await get(`/api/solvency/verify/${cert.code.replace(/^./, (c: string) => (c === 'A' ? 'B' : 'A'))}`, null);
    expect(forged.statusCode).toBe(404);
    expect(forged.json().error.message).toBe('No existe ninguna constancia de solvencia con ese código.');
    expect(forged.body).not.toContain(fx.entityB.name);
    expect((await get('/api/solvency/verify/nada', null)).statusCode).toBe(404);

    await t.database.db
      .update(solvencyCertificates)
      .set({ validUntil: addDays(today, -1) })
      .where(eq(solvencyCertificates.id, cert.id));
    expect((await get(`/api/solvency/verify/${cert.code}`, null)).json().status).toBe('VENCIDA');
    const list = await get(`/api/financial/certificates?entityId=${fx.entityB.id}`);
    expect(list.json().items[0]).toMatchObject({ id: cert.id, status: 'VENCIDA' });
  });

  it('an entity with a current agreement and no overdue instalment is al día', async () => {
    const fx = await contributorFixtures(t.database.db);
    await orderDue(fx.entityA.id, 60, 500_000n);
    const debt = (await get(`/api/payment-agreements/debt?entityId=${fx.entityA.id}`)).json();
    const ag = await post('/api/payment-agreements', {
      entityId: fx.entityA.id,
      downPayment: debt.minDownPayment,
      instalments: 3,
      firstDueDate: addDays(today, 30),
    });
    expect(ag.statusCode, ag.body).toBe(201);
    // The down payment falls due today (or the next business day): not overdue yet.
    const c = await post('/api/financial/certificates', { entityId: fx.entityA.id });
    expect(c.statusCode, c.body).toBe(201);
    expect(c.json().basis).toContain(ag.json().number);

    // The agreement it rests on falls into default: the certificate no longer verifies as VIGENTE.
    await t.database.db
      .update(paymentAgreements)
      .set({ state: 'INCUMPLIDO', defaultedOn: today })
      .where(eq(paymentAgreements.id, ag.json().id));
    const verified = (await get(`/api/solvency/verify/${c.json().code}`, null)).json();
    expect(verified).toMatchObject({ status: 'SIN_EFECTO' });
    expect(verified.statusReason).toContain(`El convenio de pago ${ag.json().number} en que se basa fue declarado incumplido`);
    const listed = (await get(`/api/financial/certificates?entityId=${fx.entityA.id}`)).json().items[0];
    expect(listed).toMatchObject({ id: c.json().id, status: 'SIN_EFECTO' });
    // Back in force, as the dashboard's test below counts it.
    await t.database.db
      .update(paymentAgreements)
      .set({ state: 'VIGENTE', defaultedOn: null })
      .where(eq(paymentAgreements.id, ag.json().id));
  });

  it('a certificate resting on a payment later reversed verifies as SIN_EFECTO, with the reason', async () => {
    const fx = await contributorFixtures(t.database.db);
    const order = await orderDue(fx.entityB.id, 45, 80_000n);
    const { balance } = (await get(`/api/payment-orders/${order.id}`)).json();
    const paid = await post('/api/payments', {
      idempotencyKey: key(),
      orderIds: [order.id],
      bank: 'Banrural',
      payDate: today,
      bankReference: `FN-${key()}`,
      amount: balance,
      office: OFFICE,
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const c = await post('/api/financial/certificates', { entityId: fx.entityB.id });
    expect(c.statusCode, c.body).toBe(201);
    expect((await get(`/api/solvency/verify/${c.json().code}`, null)).json()).toMatchObject({ status: 'VIGENTE' });

    const reversed = await post(`/api/payments/${paid.json().payment.id}/reverse`, { reason: 'Cheque rechazado por el banco' });
    expect(reversed.statusCode, reversed.body).toBe(200);
    const verified = (await get(`/api/solvency/verify/${c.json().code}`, null)).json();
    expect(verified).toMatchObject({ status: 'SIN_EFECTO' });
    expect(verified.statusReason).toContain('una orden vencida');
  });
});

describe('account statement', () => {
  it('per period declared, ordered, paid, interest, in agreement and balance; agreements with instalments; PDF and xlsx', async () => {
    const fx = await contributorFixtures(t.database.db);
    const e = fx.entityA.id;
    const o1 = await orderDue(e, 100, 200_000n, '2024-05');
    await orderDue(e, 70, 300_000n, '2024-06');
    const paid = await post('/api/payments', {
      idempotencyKey: key(),
      orderIds: [o1.id],
      bank: 'Banrural',
      payDate: today,
      bankReference: `FN-${key()}`,
      amount: '500.00',
      office: OFFICE,
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const r = await get(`/api/financial/statement?entityId=${e}`);
    expect(r.statusCode, r.body).toBe(200);
    const s = r.json();
    expect(s.periods.map((p: { period: string }) => p.period)).toEqual(['2024-05', '2024-06']);
    const may = s.periods[0];
    expect(may.ordered).toBe('2000.00');
    expect(may.paid).toBe('500.00');
    // Balance = principal − principal paid + interest still due; interest = paid + due.
    // The payment went to interest first, then principal: balance = 2000 − (500 − interest paid) + interest due
    // = 1500 + (interest paid + interest due) = 1500 + the period's interest.
    expect(decimalToCents(may.interest)).toBeGreaterThan(0n);
    expect(decimalToCents(may.balance)).toBe(150_000n + decimalToCents(may.interest));
    expect(s.solvent).toBe(false);
    expect(s.solvencyReason).toContain('2 órdenes vencidas');

    const debt = (await get(`/api/payment-agreements/debt?entityId=${e}`)).json();
    const ag = await post('/api/payment-agreements', {
      entityId: e,
      downPayment: debt.minDownPayment,
      instalments: 2,
      firstDueDate: addDays(today, 30),
    });
    expect(ag.statusCode, ag.body).toBe(201);
    const after = (await get(`/api/financial/statement?entityId=${e}`)).json();
    expect(after.agreements).toHaveLength(1);
    expect(after.agreements[0].instalments).toHaveLength(3);
    expect(after.periods[1].inAgreement).toBe('3000.00');
    expect(after.periods[1].balance).toBe('0.00');
    expect(after.solvent).toBe(true);

    const pdf = await get(`/api/financial/statement/export?entityId=${e}&format=pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const xlsx = await get(`/api/financial/statement/export?entityId=${e}&format=xlsx`);
    expect(xlsx.statusCode).toBe(200);
    expect(String(xlsx.headers['content-type'])).toContain('spreadsheetml');
  });
});

describe('collection dashboard', () => {
  it('collected per month with what came through agreements; agreements by state', async () => {
    const r = await get(`/api/financial/dashboard?from=${today.slice(0, 7)}&to=${today.slice(0, 7)}`);
    expect(r.statusCode, r.body).toBe(200);
    const dsh = r.json();
    expect(dsh.months).toHaveLength(1);
    expect(decimalToCents(dsh.months[0].collected)).toBeGreaterThan(0n);
    expect(dsh.agreements.find((a: { state: string }) => a.state === 'VIGENTE').count).toBeGreaterThanOrEqual(2);
    const bad = await get('/api/financial/dashboard?from=2026-05&to=2026-01');
    expect(bad.statusCode).toBe(400);
  });
});
