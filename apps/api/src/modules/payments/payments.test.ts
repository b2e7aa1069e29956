import {
  addDays,
  decimalToCents,
  type Grant,
  guatemalaToday,
  interestBetween,
  isValidPaymentReference,
  paymentReference,
  periodOf,
  previousPeriod,
} from '@aporta/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banks, contributors, paymentOrders, payments, receipts, settingValues } from '../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { attachUserToEntity, contributorFixtures, newCui } from '../contributors/fixtures.ts';

let t: TestApp;
let admin: TestUser;
let reviewer: TestUser;
let operator: TestUser;
let cashierB: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;

const today = guatemalaToday();
const last = previousPeriod(periodOf(today));
const g = (scope: Grant['scope'], entries: [Grant['resource'], Grant['action'][]][]): Grant[] =>
  entries.flatMap(([resource, actions]) => actions.map((action) => ({ resource, action, scope })));

let keyN = 0;
const key = () => `k-${Date.now()}-${++keyN}`;
const OFFICE = 'CENTRAL';

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  admin = await t.createUser({ system: true });
  reviewer = await t.createUser({ system: true });
  fx = await contributorFixtures(db);
  operator = await t.createUser({
    grants: g('ENTITY', [
      ['payment-orders', ['READ']],
      ['planilla-payments', ['READ', 'CREATE']],
      ['receipts-7b', ['READ']],
    ]),
  });
  await attachUserToEntity(db, operator.id, fx.entityA.id);
  cashierB = await t.createUser({ grants: g('ENTITY', [['planilla-payments', ['READ', 'CREATE']]]) });
  await attachUserToEntity(db, cashierB.id, fx.entityB.id);
  await t.app.jobs.start();
});
afterAll(() => t.close());

const req = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.request({ method, url, token, ...(payload === undefined ? {} : { payload: payload as object }) });

/** An approved planilla of `entityId` for `period` with one line of `salary`, through the API. */
async function approvedPlanilla(entityId: number, period: string, salary = '10000.00') {
  const p = await req(admin.token, 'POST', '/api/planillas', { entityId, period });
  expect(p.statusCode, p.body).toBe(201);
  const id = p.json().id;
  expect(
    (
      await req(admin.token, 'POST', `/api/planillas/${id}/lines`, {
        cui: newCui(),
        fullName: 'Ana López',
        budgetLine: '011',
        salary,
      })
    ).statusCode,
  ).toBe(201);
  // Submitting is a job (ENVIANDO while it recalculates): wait until it has sent the planilla.
  const sent = await req(admin.token, 'POST', `/api/planillas/${id}/transitions`, { to: 'ENVIANDO' });
  expect(sent.statusCode, sent.body).toBe(200);
  for (let tries = 0; (await req(admin.token, 'GET', `/api/planillas/${id}`)).json().state !== 'ENVIADA'; tries++) {
    expect(tries, 'the submit job did not send the planilla').toBeLessThan(1200);
    await new Promise((r) => setTimeout(r, 50));
  }
  for (const [token, to] of [
    [reviewer.token, 'EN_REVISION'],
    [reviewer.token, 'APROBADA'],
  ] as const) {
    const r = await req(token, 'POST', `/api/planillas/${id}/transitions`, { to });
    expect(r.statusCode, r.body).toBe(200);
  }
  return id as number;
}

/** Moves the orders' due date `days` ahead of today (the clock may be past the real due date). */
async function dueIn(planillaId: number, days = 10) {
  const due = addDays(today, days);
  await t.database.db.update(paymentOrders).set({ dueDate: due, accruedTo: due }).where(eq(paymentOrders.planillaId, planillaId));
}

async function ordersOf(planillaId: number) {
  return t.database.db.select().from(paymentOrders).where(eq(paymentOrders.planillaId, planillaId)).orderBy(paymentOrders.kind);
}

/** A payment body for `orderIds`. */
const pay = (orderIds: number[], amount: string, over: Record<string, unknown> = {}) => ({
  idempotencyKey: key(),
  orderIds,
  bank: 'Banrural',
  payDate: today,
  bankReference: `BR-${key()}`,
  amount,
  office: OFFICE,
  ...over,
});

describe('ranges of 7-B forms', () => {
  it('registers a range; refuses an overlap in the same series (409), last < first (400), a future authorisation (400)', async () => {
    const ok = await req(admin.token, 'POST', '/api/receipt-ranges', {
      office: OFFICE,
      series: 'A',
      firstNumber: 1001,
      lastNumber: 1500,
      authorizationRef: 'CGC-2026-001',
      authorizationDate: '2026-01-05',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ nextNumber: 1001, remaining: 500, used: 0, state: 'ACTIVO', runningOut: false });
    const overlap = await req(admin.token, 'POST', '/api/receipt-ranges', {
      office: 'NORTE',
      series: 'A',
      firstNumber: 1400,
      lastNumber: 1600,
      authorizationRef: 'CGC-2026-002',
      authorizationDate: '2026-01-05',
    });
    expect(overlap.statusCode).toBe(409);
    expect(overlap.json().error.message).toContain('se superpone');
    const inverted = await req(admin.token, 'POST', '/api/receipt-ranges', {
      office: OFFICE,
      series: 'B',
      firstNumber: 10,
      lastNumber: 5,
      authorizationRef: 'X',
      authorizationDate: '2026-01-05',
    });
    expect(inverted.statusCode).toBe(400);
    expect(JSON.stringify(inverted.json())).toContain('número final');
    const future = await req(admin.token, 'POST', '/api/receipt-ranges', {
      office: OFFICE,
      series: 'C',
      firstNumber: 1,
      lastNumber: 5,
      authorizationRef: 'X',
      authorizationDate: addDays(today, 3),
    });
    expect(future.statusCode).toBe(400);
  });
});

describe('orders issued by approval, paid in parts, receipts in order', () => {
  let planillaId: number;
  let laboral: typeof paymentOrders.$inferSelect;
  let patronal: typeof paymentOrders.$inferSelect;

  it('approving a planilla issues its two orders with a valid reference, a due date and a PDF with the reference', async () => {
    planillaId = await approvedPlanilla(fx.entityA.id, last);
    const orders = await ordersOf(planillaId);
    expect(orders.map((o) => o.kind)).toEqual(['LABORAL', 'PATRONAL']);
    [laboral, patronal] = orders;
    expect(laboral.principal).toBe(70_000n); // 7 % of Q 10,000.00
    for (const o of orders) {
      expect(isValidPaymentReference(o.reference)).toBe(true);
      expect(o.dueDate > `${last}-28`).toBe(true);
      expect(o.accruedTo).toBe(o.dueDate);
    }
    await dueIn(planillaId);
    [laboral, patronal] = await ordersOf(planillaId);
    const list = await req(operator.token, 'GET', `/api/payment-orders?entityId=${fx.entityA.id}`);
    expect(list.statusCode).toBe(200);
    expect(
      list
        .json()
        .items.map((o: { id: number }) => o.id)
        .sort(),
    ).toEqual(orders.map((o) => o.id).sort());
    const one = await req(operator.token, 'GET', `/api/payment-orders/${laboral.id}`);
    expect(one.json()).toMatchObject({
      state: 'EMITIDA',
      principal: '700.00',
      interestDue: '0.00',
      balance: '700.00',
      transitions: [],
    });
    const pdf = await req(operator.token, 'GET', `/api/payment-orders/${laboral.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // Another entity's cashier does not see it.
    expect((await req(cashierB.token, 'POST', '/api/payments', pay([laboral.id], '1.00'))).statusCode).toBe(404);
  });

  it('refuses bad payments with a Spanish message, saving nothing', async () => {
    const before = (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(payments))[0].n;
    const cases: [Record<string, unknown>, number, string][] = [
      [pay([laboral.id], '700.01'), 400, 'excede el saldo'],
      [pay([laboral.id], '0'), 400, 'mayor que cero'],
      [pay([laboral.id], '-5'), 400, 'negativo'],
      [pay([laboral.id], '10', { payDate: addDays(today, 2) }), 400, 'futura'],
      [pay([laboral.id], '10', { payDate: '2000-01-01' }), 400, 'anterior a la emisión'],
      [pay([laboral.id], '10', { office: 'SUR' }), 409, 'rango de recibos'],
      [pay([laboral.id, laboral.id], '10'), 400, 'repetidas'],
      [pay([laboral.id], 'diez'), 400, 'no es un número'],
      [{ ...pay([laboral.id], '10'), extra: 1 }, 400, ''],
    ];
    for (const [body, status, text] of cases) {
      const r = await req(admin.token, 'POST', '/api/payments', body);
      expect(r.statusCode, `${JSON.stringify(body)} → ${r.body}`).toBe(status);
      expect(JSON.stringify(r.json())).toContain(text);
    }
    const after = (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(payments))[0].n;
    expect(after).toBe(before);
  });

  let firstReceipt: number;
  it('a partial payment leaves the rest due; the rest pays it off; two consecutive receipts', async () => {
    const a = await req(operator.token, 'POST', '/api/payments', pay([laboral.id], '300.00'));
    expect(a.statusCode, a.body).toBe(201);
    expect(a.json().replayed).toBe(false);
    firstReceipt = a.json().payment.receipt.number;
    expect(a.json().payment.allocations).toEqual([
      expect.objectContaining({ orderId: laboral.id, interest: '0.00', principal: '300.00' }),
    ]);
    const mid = (await req(operator.token, 'GET', `/api/payment-orders/${laboral.id}`)).json();
    // Partly paid before its due date: its own state; the statement adds up (no interest yet).
    expect(mid).toMatchObject({
      state: 'PAGADA_PARCIAL',
      principal: '700.00',
      interestAccrued: '0.00',
      principalPaid: '300.00',
      interestPaid: '0.00',
      paid: '300.00',
      principalDue: '400.00',
      interestDue: '0.00',
      balance: '400.00',
    });
    // The list filters by it, and EMITIDA no longer lists it.
    const partial = (
      await req(operator.token, 'GET', `/api/payment-orders?entityId=${laboral.entityId}&state=PAGADA_PARCIAL`)
    ).json();
    expect(partial.items.map((x: { id: number }) => x.id)).toContain(laboral.id);
    const issued = (await req(operator.token, 'GET', `/api/payment-orders?entityId=${laboral.entityId}&state=EMITIDA`)).json();
    expect(issued.items.map((x: { id: number }) => x.id)).not.toContain(laboral.id);
    const b = await req(operator.token, 'POST', '/api/payments', pay([laboral.id], '400.00'));
    expect(b.statusCode, b.body).toBe(201);
    expect(b.json().payment.receipt.number).toBe(firstReceipt + 1);
    expect((await req(operator.token, 'GET', `/api/payment-orders/${laboral.id}`)).json()).toMatchObject({
      state: 'PAGADA',
      balance: '0.00',
    });
    // A paid order admits no more payments.
    const again = await req(operator.token, 'POST', '/api/payments', pay([laboral.id], '1.00'));
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toContain('pagada');
  });

  it('a repeat (same key, or same bank reference) answers the first result and counts nothing twice', async () => {
    const body = pay([patronal.id], '100.00');
    const first = await req(operator.token, 'POST', '/api/payments', body);
    expect(first.statusCode).toBe(201);
    const same = await req(operator.token, 'POST', '/api/payments', body);
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().replayed).toBe(true);
    expect(same.json().payment).toEqual(first.json().payment);
    const sameRef = await req(operator.token, 'POST', '/api/payments', { ...body, idempotencyKey: key(), amount: '50.00' });
    expect(sameRef.json()).toMatchObject({ replayed: true, payment: { id: first.json().payment.id, amount: '100.00' } });
    expect((await req(operator.token, 'GET', `/api/payment-orders/${patronal.id}`)).json().paid).toBe('100.00');
    // The same key with another body is a client's mistake, never answered with the earlier payment: 409, nothing saved.
    for (const other of [
      { amount: '50.00' },
      { orderIds: [laboral.id] },
      { payDate: '2000-01-01' },
      { bank: 'INDUSTRIAL' },
      { bankReference: `BR-${key()}` },
    ]) {
      const mismatch = await req(operator.token, 'POST', '/api/payments', { ...body, ...other });
      expect(mismatch.statusCode, JSON.stringify(other)).toBe(409);
      expect(mismatch.json().error).toMatchObject({
        code: 'CONFLICT',
        message: expect.stringContaining('La clave de idempotencia ya se usó para un pago con otros datos'),
        key: 'payments.idempotencyKeyReusedWithOtherData',
        details: [
          {
            path: 'idempotencyKey',
            message: 'Clave ya usada con otros datos.',
            key: 'payments.idempotencyKeyReusedWithOtherDataField',
          },
        ],
      });
    }
    expect((await req(operator.token, 'GET', `/api/payment-orders/${patronal.id}`)).json().paid).toBe('100.00');
  });

  it('paying both orders marks the planilla PAGADA and the month paid in the histories', async () => {
    const r = await req(operator.token, 'POST', '/api/payments', pay([patronal.id], '600.00'));
    expect(r.statusCode, r.body).toBe(201);
    const p = (await req(admin.token, 'GET', `/api/planillas/${planillaId}`)).json();
    expect(p.state).toBe('PAGADA');
    const hist = await req(admin.token, 'GET', `/api/contribution-history/entity?entityId=${fx.entityA.id}`);
    expect(hist.statusCode).toBe(200);
    expect(hist.json().months.find((m: { period: string }) => m.period === last)?.paid).toBe(true);
  });

  it('reversing a payment voids its receipt (number kept) and restores the balance; only the latest payment of an order', async () => {
    const list = (await req(admin.token, 'GET', `/api/payments?entityId=${fx.entityA.id}&sort=id`)).json().items as {
      id: number;
      allocations: { orderId: number }[];
    }[];
    const onLaboral = list.filter((x) => x.allocations.some((a) => a.orderId === laboral.id));
    const early = await req(admin.token, 'POST', `/api/payments/${onLaboral[0].id}/reverse`, { reason: 'Error' });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toContain('posteriores');
    expect((await req(admin.token, 'POST', `/api/payments/${onLaboral[1].id}/reverse`, { reason: '' })).statusCode).toBe(400);
    const rev = await req(admin.token, 'POST', `/api/payments/${onLaboral[1].id}/reverse`, { reason: 'Cheque rechazado' });
    expect(rev.statusCode, rev.body).toBe(200);
    expect(rev.json()).toMatchObject({ state: 'REVERTIDO', receipt: { state: 'ANULADO', number: firstReceipt + 1 } });
    // Back to partly paid: the first payment (300.00) stands.
    expect((await req(admin.token, 'GET', `/api/payment-orders/${laboral.id}`)).json()).toMatchObject({
      state: 'PAGADA_PARCIAL',
      paid: '300.00',
      balance: '400.00',
    });
    expect((await req(admin.token, 'GET', `/api/planillas/${planillaId}`)).json().state).toBe('APROBADA');
    expect((await req(admin.token, 'POST', `/api/payments/${onLaboral[1].id}/reverse`, { reason: 'otra vez' })).statusCode).toBe(
      409,
    );
  });

  it('voids a receipt with a reason (never without), reissues the next number, and the corte de formas shows it', async () => {
    const rec = (await t.database.db.select().from(receipts).where(eq(receipts.number, firstReceipt)))[0];
    expect((await req(admin.token, 'POST', `/api/receipts/${rec.id}/void`, {})).statusCode).toBe(400);
    const v = await req(admin.token, 'POST', `/api/receipts/${rec.id}/void`, { reason: 'Forma dañada' });
    expect(v.statusCode, v.body).toBe(200);
    expect(v.json()).toMatchObject({ state: 'ANULADO', number: firstReceipt, voidReason: 'Forma dañada' });
    const re = await req(admin.token, 'POST', `/api/payments/${rec.paymentId}/receipt`);
    expect(re.statusCode, re.body).toBe(200);
    expect(re.json().receipt.state).toBe('EMITIDO');
    expect(re.json().receipt.number).toBeGreaterThan(firstReceipt);
    const corte = await req(admin.token, 'GET', `/api/receipt-ranges/corte?rangeId=${rec.rangeId}`);
    expect(corte.statusCode).toBe(200);
    expect(corte.json()).toMatchObject({ voided: 2, firstNumber: 1001 });
    expect(corte.json().voidedNumbers.map((x: { number: number }) => x.number)).toContain(firstReceipt);
    expect(corte.json().used + corte.json().voided + corte.json().remaining).toBe(500);
    const pdf = await req(admin.token, 'GET', `/api/receipt-ranges/corte/export?rangeId=${rec.rangeId}&format=pdf`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const xlsx = await req(admin.token, 'GET', `/api/receipt-ranges/corte/export?rangeId=${rec.rangeId}&format=xlsx`);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const rpdf = await req(admin.token, 'GET', `/api/receipts/${rec.id}/pdf`);
    expect(rpdf.statusCode).toBe(200);
  });
});

describe('interest as of a date', () => {
  it('accrues from the day after the due date at the rate in force each day; a payment covers interest first', async () => {
    const db = t.database.db;
    const pid = await approvedPlanilla(fx.entityB.id, previousPeriod(last));
    const [o] = await ordersOf(pid);
    // Make it overdue: issued 100 days ago, due 90 days ago.
    const due = addDays(today, -90);
    await db
      .update(paymentOrders)
      .set({ issueDate: addDays(today, -100), dueDate: due, accruedTo: due })
      .where(eq(paymentOrders.id, o.id));
    // The rate rises to 24 % 30 days ago (effective-dated).
    const change = addDays(today, -30);
    await db.insert(settingValues).values({
      key: 'paymentOrders.annualInterestRate',
      value: '24.0000',
      effectiveFrom: change,
      reason: 'prueba',
      retroactive: true,
    });
    const rates = [
      { from: '2000-01-01', rate: '12.0000' },
      { from: change, rate: '24.0000' },
    ];
    const expected = interestBetween(o.principal, due, today, rates);
    expect(expected).toBeGreaterThan(0n);
    const got = (await req(admin.token, 'GET', `/api/payment-orders/${o.id}?asOf=${today}`)).json();
    expect(got.state).toBe('VENCIDA');
    expect(got.overdueDays).toBe(90);
    expect(got.interestDue).toBe((Number(expected) / 100).toFixed(2));
    const mid = addDays(today, -45);
    const earlier = (await req(admin.token, 'GET', `/api/payment-orders/${o.id}?asOf=${mid}`)).json();
    expect(earlier.interestDue).toBe((Number(interestBetween(o.principal, due, mid, rates)) / 100).toFixed(2));
    // The list, the totals and the single order agree.
    const list = (
      await req(admin.token, 'GET', `/api/payment-orders?entityId=${fx.entityB.id}&state=VENCIDA&minOverdueDays=60`)
    ).json();
    expect(list.items.find((x: { id: number }) => x.id === o.id)?.interestDue).toBe(got.interestDue);
    const totals = (
      await req(
        admin.token,
        'GET',
        `/api/payment-orders/totals?entityId=${fx.entityB.id}&state=VENCIDA&kind=LABORAL&period=${o.period}`,
      )
    ).json();
    expect(totals.interestDue).toBe(got.interestDue);
    // Pay 10.00: all of it goes to interest first.
    const r = await req(admin.token, 'POST', '/api/payments', pay([o.id], '10.00'));
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().payment.allocations[0]).toMatchObject({ interest: '10.00', principal: '0.00' });
    // After it, the order's statement shows the interest paid and still adds up to the cent.
    const after = (await req(admin.token, 'GET', `/api/payment-orders/${o.id}?asOf=${today}`)).json();
    const c = (v: string) => decimalToCents(v);
    expect(after).toMatchObject({ state: 'VENCIDA', interestPaid: '10.00', principalPaid: '0.00', paid: '10.00' });
    expect(c(after.interestAccrued)).toBe(expected);
    expect(c(after.interestDue)).toBe(expected - 1000n);
    expect(c(after.principalDue)).toBe(o.principal);
    expect(c(after.principal) + c(after.interestAccrued) - c(after.principalPaid) - c(after.interestPaid)).toBe(c(after.balance));
    expect(c(after.principalDue) + c(after.interestDue)).toBe(c(after.balance));
    const sums = (
      await req(admin.token, 'GET', `/api/payment-orders/totals?entityId=${fx.entityB.id}&kind=LABORAL&period=${o.period}`)
    ).json();
    expect(sums).toMatchObject({ interestAccrued: after.interestAccrued, paid: '10.00', balance: after.balance });
    expect(c(sums.principal) + c(sums.interestAccrued) - c(sums.paid)).toBe(c(sums.balance));
    await db.delete(settingValues).where(sql`key = 'paymentOrders.annualInterestRate' and effective_from = ${change}`);
  });
});

/** The seeded «Bancos» catalogue's Banrural (a bank file names a bank of the catalogue). */
async function banrural() {
  const [b] = await t.database.db.select().from(banks).where(eq(banks.code, 'BANRURAL'));
  return b;
}

describe('bank file', () => {
  it('matches by reference, lists unmatched and mismatched rows, refuses duplicates in the file, and a person resolves a row', async () => {
    const bank = await banrural();
    const pid = await approvedPlanilla(fx.entityA.id, previousPeriod(previousPeriod(last)));
    await dueIn(pid);
    const [lab, pat] = await ordersOf(pid);
    const unknown = paymentReference({ ownerId: 9_999_999, period: '2026-01', kind: 'LABORAL', sequence: 1 });
    const csv = [
      'fecha,referencia,monto',
      `${today},${lab.reference},700.00`,
      `${today},${unknown},700.00`,
      `${today},${pat.reference},5.00`,
    ].join('\n');
    const r = await req(admin.token, 'POST', '/api/bank-files', {
      bankId: bank.id,
      office: OFFICE,
      content: csv,
      fileName: 'banrural.csv',
    });
    expect(r.statusCode, r.body).toBe(201);
    // The file names the catalogue's bank and keeps its name as of the import.
    expect(r.json()).toMatchObject({ bankId: bank.id, bank: bank.name, rows: 3, matched: 1, unmatched: 1, mismatched: 1 });
    const fileId = r.json().id;
    // The job registers the matched row's payment.
    const deadline = Date.now() + 30_000;
    while ((await ordersOf(pid))[0].state !== 'PAGADA' && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
    expect((await ordersOf(pid))[0].state).toBe('PAGADA');
    const pending = (await req(admin.token, 'GET', `/api/bank-files/${fileId}/rows?state=PENDIENTES`)).json().items;
    expect(pending.map((x: { state: string }) => x.state).sort()).toEqual(['MONTO_DIFERENTE', 'SIN_COINCIDENCIA']);
    const row = pending.find((x: { state: string }) => x.state === 'MONTO_DIFERENTE');
    const res = await req(admin.token, 'POST', `/api/bank-files/${fileId}/rows/${row.id}/resolve`, {
      decision: 'PAGAR',
      orderIds: [pat.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ state: 'RESUELTA', paymentId: expect.any(Number) });
    const other = pending.find((x: { state: string }) => x.state === 'SIN_COINCIDENCIA');
    expect(
      (await req(admin.token, 'POST', `/api/bank-files/${fileId}/rows/${other.id}/resolve`, { decision: 'DESCARTAR' }))
        .statusCode,
    ).toBe(400);
    const d = await req(admin.token, 'POST', `/api/bank-files/${fileId}/rows/${other.id}/resolve`, {
      decision: 'DESCARTAR',
      reason: 'Depósito de otra institución',
    });
    expect(d.json().state).toBe('DESCARTADA');
    // The same file again: nothing counts twice.
    const paymentsBefore = (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(payments))[0].n;
    const dup = await req(admin.token, 'POST', '/api/bank-files', {
      bankId: bank.id,
      office: OFFICE,
      content: `fecha,referencia,monto\n${today},${lab.reference},700.00\n${today},${lab.reference},700.00`,
      fileName: 'dup.csv',
    });
    expect(dup.json()).toMatchObject({ rows: 2, errors: 2, matched: 0 });
    const rows = (await req(admin.token, 'GET', `/api/bank-files/${dup.json().id}/rows`)).json().items;
    expect(rows[0].message).toContain('repetida');
    expect((await t.database.db.select({ n: sql<number>`count(*)::int` }).from(payments))[0].n).toBe(paymentsBefore);
    expect(
      (await req(admin.token, 'POST', '/api/bank-files', { bankId: bank.id, office: OFFICE, content: 'a,b\n1,2' })).statusCode,
    ).toBe(400);
    expect((await req(operator.token, 'GET', '/api/bank-files')).statusCode).toBe(403);
  });

  it('refuses a file without a bank, or naming an unknown or inactive one (400 on bankId); a file keeps the name it had; a bank in use is not deleted', async () => {
    const db = t.database.db;
    const [closed] = await db
      .insert(banks)
      .values({ code: 'CERRADO-PAGOS', name: 'Banco Cerrado, S. A.', isActive: false })
      .returning();
    const content = `fecha,referencia,monto\n${today},${paymentReference({ ownerId: 9_999_998, period: '2026-01', kind: 'LABORAL', sequence: 1 })},1.00`;
    for (const [body, message, key] of [
      [{ office: OFFICE, content }, 'Elija el banco.', 'payments.bankRequired'],
      [{ bank: 'Banrural', office: OFFICE, content }, null, null],
      [{ bankId: 0, office: OFFICE, content }, 'Elija el banco.', 'payments.bankRequired'],
      [{ bankId: 2_000_000_000, office: OFFICE, content }, 'El banco no existe o está inactivo.', 'payments.bankNotActive'],
      [{ bankId: closed.id, office: OFFICE, content }, 'El banco no existe o está inactivo.', 'payments.bankNotActive'],
    ] as const) {
      const r = await req(admin.token, 'POST', '/api/bank-files', body);
      expect(r.statusCode, r.body).toBe(400);
      const details: { path: string; message: string; key?: string }[] = r.json().error.details ?? [];
      if (message) expect(details, r.body).toContainEqual({ path: 'bankId', message, key });
      else
        expect(
          details.map((d) => d.path),
          r.body,
        ).toContain('bankId');
    }
    // Renamed after the import: the file keeps the name it was imported under.
    const [open] = await db.insert(banks).values({ code: 'RENOMBRADO-PAGOS', name: 'Banco Antiguo, S. A.' }).returning();
    const f = await req(admin.token, 'POST', '/api/bank-files', { bankId: open.id, office: OFFICE, content });
    expect(f.statusCode, f.body).toBe(201);
    await db.update(banks).set({ name: 'Banco Nuevo, S. A.' }).where(eq(banks.id, open.id));
    expect((await req(admin.token, 'GET', `/api/bank-files/${f.json().id}`)).json()).toMatchObject({
      bankId: open.id,
      bank: 'Banco Antiguo, S. A.',
    });
    // A bank a file names is not deleted from the catalogue: the refusal names the bank files.
    const del = await t.request({ method: 'DELETE', url: `/api/collections/banks/${open.id}`, token: admin.token });
    expect(del.statusCode, del.body).toBe(409);
    expect(del.json().error.message).toContain('1 registro de «Archivos bancarios»');
  });

  it('offers the active banks of the catalogue by name to whoever reads bank files, even without the catalogue', async () => {
    const db = t.database.db;
    const [inactive] = await db
      .insert(banks)
      .values({ code: 'INACTIVO-OPC', name: 'AAA Banco Inactivo', isActive: false })
      .returning();
    const treasurer = await t.createUser({ grants: g('ALL', [['planilla-payments', ['READ']]]) });
    expect((await req(treasurer.token, 'GET', '/api/collections/banks')).statusCode).toBe(403);
    const r = await req(treasurer.token, 'GET', '/api/bank-files/banks');
    expect(r.statusCode, r.body).toBe(200);
    const options: { id: number; code: string; name: string }[] = r.json();
    // Every active bank and only those, in the database's order of names.
    const active = await db
      .select({ id: banks.id, code: banks.code, name: banks.name })
      .from(banks)
      .where(eq(banks.isActive, true))
      .orderBy(banks.name, banks.id);
    expect(options).toEqual(active);
    expect(options.length).toBeGreaterThanOrEqual(16);
    expect(options.map((o) => o.id)).not.toContain(inactive.id);
    expect(options.find((o) => o.code === 'BANRURAL')).toMatchObject({ name: 'Banco de Desarrollo Rural, S. A.' });
    // Without the bank-file permission: no options.
    const stranger = await t.createUser({ grants: g('ALL', [['receipts-7b', ['READ']]]) });
    expect((await req(stranger.token, 'GET', '/api/bank-files/banks')).statusCode).toBe(403);
  });
});

describe('voluntary payments', () => {
  it('a contributor without employer pays both shares for chosen months; when paid, the months enter the history', async () => {
    const cui = newCui();
    const [c] = await t.database.db
      .insert(contributors)
      .values({
        cui,
        firstName: 'Pedro',
        firstSurname: 'Voluntario',
        searchName: 'PEDRO VOLUNTARIO',
        birthDate: '1980-01-01',
        sex: 'M',
        typeId: fx.typeId,
      })
      .returning();
    const low = await req(admin.token, 'POST', '/api/voluntary-payments', { cui, periods: [last], salary: '100.00' });
    expect(low.statusCode).toBe(400);
    expect(low.json().error.message).toContain('entre');
    // Keyed, with the raw limits (integer cents) the web formats in the user's language.
    expect(low.json().error).toMatchObject({
      key: 'payments.salaryOutOfLimits',
      params: { min: expect.stringMatching(/^\d+$/), max: expect.stringMatching(/^\d+$/) },
      details: [{ path: 'salary', key: 'payments.salaryOutOfLimitsField' }],
    });
    const r = await req(admin.token, 'POST', '/api/voluntary-payments', { cui, periods: [last], salary: '5000.00' });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json()).toMatchObject({ kind: 'VOLUNTARIO', contributorId: c.id, principal: '700.00', periods: [last] });
    expect(
      (await req(admin.token, 'POST', '/api/voluntary-payments', { cui, periods: [last], salary: '5000.00' })).statusCode,
    ).toBe(409);
    const p = await req(admin.token, 'POST', '/api/payments', pay([r.json().id], '700.00'));
    expect(p.statusCode, p.body).toBe(201);
    expect(p.json().payment.contributorId).toBe(c.id);
    const h = await req(admin.token, 'GET', `/api/contribution-history/contributor?cui=${cui}`);
    expect(h.statusCode).toBe(200);
    expect(h.json().months.find((m: { period: string }) => m.period === last)).toMatchObject({
      paid: true,
      entityName: 'Pago voluntario',
    });
  });
});

describe('statistics and home', () => {
  it('collection per month against declared, overdue by region; the overdue queue', async () => {
    const s = await req(admin.token, 'GET', '/api/statistics/collection');
    expect(s.statusCode, s.body).toBe(200);
    expect(s.json().months.length).toBeGreaterThan(0);
    const q = await req(admin.token, 'GET', '/api/home/queues');
    expect(q.statusCode).toBe(200);
    expect(JSON.stringify(q.json())).toContain('Órdenes de pago vencidas');
  });
});

describe('200 payments at once', () => {
  it('200 concurrent payments on 200 orders: 200 consecutive receipts, no gap or duplicate, no order paid twice; replayed, the same answers and nothing changes', async () => {
    const db = t.database.db;
    await req(admin.token, 'POST', '/api/receipt-ranges', {
      office: 'CONC',
      series: 'Z',
      firstNumber: 1,
      lastNumber: 100_000,
      authorizationRef: 'CGC-CONC',
      authorizationDate: '2026-01-05',
    });
    const orders = await db
      .insert(paymentOrders)
      .values(
        Array.from({ length: 200 }, (_, i) => ({
          kind: 'LABORAL' as const,
          entityId: fx.entityA.id,
          period: '2020-01',
          periods: ['2020-01'],
          reference: paymentReference({
            ownerId: fx.entityA.id,
            period: '2020-01',
            kind: 'LABORAL',
            sequence: (i % 999) + 1,
          }).replace(/^/, `${i}`),
          issueDate: today,
          dueDate: addDays(today, 30),
          accruedTo: addDays(today, 30),
          principal: 12_345n,
        })),
      )
      .returning({ id: paymentOrders.id });
    const bodies = orders.map((o, i) =>
      pay([o.id], '123.45', {
        office: 'CONC',
        idempotencyKey: `conc-${i}-${Date.now()}`,
        bankReference: `CONC-${i}-${Date.now()}`,
      }),
    );
    const first = await Promise.all(bodies.map((b) => req(admin.token, 'POST', '/api/payments', b)));
    expect(first.map((r) => r.statusCode)).toEqual(Array(200).fill(201));
    const numbers = first.map((r) => r.json().payment.receipt.number as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    const paidOrders = await db
      .select()
      .from(paymentOrders)
      .where(sql`id = any(${`{${orders.map((o) => o.id).join(',')}}`}::int[])`);
    expect(paidOrders.every((o) => o.state === 'PAGADA' && o.principalPaid === 12_345n)).toBe(true);
    const countBefore = (await db.select({ n: sql<number>`count(*)::int` }).from(receipts))[0].n;
    const again = await Promise.all(bodies.map((b) => req(admin.token, 'POST', '/api/payments', b)));
    expect(again.map((r) => r.statusCode)).toEqual(Array(200).fill(200));
    expect(again.map((r) => r.json().payment)).toEqual(first.map((r) => r.json().payment));
    expect((await db.select({ n: sql<number>`count(*)::int` }).from(receipts))[0].n).toBe(countBefore);
    process.stdout.write(
      `[concurrency] ${t.database.kind}: 200 payments, receipts ${numbers[0]}..${numbers[199]}, replay 200×200\n`,
    );
  }, 240_000);
});

describe('the bank of a payment', () => {
  it('is a bank of the catalogue: by id (the screen) or named by code or name; never free text; an old free-text row reads as it was', async () => {
    const db = t.database.db;
    const pid = await approvedPlanilla(fx.entityB.id, previousPeriod(previousPeriod(last)));
    await dueIn(pid);
    const [laboralB] = await ordersOf(pid);
    const bank = await banrural();
    const { bank: _named, ...noBank } = pay([laboralB.id], '10.00');
    // By id: the payment keeps the catalogue's id and its name.
    const byId = await req(admin.token, 'POST', '/api/payments', { ...noBank, bankId: bank.id });
    expect(byId.statusCode, byId.body).toBe(201);
    expect(byId.json().payment).toMatchObject({ bankId: bank.id, bank: bank.name });
    // Named by its code (an integration): the same bank, stored with the catalogue's name.
    const byCode = await req(admin.token, 'POST', '/api/payments', pay([laboralB.id], '10.00', { bank: 'banrural' }));
    expect(byCode.statusCode, byCode.body).toBe(201);
    expect(byCode.json().payment).toMatchObject({ bankId: bank.id, bank: bank.name });
    // None, an unknown id, free text or an inactive bank: 400 on bankId, nothing registered.
    const [closed] = await db
      .insert(banks)
      .values({ code: 'CERRADO-REGISTRO', name: 'Banco Cerrado de Registro, S. A.', isActive: false })
      .returning();
    for (const [body, key] of [
      [noBank, 'payments.bankRequired'],
      [{ ...noBank, bankId: 2_000_000_000 }, 'payments.bankNotActive'],
      [{ ...noBank, bank: 'Mi banco de confianza' }, 'payments.bankNotActive'],
      [{ ...noBank, bankId: closed.id }, 'payments.bankNotActive'],
    ] as const) {
      const r = await req(admin.token, 'POST', '/api/payments', {
        ...body,
        idempotencyKey: key_(),
        bankReference: `BR-${key_()}`,
      });
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json().error.details).toEqual([expect.objectContaining({ path: 'bankId', key })]);
    }
    expect((await req(admin.token, 'GET', `/api/payment-orders/${laboralB.id}`)).json().paid).toBe('20.00');
    // A payment registered before the catalogue (free text, no id) reads as it was registered.
    await db.update(payments).set({ bankId: null, bank: 'Banco de antes' }).where(eq(payments.id, byId.json().payment.id));
    expect((await req(admin.token, 'GET', `/api/payments/${byId.json().payment.id}`)).json()).toMatchObject({
      bankId: null,
      bank: 'Banco de antes',
    });
  });
});

const key_ = () => key();
