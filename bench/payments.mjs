// Payments (issue 13) through the real app (buildApp + app.inject) on a fresh embedded database, or
// PostgreSQL with BENCH_DATABASE_URL:
//   1. 200 payments registered at once against 200 orders: receipts 1..200, no gap, no duplicate; the same
//      200 requests replayed answer the same and add nothing.
//   2. A 10 000-row bank file matched by reference (POST /api/bank-files answers with the counts).
//   3. The interest and balance of 100 000 open orders as of a date (the totals route: one statement).
//
//   node --import tsx bench/payments.mjs [orders=100000]
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/payments.mjs
import { addReceiptRange, benchApp, benchEntity, loadApi, openBenchDatabase, say, time } from './lib.mjs';

const ORDERS = Number(process.argv[2] ?? 100_000);
const { addDays, guatemalaToday, paymentReference } = await import('@aporta/domain');
// The API loads before the database, as it always has (loadApi in lib.mjs says why).
await loadApi();
const schema = await import('../apps/api/src/db/schema/index.ts');
const { sql } = await import('drizzle-orm');

const { database, dispose } = await openBenchDatabase();
const db = database.db;
const { entity } = await benchEntity(db);
await addReceiptRange(db);

const { app, headers } = await benchApp(database);
const today = guatemalaToday();

// Orders: one period per 999 (the reference's sequence has three digits), all open.
const periodOf = (i) => {
  const m = Math.floor(i / 999);
  return `${2000 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;
};
const orderRows = (from, n, dueDays) =>
  Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const due = addDays(today, dueDays - (i % 400));
    return {
      kind: 'LABORAL',
      entityId: entity.id,
      period: periodOf(i),
      periods: [periodOf(i)],
      reference: paymentReference({ ownerId: entity.id, period: periodOf(i), kind: 'LABORAL', sequence: (i % 999) + 1 }),
      issueDate: addDays(today, -500),
      dueDate: due,
      accruedTo: due,
      principal: BigInt(10_000 + (i % 5000) * 37),
    };
  });
await time(`${ORDERS} órdenes abiertas (inserción)`, async () => {
  for (let i = 0; i < ORDERS; i += 5000)
    await db.insert(schema.paymentOrders).values(orderRows(i, Math.min(5000, ORDERS - i), 0));
  await db.execute(sql`analyze payment_orders`);
});
// A rate change in the middle of the spans, so the interest crosses two rates.
await db.insert(schema.settingValues).values({
  key: 'paymentOrders.annualInterestRate',
  value: '18.0000',
  effectiveFrom: addDays(today, -100),
  reason: 'bench',
  retroactive: true,
});

// 1. 200 concurrent payments.
const firstIds = (
  await db.select({ id: schema.paymentOrders.id }).from(schema.paymentOrders).orderBy(schema.paymentOrders.id).limit(200)
).map((r) => r.id);
const balances = await Promise.all(
  firstIds.map((id) => app.inject({ method: 'GET', url: `/api/payment-orders/${id}`, headers }).then((r) => r.json().balance)),
);
const bodies = firstIds.map((id, i) => ({
  idempotencyKey: `bench-${i}-${process.pid}`,
  orderIds: [id],
  bank: 'Banrural',
  payDate: today,
  bankReference: `BENCH-${i}-${process.pid}`,
  amount: balances[i],
  office: 'CENTRAL',
}));
const [first] = await time('200 pagos a la vez', () =>
  Promise.all(bodies.map((payload) => app.inject({ method: 'POST', url: '/api/payments', headers, payload }))),
);
const numbers = first.map((r) => r.json().payment?.receipt?.number).sort((a, b) => a - b);
const consecutive = numbers.every((n, i) => n === i + 1);
say(
  `  estados ${[...new Set(first.map((r) => r.statusCode))].join(',')}; recibos ${numbers[0]}..${numbers[199]}; consecutivos sin hueco ni repetido: ${consecutive}`,
);
const [again] = await time('los mismos 200 repetidos', () =>
  Promise.all(bodies.map((payload) => app.inject({ method: 'POST', url: '/api/payments', headers, payload }))),
);
const same = again.every(
  (r, i) => r.statusCode === 200 && JSON.stringify(r.json().payment) === JSON.stringify(first[i].json().payment),
);
const [{ n: receiptsCount }] = await db.select({ n: sql`count(*)::int` }).from(schema.receipts);
say(`  mismas respuestas: ${same}; recibos en la base: ${receiptsCount}`);

// 2. A 10 000-row bank file: 9 000 references of open orders (at their principal: most are overdue, so their
//    balance carries interest and they come out as amount mismatches — the matching work is the same), 1 000 unknown.
const fileOrders = await db
  .select()
  .from(schema.paymentOrders)
  .where(sql`state = 'EMITIDA'`)
  .orderBy(schema.paymentOrders.id)
  .limit(9000);
const lines = ['fecha,referencia,monto'];
for (const o of fileOrders) lines.push(`${today},${o.reference},${(Number(o.principal) / 100).toFixed(2)}`);
for (let i = 0; lines.length < 10_001; i++)
  lines.push(
    `${today},${paymentReference({ ownerId: 9_999_999, period: periodOf(i), kind: 'PATRONAL', sequence: (i % 999) + 1 })},10.00`,
  );
const banks = (await app.inject({ method: 'GET', url: '/api/bank-files/banks', headers })).json();
const banrural = banks.find((b) => b.code === 'BANRURAL');
const [file] = await time('archivo bancario de 10 000 filas conciliado', () =>
  app.inject({
    method: 'POST',
    url: '/api/bank-files',
    headers,
    payload: { bankId: banrural.id, office: 'CENTRAL', content: lines.join('\n'), fileName: 'bench.csv' },
  }),
);
const f = file.json();
say(
  `  ${f.rows} filas: ${f.matched} conciliadas, ${f.unmatched} sin coincidencia, ${f.mismatched} con monto distinto, ${f.errors} con error`,
);

// 3. Interest and balance of every open order as of a date (one statement).
const asOf = addDays(today, 30);
const [totals] = await time(`intereses de ${ORDERS} órdenes abiertas al ${asOf}`, () =>
  app.inject({ method: 'GET', url: `/api/payment-orders/totals?state=VENCIDA&asOf=${asOf}`, headers }),
);
const tj = totals.json();
say(`  ${tj.count} órdenes vencidas: intereses Q ${tj.interestDue}, saldo Q ${tj.balance}`);
await time(`la misma consulta otra vez`, () =>
  app.inject({ method: 'GET', url: `/api/payment-orders/totals?asOf=${asOf}`, headers }),
);
await app.close();
await dispose();
