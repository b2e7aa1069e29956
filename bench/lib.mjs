// What the benches share: the database they measure (openBenchDatabase, pgDatabase), the real app in this
// process with a signed-in user (loadApi, benchApp, addBenchUser, benchLogin), the real server in a child process
// (spawnServer, waitForServer, stopServer, httpLogin), the rows their data points to or starts from (benchEntity,
// entityPerMunicipality, addReceiptRange, monthlyOrders, loadPensions, cuiBodies), the file an upload sends
// (sheetFile, multipart), and the small helpers that read the command line, print and time (parseArgs, say,
// timer, time, rssPeak, mb). A bench that measures another checkout (--root) passes its root: the API's modules
// then come from there.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';

/** The checkout these benches belong to. */
export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Imports from a checkout: `mod(path)` an ES module by its path in it, `apiRequire(name)` a package as its API resolves it. */
export function checkout(root = ROOT) {
  return {
    mod: (p) => import(pathToFileURL(join(root, p)).href),
    apiRequire: createRequire(join(root, 'apps/api/package.json')),
  };
}

/** The `--key=value` arguments as an object; a bare `--flag` is 'true'. */
export const parseArgs = (argv = process.argv.slice(2)) =>
  Object.fromEntries(
    argv.map((a) => {
      const [k, ...v] = a.replace(/^--/, '').split('=');
      return [k, v.length ? v.join('=') : 'true'];
    }),
  );

export const say = (s) => process.stdout.write(`${s}\n`);
export const mb = (b, digits = 0) => `${(b / 1024 / 1024).toFixed(digits)} MB`;

/**
 * The peak resident memory of this process, sampled every 50 ms from now on: `rss.peak` (a bench sets it
 * back to measure from a point on), `rss.stop()` ends the sampling (it keeps the process alive).
 */
export function rssPeak() {
  const rss = { peak: process.memoryUsage().rss, stop: () => clearInterval(sampler) };
  const sampler = setInterval(() => {
    rss.peak = Math.max(rss.peak, process.memoryUsage().rss);
  }, 50);
  return rss;
}

/**
 * A timing function: `time(label, fn)` runs fn, prints the label padded to `pad` and how long it took
 * (`format(seconds)`, then `note(seconds)` when given: the RSS peak so far, a budget), and returns
 * [fn's result, seconds].
 */
export function timer({ pad = 52, format = (s) => `${s.toFixed(2)} s`, note } = {}) {
  return async (label, fn) => {
    const t0 = performance.now();
    const out = await fn();
    const s = (performance.now() - t0) / 1000;
    say(`${label.padEnd(pad)} ${format(s)}${note ? note(s) : ''}`);
    return [out, s];
  };
}
export const time = timer();

/**
 * A client of the PostgreSQL server at adminUrl (to create and drop databases; it creates `name` unless
 * `create: false`) and the URL of the database `name` on that server.
 */
export async function pgDatabase(adminUrl, name, { create = true } = {}) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  if (create) await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return { admin, url: u.toString() };
}

/**
 * A migrated database with the reference data, in a temporary folder (embedded PGlite) or, with
 * BENCH_DATABASE_URL (and not `pglite: true`: a bench that measures the embedded database), a new PostgreSQL
 * database `name` it creates; `dispose()` closes it, drops the PostgreSQL database (unless `keep`) and removes
 * the folder (`prefix` names it).
 */
export async function openBenchDatabase({
  pglite = false,
  prefix = 'aporta-bench-',
  name = `aporta_bench_${process.pid}`,
  keep = false,
} = {}) {
  const { openDatabase } = await import('../apps/api/src/db/client.ts');
  const { seedReference } = await import('../apps/api/src/seed/index.ts');
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let database;
  let dropDb = async () => {};
  if (process.env.BENCH_DATABASE_URL && !pglite) {
    const { admin, url } = await pgDatabase(process.env.BENCH_DATABASE_URL, name);
    database = await openDatabase({ url });
    dropDb = async () => {
      if (!keep) await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    };
  } else {
    database = await openDatabase({ dataDir: join(dir, 'db') });
  }
  const dispose = async () => {
    await database.close();
    await dropDb();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await database.migrate();
    await seedReference(database.db);
  } catch (e) {
    await dispose();
    throw e;
  }
  return { database, dir, dispose };
}

/**
 * The municipality 0101 and a new MUNI classification and, unless `entity: false`, the entity E-0101 of both:
 * what a bench's own entities, orders and contributors point to. Returns { mun, cls, entity }.
 */
export async function benchEntity(db, { entity = true } = {}) {
  const { mod, apiRequire } = checkout();
  const schema = await mod('apps/api/src/db/schema/index.ts');
  const { eq } = apiRequire('drizzle-orm');
  const [mun] = await db.select().from(schema.municipalities).where(eq(schema.municipalities.code, '0101'));
  const [cls] = await db.insert(schema.classifications).values({ code: 'MUNI', name: 'Municipalidad' }).returning();
  if (!entity) return { mun, cls };
  const [row] = await db
    .insert(schema.municipalEntities)
    .values({ code: 'E-0101', name: 'Municipalidad de Guatemala', classificationId: cls.id, municipalityId: mun.id })
    .returning();
  return { mun, cls, entity: row };
}

/**
 * A MUNI classification and one entity per municipality (E-<code>, for contributors spread over the country).
 * Returns { munis, entityOf: municipality id → its entity's id }.
 */
export async function entityPerMunicipality(db, { root = ROOT } = {}) {
  const schema = await checkout(root).mod('apps/api/src/db/schema/index.ts');
  const munis = await db.select().from(schema.municipalities);
  const [cls] = await db.insert(schema.classifications).values({ code: 'MUNI', name: 'Municipalidad' }).returning();
  const entities = await db
    .insert(schema.municipalEntities)
    .values(
      munis.map((m) => ({
        code: `E-${m.code}`,
        name: `Municipalidad ${m.name}`,
        classificationId: cls.id,
        municipalityId: m.id,
      })),
    )
    .returning();
  return { munis, entityOf: new Map(entities.map((e) => [e.municipalityId, e.id])) };
}

/** The receipt range payments draw their receipt numbers from: office CENTRAL, series A, 1 to 1 000 000. */
export async function addReceiptRange(db, { root = ROOT } = {}) {
  const schema = await checkout(root).mod('apps/api/src/db/schema/index.ts');
  await db.insert(schema.receiptRanges).values({
    office: 'CENTRAL',
    series: 'A',
    firstNumber: 1,
    lastNumber: 1_000_000,
    nextNumber: 1,
    authorizationRef: 'CGC-BENCH',
    authorizationDate: '2026-01-02',
  });
}

/**
 * Monthly orders of the entities `where` selects over `months` periods from the date `from` (a SQL date), two a
 * month (employee and employer), a third of them unpaid: the statements' periods and the ranking's debt. The
 * statement to execute; the references only have to be unique (no bank pays these orders).
 */
export function monthlyOrders(where, months, from, { root = ROOT } = {}) {
  const { sql } = checkout(root).apiRequire('drizzle-orm');
  return sql`
  insert into payment_orders (kind, entity_id, period, periods, reference, issue_date, due_date, accrued_to, principal,
    state, principal_paid, paid_at)
  select k.kind, e.id, p.period, array[p.period], 'B' || e.id || '-' || p.period || '-' || k.kind,
    (p.period || '-28')::date, (p.period || '-01')::date + interval '1 month' + interval '19 days',
    (p.period || '-01')::date + interval '1 month' + interval '19 days', 10000 + (e.id * 37 + p.n * 11) % 500000,
    case when (e.id + p.n) % 3 = 0 then 'EMITIDA' else 'PAGADA' end,
    case when (e.id + p.n) % 3 = 0 then 0 else 10000 + (e.id * 37 + p.n * 11) % 500000 end,
    case when (e.id + p.n) % 3 = 0 then null else now() end
  from municipal_entities e
  cross join (select n, to_char(${from} + (n || ' month')::interval, 'YYYY-MM') as period
              from generate_series(0, ${months - 1}) n) p
  cross join (values ('LABORAL'), ('PATRONAL')) k(kind)
  where ${where}`;
}

/**
 * `n` pensions in force with their RENAP people (1 in 2 000 dead twenty days before `today`), spread over
 * `entities` consecutive entities from `entityId`, all of one contributor (the foreign key). CUIs as 13-digit
 * text (not checked here); birthdays over the year; survival due dates from 90 days ago to 275 ahead, so about
 * one in twelve is beyond window and grace today.
 */
export async function loadPensions(db, { n, today, entityId, entities = 1, root = ROOT }) {
  const { mod, apiRequire } = checkout(root);
  const schema = await mod('apps/api/src/db/schema/index.ts');
  const { addDays } = await mod('packages/domain/src/index.ts');
  const { sql } = apiRequire('drizzle-orm');
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
      entityId,
    })
    .returning();
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
           2000 + (i % 700) + (i % 100) / 100.0, '301-' || lpad(i::text, 9, '0') || '-0', 'ACTIVA',
           ${entityId} + i % ${entities}, ${addDays(today, -90)}::date + (i % 365), ${addDays(today, -400)}::date
      from generate_series(1, ${n}) i`);
  await db.execute(sql`
    insert into pension_amounts (pension_id, monthly_amount, effective_from, reason, created_by_email)
    select id, monthly_amount, start_date, 'Monto inicial', 'bench' from pensions`);
}

/**
 * Valid CUIs without their municipality, in order: each 8-digit serial after `from` with its check digit
 * (`cuiCheckDigit` of the domain; a serial that has none is skipped).
 */
export function* cuiBodies(cuiCheckDigit, from = 10_000_000) {
  for (let serial = from + 1; ; serial++) {
    const body = String(serial).padStart(8, '0');
    const check = cuiCheckDigit(body);
    if (check !== null) yield `${body}${check}`;
  }
}

/**
 * The file a bench uploads: `header` and `rows` rows (`rowOf(i)`) as csv, the way the templates are written
 * (UTF-8 with BOM, `;`, CRLF), or as xlsx (sheet `sheet`) through ExcelJS's streaming writer to `dir`/`fileName`:
 * the generator must not inflate the memory being measured. The bench passes ExcelJS, imported before it
 * measures anything.
 */
export async function sheetFile({ ExcelJS, format, header, rows, rowOf, dir, sheet, fileName }) {
  if (format === 'csv')
    return Buffer.from(
      `\uFEFF${[header, ...Array.from({ length: rows }, (_, i) => rowOf(i))].map((r) => r.join(';')).join('\r\n')}\r\n`,
    );
  const filename = join(dir, fileName);
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename, useSharedStrings: true });
  const ws = wb.addWorksheet(sheet);
  ws.addRow(header).commit();
  for (let i = 0; i < rows; i++) ws.addRow(rowOf(i)).commit();
  ws.commit();
  await wb.commit();
  return readFileSync(filename);
}

/** The multipart body that uploads `file` as the form's field `file`, and its content type. */
export function multipart(file, filename) {
  const boundary = `----bench${randomUUID()}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

// Every bench user has every permission (the SISTEMA institution) and this password.
export const BENCH_EMAIL = 'bench@aporta.local';
export const BENCH_PASSWORD = 'Bench-Clave-2026';

/** A user of the SISTEMA institution with the bench password; returns its users row. */
export async function addBenchUser(db, { email = BENCH_EMAIL, root = ROOT } = {}) {
  const { mod, apiRequire } = checkout(root);
  const schema = await mod('apps/api/src/db/schema/index.ts');
  const { hashPassword } = await mod('apps/api/src/platform/passwords.ts');
  const { eq } = apiRequire('drizzle-orm');
  const [sys] = await db.select().from(schema.institutions).where(eq(schema.institutions.code, 'SISTEMA'));
  const [user] = await db
    .insert(schema.users)
    .values({ email, passwordHash: await hashPassword(BENCH_PASSWORD) })
    .returning();
  await db.insert(schema.userInstitutions).values({ userId: user.id, institutionId: sys.id });
  return user;
}

/** Signs a bench user in through app.inject; the headers that carry its session. */
export async function benchLogin(app, email = BENCH_EMAIL) {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: BENCH_PASSWORD } });
  const { token } = res.json();
  if (!token) throw new Error(`login: ${res.statusCode} ${res.body}`);
  return { authorization: `Bearer ${token}` };
}

/**
 * The modules the app is built from (buildApp and loadConfig; with them the whole API) of the checkout `root`.
 * A bench loads them at its start, before it opens its database, as the benches always have: loaded after the
 * database, they leave a startup RSS peak some 100–150 MB lower, and the peaks the benches print would no longer
 * compare with the earlier ones.
 */
export async function loadApi(root = ROOT) {
  const { mod } = checkout(root);
  const { buildApp } = await mod('apps/api/src/app.ts');
  const { loadConfig } = await mod('apps/api/src/config.ts');
  return { buildApp, loadConfig };
}

/**
 * The real app in this process (buildApp, asked through app.inject) on `database`, with a bench user (`email`;
 * created here unless `addUser: false`, when the bench made it earlier) signed in. The configuration is the
 * tests' with a login rate no bench reaches; `env` adds or overrides keys (NODE_ENV, DATA_DIR, …). The job
 * worker runs only with `startJobs` (the benches whose uploads and submits are jobs).
 * Returns { app, config, user, headers }.
 */
export async function benchApp(database, { root = ROOT, env = {}, startJobs = false, email = BENCH_EMAIL, addUser = true } = {}) {
  const { buildApp, loadConfig } = await loadApi(root);
  const user = addUser ? await addBenchUser(database.db, { email, root }) : undefined;
  const config = { ...loadConfig({ NODE_ENV: 'test', LOGIN_RATE_PER_MINUTE: '1000', ...env }), webDist: '' };
  const app = await buildApp({ config, database, startJobs });
  await app.ready();
  return { app, config, user, headers: await benchLogin(app, email) };
}

/** A free TCP port on the loopback interface. */
export function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

/**
 * Starts the real server of the checkout `root` (`main.ts serve`) in a child process on a free loopback port:
 * production, warnings only in its log (`stdout`: 'ignore' or 'pipe'), no demo data, a login rate no bench
 * reaches, the usual first administrator; `env` adds the rest (DATABASE_URL, DATA_DIR, API_PROCESSES,
 * JOBS_CONCURRENCY). `profDir`: a .cpuprofile of each server process, written when it stops. Returns
 * { child, origin } once started, so that the caller can stop it whatever happens: waitForServer then waits
 * until it answers.
 */
export async function spawnServer({ root = ROOT, env = {}, stdout = 'ignore', profDir = null } = {}) {
  const port = await freePort();
  const profArgs = profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [];
  const child = spawn(process.execPath, [...profArgs, '--import', 'tsx', join(root, 'apps/api/src/main.ts'), 'serve'], {
    cwd: root,
    stdio: ['ignore', stdout, 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DEMO_DATA: 'false',
      LOGIN_RATE_PER_MINUTE: '100000',
      ADMIN_EMAIL: 'admin@aporta.local',
      ADMIN_PASSWORD: 'Tortuga-Verde-2026',
      ...env,
    },
  });
  return { child, origin: `http://127.0.0.1:${port}` };
}

/** Waits until the server answers /api/health (two minutes at most); throws if it exits first. */
export async function waitForServer(origin, child) {
  for (let k = 0; ; k++) {
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return;
    } catch {}
    if (k > 600 || child.exitCode !== null) throw new Error('el servidor no arrancó');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Stops a server spawnServer started, if it still runs: SIGTERM, then up to 10 s for it to exit. */
export async function stopServer(child) {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  }
}

/** Signs a bench user in over HTTP; its session token. */
export async function httpLogin(origin, email = BENCH_EMAIL) {
  const r = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  return (await r.json()).token;
}
