import { openBenchDatabase } from './lib.mjs';

const n = Number(process.argv[2] ?? 100_000);
const { guatemalaToday, periodOf, addDays } = await import('@aporta/domain');
const { buildApp } = await import('../apps/api/src/app.ts');
const { loadConfig } = await import('../apps/api/src/config.ts');
const schema = await import('../apps/api/src/db/schema/index.ts');
const { hashPassword } = await import('../apps/api/src/platform/passwords.ts');
const { systemContext } = await import('../apps/api/src/platform/context.ts');
const { suspendOverdue } = await import('../apps/api/src/modules/pensions/survival-suspension.ts');
const { renapSweep } = await import('../apps/api/src/modules/pensions/deaths.ts');
const { renapAdapterFor } = await import('../apps/api/src/modules/renap/adapter.ts');
const { eq, sql } = await import('drizzle-orm');

let peak = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 50);
const mb = (b) => `${(b / 1024 / 1024).toFixed(0)} MB`;
const say = (s) => process.stdout.write(`${s}\n`);
const over = [];
const time = async (label, fn, budget) => {
  const t0 = performance.now();
  const out = await fn();
  const s = (performance.now() - t0) / 1000;
  say(`${label.padEnd(52)} ${s.toFixed(2)} s${budget ? ` (≤ ${budget} s)` : ''}   (RSS pico ${mb(peak)})`);
  if (budget && s > budget) over.push(`${label}: ${s.toFixed(2)} s > ${budget} s`);
  return out;
};

const { database, dispose } = await openBenchDatabase();
const db = database.db;
const today = guatemalaToday();
const period = periodOf(today);

// ─── Data: one entity and contributor (the foreign keys), N RENAP people and N pensions ────────────
await time(`preparar ${n} pensiones y personas RENAP`, async () => {
  const [mun] = await db.select().from(schema.municipalities).where(eq(schema.municipalities.code, '0101'));
  const [cls] = await db.insert(schema.classifications).values({ code: 'MUNI', name: 'Municipalidad' }).returning();
  const [entity] = await db
    .insert(schema.municipalEntities)
    .values({ code: 'E-0101', name: 'Municipalidad de Guatemala', classificationId: cls.id, municipalityId: mun.id })
    .returning();
  const [type] = await db.select().from(schema.contributorTypes).limit(1);
  const [c] = await db
    .insert(schema.contributors)
    .values({
      cui: '1000000000101',
      firstName: 'Bench',
      firstSurname: 'Pensiones',
      birthDate: '1950-01-01',
      sex: 'M',
      typeId: type.id,
      entityId: entity.id,
    })
    .returning();
  const [sys] = await db.select().from(schema.institutions).where(eq(schema.institutions.code, 'SISTEMA'));
  const [u] = await db
    .insert(schema.users)
    .values({ email: 'bench@aporta.local', passwordHash: await hashPassword('Bench-Clave-2026') })
    .returning();
  await db.insert(schema.userInstitutions).values({ userId: u.id, institutionId: sys.id });
  // CUIs as 13-digit text (not checked here); birthdays over the year; due dates from 90 days ago to 275 ahead,
  // so about one in twelve is beyond window and grace today.
  await db.execute(sql`
    insert into renap_people (cui, first_name, first_surname, birth_date, sex, death_date)
    select lpad((2000000000000 + i)::text, 13, '0'), 'Persona', 'Pensionada ' || i, date '1945-01-01' + (i % 12000), 'F',
           case when i % 2000 = 0 then ${addDays(today, -20)}::date else null end
      from generate_series(1, ${n}) i`);
  await db.execute(sql`
    insert into pensions (contributor_id, cui, full_name, birth_date, type, resolution_number, resolution_date, start_date,
                          monthly_amount, bank_account, state, entity_id, survival_due, last_check_date)
    select ${c.id}, lpad((2000000000000 + i)::text, 13, '0'), 'Persona Pensionada ' || i, date '1945-01-01' + (i % 12000),
           (array['JUBILACION','INVALIDEZ','VIUDEZ','ORFANDAD'])[1 + i % 4], 'RES-' || i, date '2015-01-10', date '2015-02-01',
           2000 + (i % 700) + (i % 100) / 100.0, '301-' || lpad(i::text, 9, '0') || '-0', 'ACTIVA', ${entity.id},
           ${addDays(today, -90)}::date + (i % 365), ${addDays(today, -400)}::date
      from generate_series(1, ${n}) i`);
  await db.execute(sql`
    insert into pension_amounts (pension_id, monthly_amount, effective_from, reason, created_by_email)
    select id, monthly_amount, start_date, 'Monto inicial', 'bench' from pensions`);
  await db.execute(sql`analyze`);
});

const config = { ...loadConfig({ NODE_ENV: 'test', LOGIN_RATE_PER_MINUTE: '1000' }), webDist: '' };
const app = await buildApp({ config, database, startJobs: false });
await app.ready();
const token = (
  await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'bench@aporta.local', password: 'Bench-Clave-2026' },
  })
).json().token;
const auth = { authorization: `Bearer ${token}` };
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

clearInterval(sampler);
await app.close();
await dispose();
if (over.length) {
  say(`\nFuera de presupuesto:\n  ${over.join('\n  ')}`);
  process.exit(1);
}
