// A national month-end (issue 30) on PostgreSQL: N entities × M employees (400 × 2 500 = 1 000 000 planilla lines by
// default) go through the month the way the institution lives it, on the real server started in a child process
// (`main.ts serve`, its job worker on) and driven over HTTP by C concurrent clients:
//   1. every entity uploads its planilla file (csv); the server validates it (job) and the clerk confirms it (job)
//   2. every entity submits its planilla (job: re-validates and recalculates every line)
//   3. delegates take and approve every planilla; the approval issues its two payment orders (same transaction)
//   4. a bank file of 800 payments is imported and matched; the job registers the payments and issues receipts
//   5. the account statement of every entity, and the arrears ranking
//   6. the pension payroll of P pensions (default 100 000) is generated and its bank file read
// Each stage is timed (and the whole month), beside a floor: the same work as plain SQL on the same database
// (COPY for the data that comes in as files, one set-based statement per step), in a schema of its own.
// Before the month (not timed): entities, users, receipt range, the orders of the earlier months (a third unpaid)
// and P pensions with their RENAP people, loaded in SQL.
//
//   node --import tsx bench/month-end.mjs                              # 400 × 2 500, 100 000 pensions
//   nice node --import tsx bench/month-end.mjs --entities=8 --employees=250 --pensions=5000
//   options: --history=24 (months of earlier orders per entity, a third of them unpaid: the ranking's debt)
//            --clients=6 (concurrent HTTP clients) --jobs=2 (JOBS_CONCURRENCY of each server process) --bank=800
//            --poll=200 (ms between two status reads of a client waiting on a job, as a screen does)
//            --processes=2 (API_PROCESSES: server processes, one per core as config.ts advises on PostgreSQL)
//            --server-prof=<dir> (a .cpuprofile of each server process, written when it stops)
//            --keep (keep the database, its name printed) --reuse=<database> (a database an earlier --keep left
//            after its month: measures the read stage again — statements and ranking — beside its floor)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres (default)
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import {
  addBenchUser,
  addReceiptRange,
  checkout,
  httpLogin,
  loadPensions,
  monthlyOrders,
  parseArgs,
  pgDatabase,
  ROOT,
  say,
  spawnServer,
  stopServer,
  waitForServer,
} from './lib.mjs';

const args = parseArgs();
const ENTITIES = Number(args.entities ?? 400);
const EMPLOYEES = Number(args.employees ?? 2500);
const PENSIONS = Number(args.pensions ?? 100_000);
const CLIENTS = Number(args.clients ?? 6);
const JOBS = Number(args.jobs ?? 2);
const HISTORY = Number(args.history ?? 24);
const BANK_ROWS = Math.min(Number(args.bank ?? 800), ENTITIES * 2);
const PROCESSES = Number(args.processes ?? 2);
const POLL_MS = Number(args.poll ?? 200);
const SERVER_PROF = args['server-prof'] ? resolve(args['server-prof']) : null;
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REUSE = args.reuse ?? null;
if (REUSE && !/^aporta_month_\d+$/.test(REUSE)) throw new Error(`--reuse: «${REUSE}» no es una base de este bench`);
const KEEP = args.keep === 'true' || !!REUSE;

const { mod, apiRequire } = checkout(ROOT);
const pg = apiRequire('pg');
const { openDatabase } = await mod('apps/api/src/db/client.ts');
const { seedReference } = await mod('apps/api/src/seed/index.ts');
const schema = await mod('apps/api/src/db/schema/index.ts');
const { makeCui, periodOf, guatemalaToday, previousPeriod } = await mod('packages/domain/src/index.ts');
const { sql } = apiRequire('drizzle-orm');

const today = guatemalaToday();
const period = previousPeriod(periodOf(today));
const payrollPeriod = periodOf(today);
const dbName = REUSE ?? `aporta_month_${process.pid}`;
const tmp = mkdtempSync(join(tmpdir(), 'aporta-month-'));
const { admin, url } = await pgDatabase(ADMIN_URL, dbName, { create: !REUSE });
const database = await openDatabase({ url, poolSize: 4 });
const db = database.db;
let child;
const cleanup = async () => {
  await stopServer(child);
  await database.close().catch(() => {});
  if (KEEP) say(`base conservada: ${dbName} (--reuse=${dbName}; bórrela con DROP DATABASE ${dbName})`);
  else await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch((e) => say(`DROP: ${e.message}`));
  await admin.end();
  rmSync(tmp, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => cleanup().then(() => process.exit(130)));

// ---------------------------------------------------------------- measuring
const results = [];
const load = () => loadavg()[0].toFixed(1);
/** CPU seconds a process has used so far (user + system, from /proc; 0 once it is gone). */
const cpuOf = (pid) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
};
/** The server's processes: the one started and, with API_PROCESSES > 1, its cluster workers. */
const treeOf = (pid) => {
  const out = [pid];
  try {
    for (const c of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean))
      out.push(...treeOf(Number(c)));
  } catch {}
  return out;
};
const serverCpu = () => treeOf(child.pid).reduce((sum, pid) => sum + cpuOf(pid), 0);
/** CPU of the PostgreSQL backends serving this database (those alive at both ends of the stage). */
const pgPids = async () =>
  (await admin.query('select pid from pg_stat_activity where datname = $1', [dbName])).rows.map((r) => r.pid);
const pgCpu = (pids) => new Map(pids.map((pid) => [pid, cpuOf(pid)]));
/** Times a stage; a stage that fails is written down as such (with the error) and the month goes on. */
async function stage(label, fn) {
  const l0 = load();
  const c0 = serverCpu();
  const p0 = pgCpu(await pgPids());
  const t0 = performance.now();
  let note;
  let failed = false;
  try {
    note = await fn();
  } catch (e) {
    failed = true;
    note = `FALLÓ: ${e.message}`;
    process.exitCode = 1;
  }
  const s = (performance.now() - t0) / 1000;
  let pg = 0;
  for (const [pid, now] of pgCpu(await pgPids())) pg += now - (p0.get(pid) ?? now);
  const row = { label, s, floor: null, failed, load: `${l0}→${load()}`, cpu: serverCpu() - c0, pg, note };
  results.push(row);
  say(
    `${label.padEnd(58)} ${s.toFixed(2)} s   carga ${row.load}; CPU del servidor ${row.cpu.toFixed(1)} s, de PostgreSQL ${pg.toFixed(1)} s${note ? `\n   ${note}` : ''}`,
  );
  return row;
}
async function floor(row, fn) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const t0 = performance.now();
    await fn(c);
    row.floor = (performance.now() - t0) / 1000;
  } finally {
    await c.end();
  }
  say(`   piso ${row.floor.toFixed(2)} s → ${(row.s / row.floor).toFixed(2)}×`);
}

// ---------------------------------------------------------------- the lines (file and floor share them)
const renglones = ['011', '022', '031', '029'];
const lineOf = (e, i) => {
  const g = e * EMPLOYEES + i;
  return [
    makeCui(30_000_000 + g * 11, '0101'),
    `Empleado Municipal ${g}`,
    renglones[g % 4],
    (3000 + (g % 9000) + (g % 100) / 100).toFixed(2),
    '30',
  ];
};
const fileOf = (e) =>
  `\uFEFFCUI;NOMBRE;RENGLON;SALARIO;DIAS_LABORADOS\r\n${Array.from({ length: EMPLOYEES }, (_, i) => lineOf(e, i).join(';')).join('\r\n')}\r\n`;

// ---------------------------------------------------------------- the server and its clients
let origin;
let retries = 0;
const failures = [];
async function call(token, method, path, body) {
  for (let k = 0; ; k++) {
    const init = { method, headers: { authorization: `Bearer ${token}` } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers['content-type'] = 'application/json';
    }
    const r = await fetch(`${origin}${path}`, init);
    const text = await r.text();
    // A busy server answers 503 (heavy-request queue) or 429: the client waits and asks again, as the screen does.
    if ((r.status === 503 || r.status === 429) && k < 100) {
      retries += 1;
      await new Promise((ok) => setTimeout(ok, 500));
      continue;
    }
    if (r.status >= 500) failures.push(`${method} ${path}: ${r.status} ${text.slice(0, 300)}`);
    return { status: r.status, body: text, json: () => JSON.parse(text) };
  }
}
const expect = (r, status, what) => {
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.body.slice(0, 400)}`);
  return r.json();
};
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
/** Runs fn over the items with CLIENTS concurrent workers (fn gets the item, its index and the worker's number). */
async function pool(items, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CLIENTS, items.length) }, async (_, w) => {
      while (next < items.length) {
        const k = next++;
        await fn(items[k], k, w);
      }
    }),
  );
}

try {
  await run();
} finally {
  await cleanup();
}

async function run() {
  const t0 = performance.now();
  if (REUSE) await database.migrate();
  else await prepare();
  const entities = (await db.execute(sql`select id from municipal_entities where code like 'M-%' order by id`)).rows.map((r) =>
    Number(r.id),
  );
  say(
    `${REUSE ? 'base reutilizada' : 'preparación (entidades, usuarios, pensiones)'}: ${((performance.now() - t0) / 1000).toFixed(1)} s; ` +
      `${entities.length} entidades × ${EMPLOYEES} empleados (${HISTORY} meses de órdenes anteriores), ${PENSIONS} pensiones, ${CLIENTS} clientes, ${PROCESSES} procesos del servidor con ${JOBS} trabajos a la vez cada uno; período ${period}`,
  );

  ({ child, origin } = await spawnServer({
    root: ROOT,
    stdout: 'pipe',
    profDir: SERVER_PROF,
    env: { DATABASE_URL: url, API_PROCESSES: String(PROCESSES), DATA_DIR: join(tmp, 'db'), JOBS_CONCURRENCY: String(JOBS) },
  }));
  // The server's log (warnings and errors, one JSON line each) stays beside the run, for any 500 it answered.
  const logFile = join(tmpdir(), `aporta-month-${process.pid}.log`);
  child.stdout.pipe(createWriteStream(logFile));
  say(`registro del servidor: ${logFile}`);
  await waitForServer(origin, child);
  const login = (email) => httpLogin(origin, email);
  const clerk = await login('clerk@aporta.local');
  const clerks = REUSE ? [] : await Promise.all(Array.from({ length: CLIENTS }, (_, w) => login(`clerk-${w}@aporta.local`)));
  const delegate = await login('delegate@aporta.local');

  const tMonth = performance.now();
  if (REUSE) {
    await statements(entities, delegate);
  } else {
    await month(entities, clerk, clerks, delegate);
  }
  const total = results.reduce((a, r) => a + r.s, 0);
  const floors = results.filter((r) => r.floor != null);
  say(
    '\n| etapa | tiempo | piso | razón | CPU servidor | CPU PostgreSQL | carga (1 min) inicio → fin |\n| --- | --: | --: | --: | --: | --: | --- |',
  );
  for (const r of results)
    say(
      `| ${r.label}${r.failed ? ' (**falló**)' : ''} | ${r.s.toFixed(1)} s | ${r.floor == null ? '—' : `${r.floor.toFixed(1)} s`} | ${r.floor == null || r.failed ? '—' : `${(r.s / r.floor).toFixed(2)}×`} | ${r.cpu.toFixed(1)} s | ${r.pg.toFixed(1)} s | ${r.load} |`,
    );
  say(
    `| **el mes entero** | **${total.toFixed(1)} s (${(total / 60).toFixed(1)} min)** | ${floors.reduce((a, r) => a + r.floor, 0).toFixed(1)} s | | ${results.reduce((a, r) => a + r.cpu, 0).toFixed(1)} s | ${results.reduce((a, r) => a + r.pg, 0).toFixed(1)} s | |`,
  );
  say(
    `de principio a fin (con los pisos y la preparación del archivo bancario): ${((performance.now() - tMonth) / 1000).toFixed(1)} s`,
  );
  say(`reintentos por 503/429: ${retries}; respuestas 5xx: ${failures.length}`);
  for (const f of failures.slice(0, 10)) say(`  ${f}`);
  if (failures.length) process.exitCode = 1;
}

/** The country before the month: entities, a clerk and a delegate, the receipt range, the pensions. */
async function prepare() {
  await database.migrate();
  await seedReference(db);
  const munis = await db.select().from(schema.municipalities).orderBy(schema.municipalities.code);
  const [cls] = await db.insert(schema.classifications).values({ code: 'MUNI', name: 'Municipalidad' }).returning();
  const entityRows = Array.from({ length: ENTITIES }, (_, k) => {
    const m = munis[k % munis.length];
    return {
      code: `M-${String(k).padStart(4, '0')}`,
      name: `Municipalidad ${m.name} ${k}`,
      classificationId: cls.id,
      municipalityId: m.id,
    };
  });
  const entities = await db.insert(schema.municipalEntities).values(entityRows).returning();
  // A clerk per concurrent client (each client is a person at a desk), one for the bank file, and the delegate.
  const clerkEmails = Array.from({ length: CLIENTS }, (_, w) => `clerk-${w}@aporta.local`);
  for (const email of ['clerk@aporta.local', ...clerkEmails, 'delegate@aporta.local'])
    await addBenchUser(db, { email, root: ROOT });
  await addReceiptRange(db, { root: ROOT });
  // The pensions as bench/pensions.mjs loads them (RENAP people, 1 in 2 000 dead; survival due dates spread).
  await loadPensions(db, { n: PENSIONS, today, entityId: entities[0].id, entities: ENTITIES, root: ROOT });
  // The earlier months' orders (as bench/agreements.mjs writes them), a third of them unpaid: the statements'
  // periods and the ranking's debt. Their references only have to be unique: no bank pays them.
  if (HISTORY > 0)
    await db.execute(
      monthlyOrders(sql`e.code like 'M-%'`, HISTORY, sql`(${period} || '-01')::date - ${`${HISTORY} months`}::interval`, {
        root: ROOT,
      }),
    );
  await db.execute(sql`vacuum analyze`);
}

async function month(entities, clerk, clerks, delegate) {
  const planillaOf = new Map();
  // 1. Upload, validation and confirmation.
  const s1 = await stage(`1. ${entities.length} entidades cargan, validan y confirman su planilla`, async () => {
    const phase = { upload: 0, validate: 0, commit: 0 };
    await pool(entities, async (entityId, k, w) => {
      const clerk = clerks[w];
      const ta = performance.now();
      const form = new FormData();
      form.append('file', new Blob([fileOf(k)], { type: 'text/csv' }), `planilla-${entityId}.csv`);
      const up = expect(
        await call(clerk, 'POST', `/api/planilla-uploads?entityId=${entityId}&period=${period}`, form),
        201,
        'carga',
      );
      const tb = performance.now();
      phase.upload += tb - ta;
      let b = up;
      while (b.status === 'VALIDANDO') {
        await sleep(POLL_MS);
        b = expect(await call(clerk, 'GET', `/api/planilla-uploads/${up.id}`), 200, 'estado de la carga');
      }
      if (b.status !== 'VALIDADO') throw new Error(`validación de ${entityId}: ${b.status} ${b.message}`);
      const tc = performance.now();
      phase.validate += tc - tb;
      b = expect(await call(clerk, 'POST', `/api/planilla-uploads/${up.id}/commit`), 202, 'confirmación');
      while (b.status === 'CONFIRMANDO') {
        await sleep(POLL_MS);
        b = expect(await call(clerk, 'GET', `/api/planilla-uploads/${up.id}`), 200, 'estado de la confirmación');
      }
      if (b.status !== 'CONFIRMADO' || !b.planillaId) throw new Error(`confirmación de ${entityId}: ${b.status} ${b.message}`);
      planillaOf.set(entityId, b.planillaId);
      phase.commit += performance.now() - tc;
    });
    const avg = (ms) => `${(ms / entities.length / 1000).toFixed(2)} s`;
    const [t] = (
      await db.execute(sql`select count(*)::int as n, coalesce(sum(total_employee), 0)::text as e, coalesce(sum(total_employer), 0)::text as p
        from planillas where period = ${period}`)
    ).rows;
    const [l] = (await db.execute(sql`select count(*)::int as n from planilla_lines where period = ${period}`)).rows;
    return `${t.n} planillas, ${l.n} líneas; cuota laboral Q ${t.e}, patronal Q ${t.p}; por entidad: subida ${avg(phase.upload)}, validación ${avg(phase.validate)}, confirmación ${avg(phase.commit)}`;
  });
  await floor(s1, async (c) => {
    await c.query(`drop schema if exists floor cascade; create schema floor;
      create table floor.lines (like planilla_lines including defaults including indexes);
      create unlogged table floor.staging (entity int, row_number int, cui text, full_name text, budget_line text, salary text, days text)`);
    function* rows() {
      for (let k = 0; k < entities.length; k++) {
        const out = [];
        for (let i = 0; i < EMPLOYEES; i++) out.push(`${entities[k]}\t${i + 1}\t${lineOf(k, i).join('\t')}`);
        yield `${out.join('\n')}\n`;
      }
    }
    await pipeline(Readable.from(rows()), c.query(copyFrom('COPY floor.staging FROM STDIN')));
    await c.query(`insert into floor.lines (planilla_id, row_number, period, entity_id, cui, full_name, budget_line_code, salary,
        salary_text, days_worked, subject, employee_amount, employer_amount, has_errors)
      select s.entity, s.row_number, '${period}', s.entity, s.cui, s.full_name, s.budget_line,
        s.salary::numeric, s.salary, s.days::smallint, true,
        round(s.salary::numeric * 0.07, 2), round(s.salary::numeric * 0.14, 2),
        s.cui !~ '^[0-9]{13}$' or s.salary !~ '^[0-9]+(\\.[0-9]{1,2})?$'
      from floor.staging s`);
  });

  // What a confirmation runs after its transaction once the table changed enough (analyzeIfStale): one ANALYZE.
  {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const t = performance.now();
    await c.query('analyze planilla_lines');
    say(
      `   un ANALYZE de planilla_lines (una confirmación lo corre cuando cambió más de 500 + 10 % de la tabla): ${((performance.now() - t) / 1000).toFixed(2)} s`,
    );
    await c.end();
  }

  // 2. Submission.
  const ids = entities.map((e) => planillaOf.get(e));
  const s2 = await stage(`2. ${ids.length} entidades envían (revalidación y recálculo)`, async () => {
    await pool(ids, async (id, _k, w) => {
      const clerk = clerks[w];
      let p = expect(await call(clerk, 'POST', `/api/planillas/${id}/transitions`, { to: 'ENVIANDO' }), 200, 'enviar');
      while (p.state === 'ENVIANDO') {
        await sleep(POLL_MS);
        p = expect(await call(clerk, 'GET', `/api/planillas/${id}`), 200, 'planilla');
      }
      if (p.state !== 'ENVIADA') throw new Error(`envío de ${id}: quedó ${p.state}: ${p.submitMessage}`);
    });
    const [t] = (await db.execute(sql`select count(*)::int as n from planillas where state = 'ENVIADA'`)).rows;
    return `${t.n} planillas ENVIADA`;
  });
  await floor(s2, async (c) => {
    await c.query(`update floor.lines set employee_amount = round(salary * 0.07, 2),
      employer_amount = round(salary * 0.14, 2), has_errors = false, errors = null`);
    await c.query(`create table floor.totals as select planilla_id, sum(employee_amount) e, sum(employer_amount) p, count(*) n
      from floor.lines group by planilla_id`);
  });

  // 3. Review and approval, which issues the orders.
  const s3 = await stage(`3. delegados toman y aprueban ${ids.length} planillas (órdenes emitidas)`, async () => {
    await pool(ids, async (id) => {
      expect(await call(delegate, 'POST', `/api/planillas/${id}/transitions`, { to: 'EN_REVISION' }), 200, 'tomar');
      const p = expect(await call(delegate, 'POST', `/api/planillas/${id}/transitions`, { to: 'APROBADA' }), 200, 'aprobar');
      if (p.state !== 'APROBADA') throw new Error(`aprobación de ${id}: ${p.state}`);
    });
    const [o] = (
      await db.execute(
        sql`select count(*)::int as n, coalesce(sum(principal), 0)::text as total from payment_orders where period = ${period}`,
      )
    ).rows;
    return `${o.n} órdenes de pago, capital Q ${o.total}`;
  });
  await floor(s3, async (c) => {
    await c.query(`update floor.lines set contributor_id = null where contributor_id is distinct from null`);
    await c.query(`create table floor.orders (like payment_orders including defaults including indexes)`);
    await c.query(`insert into floor.orders (kind, entity_id, planilla_id, period, periods, reference, issue_date, due_date, accrued_to, principal)
      select k.kind, t.planilla_id, t.planilla_id, '${period}', array['${period}'], 'F' || t.planilla_id || k.kind, current_date,
        current_date + 30, current_date + 30, case k.kind when 'LABORAL' then t.e else t.p end
      from floor.totals t cross join (values ('LABORAL'), ('PATRONAL')) k(kind)`);
  });

  // 4. The bank file: BANK_ROWS orders paid at their balance (read beforehand, as the bank would bill them).
  const open = (
    await db.execute(
      sql`select id, reference from payment_orders where period = ${period} and state = 'EMITIDA' order by id limit ${BANK_ROWS}`,
    )
  ).rows;
  const balances = new Map();
  await pool(open, async (o) => {
    balances.set(o.id, expect(await call(clerk, 'GET', `/api/payment-orders/${o.id}`), 200, 'orden').balance);
  });
  const content = ['fecha,referencia,monto', ...open.map((o) => `${today},${o.reference},${balances.get(o.id)}`)].join('\n');
  const banks = expect(await call(clerk, 'GET', '/api/bank-files/banks'), 200, 'bancos');
  const bank = banks.find((b) => b.code === 'BANRURAL') ?? banks[0];
  const s4 = await stage(`4. archivo bancario de ${open.length} pagos conciliado y recibos emitidos`, async () => {
    let f = expect(
      await call(clerk, 'POST', '/api/bank-files', { bankId: bank.id, office: 'CENTRAL', content, fileName: 'mes.csv' }),
      201,
      'archivo bancario',
    );
    const id = f.id;
    while (f.applyJobId != null) {
      await sleep(POLL_MS);
      f = expect(await call(clerk, 'GET', `/api/bank-files/${id}`), 200, 'archivo');
    }
    const [r] = (await db.execute(sql`select count(*)::int as n from receipts`)).rows;
    return `${f.rows} filas: ${f.matched} conciliadas, ${f.mismatched} con monto distinto, ${f.unmatched} sin coincidencia, ${f.notApplied} sin aplicar; ${r.n} recibos`;
  });
  await floor(s4, async (c) => {
    await c.query('create unlogged table floor.bank (pay_date date, reference text, amount numeric)');
    await pipeline(
      Readable.from([`${content.split('\n').slice(1).join('\n')}\n`]),
      c.query(copyFrom('COPY floor.bank FROM STDIN (FORMAT csv)')),
    );
    await c.query('begin');
    await c.query(`create table floor.payments as select o.id as order_id, o.entity_id, o.kind, b.reference, b.amount, b.pay_date,
      row_number() over (order by o.id) as receipt_number from floor.bank b join payment_orders o on o.reference = b.reference
      where b.amount = o.principal`);
    await c.query(`update floor.orders f set state = 'PAGADA', principal_paid = f.principal from floor.payments p
      where f.entity_id = p.entity_id and f.kind = p.kind`);
    await c.query('commit');
  });

  // 5 and 6.
  await statements(entities, delegate);
  const s6 = await stage(`6. planilla de ${PENSIONS} pensiones (${payrollPeriod}) y su archivo del banco`, async () => {
    const g = expect(await call(delegate, 'POST', `/api/pension-payrolls/${payrollPeriod}/generate`), 200, 'generar');
    const f = await call(delegate, 'GET', `/api/pension-payrolls/${payrollPeriod}/bank-file`);
    if (f.status !== 200) throw new Error(`archivo de pensiones: ${f.status} ${f.body.slice(0, 300)}`);
    return `${g.lines} líneas, total Q ${g.total}; csv de ${f.body.trim().split('\n').length - 1} filas`;
  });
  await floor(s6, async (c) => {
    await c.query('create table floor.pension_lines (like pension_payroll_lines including defaults including indexes)');
    await c.query(`insert into floor.pension_lines (payroll_id, pension_id, kind, for_period, days, amount, bank_account, cui, full_name, type, entity_id)
      select 1, id, 'MENSUAL', '${payrollPeriod}', 30, monthly_amount, bank_account, cui, full_name, type, entity_id
      from pensions where state = 'ACTIVA'`);
    await pipeline(
      c.query(
        copyTo('COPY (select bank_account, cui, full_name, amount from floor.pension_lines order by id) TO STDOUT (FORMAT csv)'),
      ),
      new Writable({
        write(_chunk, _enc, done) {
          done();
        },
      }),
    );
  });
}

/** 5. Every entity's account statement, then the arrears ranking. */
async function statements(entities, delegate) {
  const s5 = await stage(`5. estado de cuenta de ${entities.length} entidades y ranking de mora`, async () => {
    await pool(entities, async (entityId) => {
      expect(await call(delegate, 'GET', `/api/financial/statement?entityId=${entityId}`), 200, 'estado de cuenta');
    });
    const r = expect(await call(delegate, 'GET', '/api/financial/arrears'), 200, 'ranking');
    return `ranking: ${r.items.length} entidades, total Q ${r.totals.total}`;
  });
  await floor(s5, async (c) => {
    await c.query(`select entity_id, period, kind, sum(principal), sum(principal_paid), sum(principal - principal_paid)
      from payment_orders where state <> 'ANULADA' group by 1, 2, 3`);
    await c.query(`select entity_id, sum(principal - principal_paid) as debt from payment_orders
      where state = 'EMITIDA' and due_date < current_date group by 1 order by 2 desc`);
  });
}
