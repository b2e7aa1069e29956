import {
  addBenchUser,
  benchApp,
  benchEntity,
  loadApi,
  loadPensions,
  mb,
  openBenchDatabase,
  rssPeak,
  say,
  timer,
} from './lib.mjs';

const n = Number(process.argv[2] ?? 100_000);
const { guatemalaToday, periodOf } = await import('@aporta/domain');
// The API loads before the database, as it always has (loadApi in lib.mjs says why).
await loadApi();
const { systemContext } = await import('../apps/api/src/platform/context.ts');
const { suspendOverdue } = await import('../apps/api/src/modules/pensions/survival-suspension.ts');
const { renapSweep } = await import('../apps/api/src/modules/pensions/deaths.ts');
const { renapAdapterFor } = await import('../apps/api/src/modules/renap/adapter.ts');
const { sql } = await import('drizzle-orm');

const rss = rssPeak();
// A step over its budget (seconds) is written down: the bench then exits 1.
const over = [];
const time = async (label, fn, budget) => {
  const [out, s] = await timer({ note: () => `${budget ? ` (≤ ${budget} s)` : ''}   (RSS pico ${mb(rss.peak)})` })(label, fn);
  if (budget && s > budget) over.push(`${label}: ${s.toFixed(2)} s > ${budget} s`);
  return out;
};

const { database, dispose } = await openBenchDatabase();
const db = database.db;
const today = guatemalaToday();
const period = periodOf(today);

// ─── Data: one entity and contributor (the foreign keys), N RENAP people and N pensions ────────────
await time(`preparar ${n} pensiones y personas RENAP`, async () => {
  const { entity } = await benchEntity(db);
  await loadPensions(db, { n, today, entityId: entity.id });
  await addBenchUser(db);
  await db.execute(sql`analyze`);
});

const { app, config, headers: auth } = await benchApp(database, { addUser: false });
const ctx = systemContext(db);

// ─── 1. The daily suspension ─────────────────────────────────────────────────────────────────────
const suspended = await time(`1. suspensión diaria sobre ${n} pensiones`, () => suspendOverdue(ctx, today), 5);
say(`   suspendidas: ${suspended.suspended} (vencidas antes del ${suspended.cutoff})`);

// ─── 2. The payroll and its bank file ────────────────────────────────────────────────────────────
const payroll = await time(
  `2. planilla ${period} + archivo del banco`,
  async () => {
    const t0 = performance.now();
    const gen = await app.inject({ method: 'POST', url: `/api/pension-payrolls/${period}/generate`, headers: auth });
    if (gen.statusCode !== 200) throw new Error(`generate: ${gen.statusCode} ${gen.body}`);
    const t1 = performance.now();
    const file = await app.inject({ method: 'GET', url: `/api/pension-payrolls/${period}/bank-file`, headers: auth });
    if (file.statusCode !== 200) throw new Error(`bank-file: ${file.statusCode} ${file.body.slice(0, 300)}`);
    const split = `generar ${((t1 - t0) / 1000).toFixed(2)} s, csv ${((performance.now() - t1) / 1000).toFixed(2)} s`;
    return { ...gen.json(), split, csvBytes: file.rawPayload.length, csvLines: file.body.trim().split('\n').length - 1 };
  },
  10,
);
say(
  `   ${payroll.split}; líneas: ${payroll.lines}, total Q ${payroll.total}, csv ${mb(payroll.csvBytes)} con ${payroll.csvLines} filas`,
);

// ─── 3. RENAP ────────────────────────────────────────────────────────────────────────────────────
let reports = 0;
const renap = await time(
  `3. verificación RENAP de las pensiones abiertas`,
  () =>
    renapSweep(ctx, renapAdapterFor(config, db), async () => {
      reports += 1;
    }),
  30,
);
say(`   consultadas: ${renap.checked}, fallecidos: ${renap.deaths}, revisiones: ${renap.reviewsOpened}, avances: ${reports}`);

rss.stop();
await app.close();
await dispose();
if (over.length) {
  say(`\nFuera de presupuesto:\n  ${over.join('\n  ')}`);
  process.exit(1);
}
