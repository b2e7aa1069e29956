// Lists and search at scale (issue 11): loads N contributors (1 000 000 on PostgreSQL, 300 000 on the
// embedded PGlite) with varied names and valid CUIs across every municipality, starts the real server in
// a child process, and measures six requests at 1, 10 and 50 connections with autocannon:
//   list page 1 · page 500 · a department filter · exact CUI · CUI prefix · a rare name with one typo ·
//   two of the commonest surnames, exact and with a typo each («hernandes lopes»). Names are Zipf-like.
// The floor is the same SQL the API ran for that request (captured once per request while the API served
// it in this process; the session's own statements left out) replayed directly on a pool of the same size.
// Prints p50/p95/p99, requests per second and the API/floor ratio per query; the health check is polled
// every 100 ms during the 50-connection name search, and every status code is counted. Drops its database.
//
//   node --import tsx bench/lists-scale.mjs                    # PostgreSQL, 1 000 000 rows
//   node --import tsx bench/lists-scale.mjs --pglite           # embedded PGlite, 300 000 rows
//   options: --rows=N --duration=seconds(5) --conns=1,10,50 --repeat=1 --root=<checkout to measure>
//            --only='CUI exacto,página 1' (those queries only) --server-prof=<dir> (a .cpuprofile of each server process)
//            --ui[=<dir>] after the measurements, Chromium pages the list of every contributor forwards and
//            backwards (needs `npm run build`), timing each click; screenshots into <dir> (default /tmp)
//            --procs=N server processes (API_PROCESSES; default on PostgreSQL half the cores, as deployed on a
//            machine that also runs PostgreSQL and the load generator; PGlite 1)
//            --keep (PostgreSQL: keep the loaded database, its name printed) --reuse=<database> (measure a
//            database an earlier --keep loaded, without loading again; kept as well)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres (default)
// --root measures another checkout's API with this script (the "before" figures: main's code).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import autocannon from 'autocannon';
import { from as copyFrom } from 'pg-copy-streams';
import {
  addBenchUser,
  BENCH_EMAIL,
  BENCH_PASSWORD,
  ROOT as BENCH_ROOT,
  benchApp,
  checkout,
  cuiBodies,
  entityPerMunicipality,
  httpLogin,
  loadApi,
  parseArgs,
  pgDatabase,
  say,
  spawnServer,
  stopServer,
  waitForServer,
} from './lib.mjs';
import { FIRST_NAMES, SURNAMES } from './names.mjs';

const args = parseArgs();
const PGLITE = args.pglite === 'true';
const ROWS = Number(args.rows ?? (PGLITE ? 300_000 : 1_000_000));
const DURATION = Number(args.duration ?? 5);
const CONNS = (args.conns ?? '1,10,50').split(',').map(Number);
const REPEAT = Number(args.repeat ?? 1);
const ONLY = args.only ? args.only.split(',') : null;
// PostgreSQL and the load generator run on this machine too: the server gets half the cores (bench/README,
// "Cuántos procesos").
const PROCS = PGLITE ? 1 : Number(args.procs ?? Math.max(1, Math.floor(availableParallelism() / 2)));
const UI = args.ui ? (args.ui === 'true' ? tmpdir() : resolve(args.ui)) : null;
const SERVER_PROF = args['server-prof'] ? resolve(args['server-prof']) : null;
const ROOT = resolve(args.root ?? BENCH_ROOT);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// The server's main pool per process (DB_POOL_SIZE's default); the floor gets as many connections as all
// the server's processes together.
const POOL = 10;

const { mod, apiRequire } = checkout(ROOT);
const pg = apiRequire('pg');
// The API loads before the database, as it always has (loadApi in lib.mjs says why).
await loadApi(ROOT);
const { openDatabase } = await mod('apps/api/src/db/client.ts');
const { seedReference } = await mod('apps/api/src/seed/index.ts');
const schema = await mod('apps/api/src/db/schema/index.ts');
const { cuiCheckDigit, foldName } = await mod('packages/domain/src/index.ts');
const { and, inArray, sql } = apiRequire('drizzle-orm');

// A seeded random generator (mulberry32): every run loads the same rows. The linear congruential one this
// bench had lost its low bits in floating point (seed × 1103515245 passes 2^53), so consecutive draws were
// correlated: García was followed by Pérez 743 times and Pérez by García once.
let seed = 20261123;
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
};
// Names drawn with Zipf-like weights (the n-th commonest name weighs 1/n), as a population's are: 230 first
// names and 330 surnames, the commonest first. The heads below are ordered by how common they are in
// Guatemala; the rest of each list follows bench/names.mjs. With these weights Hernández is one surname in
// six and López one in thirteen, so «hernandez lopez» matches some 2 % of the people and each word alone 14–28 %.
const FIRST_HEAD = `José María Juan Carlos Luis Ana Jorge Miguel Marta Rosa Manuel Francisco Mario Pedro Julio Sandra
Carmen Edgar Byron Gloria Elena Antonio Santos Víctor Óscar Silvia Lucía Sergio Ángel Marco Rafael Juana Lidia
Hugo Roberto Ricardo Mynor Patricia Olga Blanca`.split(/\s+/);
const SURNAME_HEAD = `Hernández López García Pérez González Morales Rodríguez Martínez Ramírez Gómez Cruz Méndez Chávez
Castillo Ortiz Reyes Juárez Díaz Vásquez Sánchez Alvarado Aguilar Flores Ramos Ruiz Velásquez Castro Mejía Estrada
Gutiérrez Rivera Barrios Xol Caal Choc Coc Tzul Ajú Santos Lucas`.split(/\s+/);
const ranked = (head, rest, n) => [...new Set([...head, ...rest])].slice(0, n);
const firsts = ranked(FIRST_HEAD, FIRST_NAMES, 230);
const surnames = ranked(SURNAME_HEAD, SURNAMES, 330);
const zipf = (list) => {
  const cumulative = [];
  let sum = 0;
  for (let r = 1; r <= list.length; r++) {
    sum += 1 / r;
    cumulative.push(sum);
  }
  return () => {
    const x = rand() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return list[lo];
  };
};
const pickFirst = zipf(firsts);
const pickSurname = zipf(surnames);
// The rarer half of the surnames (five letters or more, so that one typo leaves a word to correct): a
// «nombre con error» asks for a person with one of them.
const rareSurnames = surnames.slice(165).filter((s) => foldName(s).length >= 5);

// ---------------------------------------------------------------- database
const REUSE = !PGLITE && args.reuse ? args.reuse : null;
if (REUSE && !/^aporta_scale_\d+$/.test(REUSE))
  throw new Error(`--reuse: «${REUSE}» no es una base de este bench (aporta_scale_N)`);
const KEEP = !PGLITE && (args.keep === 'true' || !!REUSE);
const dbName = REUSE ?? `aporta_scale_${process.pid}`;
const tmp = mkdtempSync(join(tmpdir(), 'aporta-scale-'));
let admin;
let url;
let database;
if (PGLITE) {
  database = await openDatabase({ dataDir: join(tmp, 'db') });
} else {
  ({ admin, url } = await pgDatabase(ADMIN_URL, dbName, { create: !REUSE }));
  database = await openDatabase({ url, poolSize: POOL });
}
let child;
const cleanup = async () => {
  await stopServer(child);
  await database?.close().catch(() => {});
  if (admin && KEEP) say(`base conservada: ${dbName} (--reuse=${dbName}; bórrela con DROP DATABASE ${dbName})`);
  if (admin && !KEEP) await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch((e) => say(`DROP: ${e.message}`));
  if (admin) {
    await admin.end();
  }
  rmSync(tmp, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => cleanup().then(() => process.exit(130)));

try {
  await run();
} finally {
  await cleanup();
}

async function run() {
  const t0 = performance.now();
  const db = database.db;
  // A reused database gets the migrations written since it was loaded (the server would apply them anyway).
  if (REUSE) await database.migrate();
  else await load(db);
  const [{ total }] = await db.select({ total: sql`count(*)::int` }).from(schema.contributors);
  say(
    REUSE
      ? `PostgreSQL: ${total} afiliados en ${REUSE} (reutilizada, sin cargar)`
      : `${PGLITE ? 'PGlite' : 'PostgreSQL'}: ${total} afiliados cargados con COPY en ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  // ---------------------------------------------------------------- the requests
  const sample = (
    await db.execute(sql`select cui, search_name from contributors where id % 997 = 3 order by id limit 40`)
  ).rows.map((r) => ({ cui: r.cui, name: r.search_name }));
  const [dept] = (await db.execute(sql`select id from departments where code = '09'`)).rows;
  // One typo in a surname: a letter replaced (Hernández → Hernandes).
  // The typos come from their own seed: a run on a reused database (--reuse, no load) asks the same names.
  seed = 20261124;
  const typo = (word) => {
    const i = 1 + Math.floor(rand() * (word.length - 2));
    const swap = { Z: 'S', S: 'Z', C: 'S', V: 'B', B: 'V', Y: 'I', I: 'Y', O: 'U', E: 'I' };
    return word.slice(0, i) + (swap[word[i]] ?? 'E') + word.slice(i + 1);
  };
  // A person with a rare surname (the rarer half of the list): their first name (usually a common one)
  // and that surname with one letter changed ("jose tzaquitsal").
  const rare = (
    await db
      .select({ name: schema.contributors.searchName, surname: schema.contributors.firstSurname })
      .from(schema.contributors)
      .where(and(inArray(schema.contributors.firstSurname, rareSurnames), sql`${schema.contributors.id} % 97 = 3`))
      .orderBy(schema.contributors.id)
      .limit(40)
  ).map((r) => ({ name: r.name, surname: foldName(r.surname) }));
  const typoQueries = rare.map(({ name, surname }) => `${name.split(' ')[0]} ${typo(surname)}`.toLowerCase());
  say(`nombres con error: ${typoQueries.slice(0, 6).join(', ')}…`);
  // Two of the commonest surnames, exact and with one typo each (what a clerk types all day).
  const commonPairs = [
    ['hernandez lopez', 'hernandes lopes'],
    ['lopez hernandez', 'lopes hernandes'],
    ['garcia perez', 'garsia peres'],
    ['perez gonzalez', 'peres gonsales'],
    ['hernandez garcia', 'hernandes garsia'],
    ['gonzalez lopez', 'gonsales lopes'],
    ['morales hernandez', 'moralez hernandes'],
    ['lopez perez', 'lopes peres'],
  ];

  const { app, headers } = await benchApp(database, {
    root: ROOT,
    env: {
      NODE_ENV: 'production',
      LOGIN_RATE_PER_MINUTE: '100000',
      DATABASE_URL: url ?? '',
      API_PROCESSES: String(PROCS),
      DATA_DIR: join(tmp, 'db'),
    },
    addUser: false,
  });
  const get = (path) => app.inject({ method: 'GET', url: path, headers });
  const first = (await get('/api/contributors?pageSize=25')).json();
  const keyset = first.next !== undefined;
  let page500 = ['/api/contributors?pageSize=25&page=500'];
  if (keyset) {
    // The server pages by key: page 500 is reached by following `next` (what 499 clicks do).
    let cursor = first.next;
    for (let p = 2; p < 500; p++) cursor = (await get(`/api/contributors?pageSize=25&after=${cursor}`)).json().next;
    page500 = [`/api/contributors?pageSize=25&after=${cursor}`];
  }
  const allQueries = [
    { key: 'página 1', paths: ['/api/contributors?pageSize=25'] },
    { key: 'página 500', paths: page500 },
    { key: 'departamento', paths: [`/api/contributors?pageSize=25&departmentId=${dept.id}`] },
    { key: 'CUI exacto', paths: sample.map((s) => `/api/contributors?pageSize=25&q=${s.cui}`) },
    { key: 'prefijo CUI', paths: sample.map((s) => `/api/contributors?pageSize=25&q=${s.cui.slice(0, 8)}`) },
    { key: 'nombre con error', paths: typoQueries.map((q) => `/api/contributors?pageSize=25&q=${encodeURIComponent(q)}`) },
    { key: 'apellidos comunes', paths: commonPairs.map(([q]) => `/api/contributors?pageSize=25&q=${encodeURIComponent(q)}`) },
    {
      key: 'comunes con error',
      paths: commonPairs.map(([, q]) => `/api/contributors?pageSize=25&q=${encodeURIComponent(q)}`),
    },
  ];
  const queries = ONLY ? allQueries.filter((q) => ONLY.includes(q.key)) : allQueries;

  // Capture the statements each request runs (without the session's).
  const captured = [];
  let capturing = false;
  const authTables = /from "(sessions|users|user_institutions|role_grants|user_roles|institution_roles)"|update "sessions"/i;
  const record = (text, values, name) => {
    if (!capturing || authTables.test(text)) return;
    captured.push({ text, values: values ?? [], name });
  };
  const restore = [];
  if (PGLITE) {
    const client = db.$client;
    const q = client.query.bind(client);
    const tx = client.transaction.bind(client);
    client.query = (text, values, opts) => {
      record(text, values);
      return q(text, values, opts);
    };
    client.transaction = (fn) =>
      tx((t) => {
        if (capturing) captured.push({ text: 'BEGIN', values: [] });
        const tq = t.query.bind(t);
        t.query = (text, values, opts) => {
          record(text, values);
          return tq(text, values, opts);
        };
        return fn(t);
      });
    restore.push(() => {
      client.query = q;
      client.transaction = tx;
    });
  } else {
    const q = pg.Client.prototype.query;
    pg.Client.prototype.query = function (config, values, cb) {
      if (typeof config === 'string') record(config, Array.isArray(values) ? values : []);
      else if (config && typeof config.text === 'string')
        record(config.text, config.values ?? (Array.isArray(values) ? values : []), config.name);
      return q.call(this, config, values, cb);
    };
    restore.push(() => {
      pg.Client.prototype.query = q;
    });
  }
  for (const query of queries) {
    query.floor = [];
    for (const path of query.paths) {
      captured.length = 0;
      capturing = true;
      const res = await get(path);
      capturing = false;
      if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      query.floor.push(captured.filter((s) => !/^(begin|commit)$/i.test(s.text.trim())).map((s) => ({ ...s })));
      query.inTx = captured.some((s) => /^begin$/i.test(s.text.trim()));
    }
    const res = (await get(query.paths[0])).json();
    say(
      `${query.key.padEnd(17)} ${query.floor[0].length} sentencia(s)${query.inTx ? ' en transacción' : ''}, ${res.items.length} filas, total ${res.total}${res.totalKind ? ` (${res.totalKind})` : ''}`,
    );
  }
  for (const r of restore) r();
  await app.close();

  // ---------------------------------------------------------------- floor runner
  let floorPool;
  if (!PGLITE) {
    floorPool = new pg.Pool({ connectionString: url, max: POOL * PROCS });
    floorPool.on('error', () => {});
  }
  const stmtOf = (s) => (s.name ? { name: s.name, text: s.text, values: s.values } : { text: s.text, values: s.values });
  async function floorOnce(stmts, inTx) {
    if (PGLITE) {
      const client = database.db.$client;
      if (inTx)
        return client.transaction(async (t) => {
          for (const s of stmts) await t.query(s.text, s.values);
        });
      for (const s of stmts) await client.query(s.text, s.values);
      return;
    }
    if (inTx) {
      const c = await floorPool.connect();
      try {
        await c.query('begin');
        for (const s of stmts) await c.query(stmtOf(s));
        await c.query('commit');
      } finally {
        c.release();
      }
      return;
    }
    await Promise.all(stmts.map((s) => floorPool.query(stmtOf(s))));
  }
  async function floorRun(query, conns) {
    const lat = [];
    let errors = 0;
    let i = 0;
    const end = performance.now() + DURATION * 1000;
    await Promise.all(
      Array.from({ length: conns }, async () => {
        while (performance.now() < end) {
          const stmts = query.floor[i++ % query.floor.length];
          const s = performance.now();
          try {
            await floorOnce(stmts, query.inTx);
            lat.push(performance.now() - s);
          } catch {
            errors += 1;
          }
        }
      }),
    );
    lat.sort((a, b) => a - b);
    const pct = (p) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))] ?? Number.NaN;
    return { p50: pct(50), p95: pct(95), p99: pct(99), rps: lat.length / DURATION, errors, codes: {} };
  }

  // ---------------------------------------------------------------- the server
  if (PGLITE) await database.close();
  let origin;
  ({ child, origin } = await spawnServer({
    root: ROOT,
    profDir: SERVER_PROF,
    env: { DATABASE_URL: url ?? '', API_PROCESSES: String(PROCS), DATA_DIR: join(tmp, 'db'), JOBS_CONCURRENCY: '0' },
  }));
  await waitForServer(origin, child);
  const httpToken = await httpLogin(origin);

  async function apiRun(query, conns, watchHealth) {
    const health = [];
    let healthFailures = 0;
    let watching = watchHealth;
    const poller = (async () => {
      while (watching) {
        const s = performance.now();
        try {
          const r = await fetch(`${origin}/api/health`);
          await r.arrayBuffer();
          if (r.status !== 200) healthFailures += 1;
        } catch {
          healthFailures += 1;
        }
        health.push(performance.now() - s);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const lat = [];
    const instance = autocannon({
      url: origin,
      connections: conns,
      duration: DURATION,
      // A request unanswered after 10 s counts as an error (autocannon's default).
      timeout: 10,
      headers: { authorization: `Bearer ${httpToken}` },
      requests: query.paths.map((path) => ({ method: 'GET', path })),
    });
    instance.on('response', (_client, _status, _bytes, ms) => lat.push(ms));
    const result = await instance;
    lat.sort((a, b) => a - b);
    const pct = (p) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))] ?? Number.NaN;
    watching = false;
    await poller;
    // Requests the server still holds (answered after autocannon stopped) must not weigh on the next
    // measurement: wait until the health check is quick again.
    for (let k = 0; k < 600; k++) {
      const s = performance.now();
      const ok = await fetch(`${origin}/api/health`).then(
        (r) => r.arrayBuffer().then(() => r.ok),
        () => false,
      );
      if (ok && performance.now() - s < 100) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    health.sort((a, b) => a - b);
    const codes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));
    return {
      p50: pct(50),
      p95: pct(95),
      p99: pct(99),
      rps: lat.length / DURATION,
      errors: result.errors + result.timeouts,
      codes,
      health: health.length
        ? {
            n: health.length,
            p95: health[Math.floor(0.95 * (health.length - 1))],
            max: health[health.length - 1],
            failures: healthFailures,
          }
        : null,
    };
  }

  // PGlite: the floor runs in this process on the same data, before the server opens it.
  // Runs where nothing was answered have no percentiles: the median is of the runs that have them.
  const median = (xs) => {
    const ok = xs.filter(Number.isFinite).sort((a, b) => a - b);
    return ok.length ? ok[Math.floor(ok.length / 2)] : Number.NaN;
  };
  const medianOf = (runs) => ({
    p50: median(runs.map((r) => r.p50)),
    p95: median(runs.map((r) => r.p95)),
    p99: median(runs.map((r) => r.p99)),
    rps: median(runs.map((r) => r.rps)),
    errors: runs.reduce((s, r) => s + r.errors, 0),
    codes: runs.reduce((acc, r) => {
      for (const [k, v] of Object.entries(r.codes)) acc[k] = (acc[k] ?? 0) + v;
      return acc;
    }, {}),
    health: runs.find((r) => r.health)?.health ?? null,
  });
  const results = [];
  for (const query of queries) {
    for (const conns of CONNS) {
      const floors = [];
      const apis = [];
      for (let r = 0; r < REPEAT; r++) {
        if (!PGLITE) floors.push(await floorRun(query, conns));
        apis.push(await apiRun(query, conns, conns === Math.max(...CONNS) && query.key === 'nombre con error'));
      }
      const row = { query: query.key, conns, floor: floors.length ? medianOf(floors) : null, api: medianOf(apis) };
      results.push(row);
      say(line(row));
    }
  }
  if (UI) await uiWalk(origin);
  if (PGLITE) {
    // The embedded database has one connection and belongs to one process: its floor is measured after
    // the server stops, on the same folder, in this process.
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    child = undefined;
    await database.close();
    database = await openDatabase({ dataDir: join(tmp, 'db') });
    for (const row of results) {
      const query = queries.find((q) => q.key === row.query);
      const floors = [];
      for (let r = 0; r < REPEAT; r++) floors.push(await floorRun(query, row.conns));
      row.floor = medianOf(floors);
    }
  }
  await floorPool?.end();
  say('');
  say(
    `## ${PGLITE ? 'PGlite' : 'PostgreSQL'}, ${total} afiliados, ${DURATION} s por medición, mediana de ${REPEAT}, ${PROCS} proceso(s) de la API, raíz ${ROOT}`,
  );
  say('');
  say(
    '| consulta | conex. | API p50 | API p95 | API p99 | API req/s | piso p50 | piso p95 | piso req/s | API/piso req/s | códigos |',
  );
  say('| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --- |');
  for (const row of results) say(line(row, true));
  const h = results.find((r) => r.api.health)?.api.health;
  if (h)
    say(
      `\nSalud durante "nombre con error" a ${Math.max(...CONNS)} conexiones: ${h.n} consultas, p95 ${h.p95.toFixed(0)} ms, máx ${h.max.toFixed(0)} ms, fallidas ${h.failures}`,
    );
}

function line(row, table = false) {
  const f = (n) => (Number.isFinite(n) ? n.toFixed(1) : '—');
  const codes =
    Object.entries(row.api.codes)
      .map(([k, v]) => `${k}×${v}`)
      .join(' ') + (row.api.errors ? ` errores×${row.api.errors}` : '');
  const ratio = row.floor ? (row.api.rps / row.floor.rps).toFixed(2) : '—';
  const cells = [
    row.query,
    row.conns,
    f(row.api.p50),
    f(row.api.p95),
    f(row.api.p99),
    f(row.api.rps),
    f(row.floor?.p50),
    f(row.floor?.p95),
    f(row.floor?.rps),
    ratio,
    codes,
  ];
  return table ? `| ${cells.join(' | ')} |` : cells.join('  ');
}

/**
 * Chromium (Debian's, as the journeys) signs in as the bench user and pages the contributors list of the
 * whole table by key: five pages forwards, two back, the first page, then a department filter and on from
 * there. Prints the pager's text and the time from click to rows drawn; screenshots into UI.
 */
async function uiWalk(origin) {
  if (!existsSync(join(ROOT, 'apps/web/dist/index.html')))
    throw new Error('--ui necesita la aplicación web compilada: npm run build');
  const { chromium } = createRequire(join(ROOT, 'e2e/package.json'))('@playwright/test');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${origin}/auth/login`);
    await page.getByLabel('Correo electrónico').fill(BENCH_EMAIL);
    await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill(BENCH_PASSWORD);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.getByTestId('user-menu').waitFor();
    const pager = page.getByTestId('list-pager');
    const list = page.getByTestId('list-page');
    const firstCui = () => page.locator('table tbody tr').first().locator('td').nth(0).textContent();
    const pagerText = async () => (await pager.textContent()).split('Primera página')[0].trim();
    // A step is done when the pager shows its page, the list is no longer fetching and, when asked, the
    // first row is another than before (a filter typed while already on page 1).
    const step = async (label, act, pageNo, rowBefore) => {
      const started = performance.now();
      await act();
      await pager.getByText(new RegExp(`^Página ${pageNo} ·`)).waitFor({ timeout: 30_000 });
      await list.and(page.locator('[aria-busy="false"]')).waitFor({ timeout: 30_000 });
      if (rowBefore !== undefined) {
        while ((await firstCui()) === rowBefore) {
          if (performance.now() - started > 30_000) throw new Error(`${label}: la lista no cambió`);
          await page.waitForTimeout(20);
        }
      }
      const ms = performance.now() - started;
      say(
        `  ${label.padEnd(34)} ${String(Math.round(ms)).padStart(5)} ms  ${await pagerText()}  primera fila: ${(await firstCui())?.trim()}`,
      );
    };
    say('');
    say(`Chromium por la lista de afiliados (${origin}):`);
    await step('abrir la lista', () => page.goto(`${origin}/contributors/list`), 1);
    const first = await firstCui();
    for (let n = 2; n <= 6; n++)
      await step(`siguiente → página ${n}`, () => pager.getByRole('button', { name: 'Siguiente' }).click(), n);
    await page.screenshot({ path: join(UI, 'lista-millon-pagina-6.png') });
    const sixth = await firstCui();
    await step('anterior → página 5', () => pager.getByRole('button', { name: 'Anterior' }).click(), 5);
    await step('anterior → página 4', () => pager.getByRole('button', { name: 'Anterior' }).click(), 4);
    await step('siguiente → página 5', () => pager.getByRole('button', { name: 'Siguiente' }).click(), 5);
    await step('siguiente → página 6 (la misma)', () => pager.getByRole('button', { name: 'Siguiente' }).click(), 6);
    if ((await firstCui()) !== sixth) throw new Error('la página 6 por clave no tiene las mismas filas');
    await step('primera página', () => pager.getByRole('button', { name: 'Primera página' }).click(), 1);
    if ((await firstCui()) !== first) throw new Error('la primera página no tiene las mismas filas');
    const before = await firstCui();
    await step(
      'buscar «garcia» (vuelve a la página 1)',
      () => page.getByRole('textbox', { name: 'Buscar', exact: true }).fill('garcia'),
      1,
      before,
    );
    await step('siguiente → página 2', () => pager.getByRole('button', { name: 'Siguiente' }).click(), 2);
    await step('anterior → página 1', () => pager.getByRole('button', { name: 'Anterior' }).click(), 1);
    await page.screenshot({ path: join(UI, 'lista-millon-filtro.png') });
    say(`  capturas: ${join(UI, 'lista-millon-pagina-6.png')}, ${join(UI, 'lista-millon-filtro.png')}`);
  } finally {
    await browser.close();
  }
}

/** Migrates the new database, seeds the reference data and loads ROWS contributors with COPY. */
async function load(db) {
  await database.migrate();
  await seedReference(database.db);
  const { munis, entityOf } = await entityPerMunicipality(db, { root: ROOT });
  const types = await db.select().from(schema.contributorTypes);
  await addBenchUser(db, { root: ROOT });

  // Rows: each block of 50 000 shares one created/updated time (a bulk import); one row in seven was
  // edited later and has a time of its own.
  const base = Date.UTC(2020, 0, 1);
  const csvField = (v) => (v == null ? '' : v);
  function* lines() {
    const cuis = cuiBodies(cuiCheckDigit);
    let batch = [];
    for (let i = 0; i < ROWS; i++) {
      const m = munis[i % munis.length];
      const f1 = pickFirst();
      let f2 = rand() < 0.7 ? pickFirst() : null;
      if (f2 === f1) f2 = null;
      const s1 = pickSurname();
      const s2 = rand() < 0.9 ? pickSurname() : null;
      const searchName = foldName([f1, f2, s1, s2].filter(Boolean).join(' '));
      const block = Math.floor(i / 50_000);
      const at = new Date(i % 7 === 0 ? base + block * 86_400_000 + Math.floor(rand() * 86_400_000) : base + block * 86_400_000);
      const birth = new Date(Date.UTC(1950, 0, 1) + Math.floor(rand() * 18_000) * 86_400_000).toISOString().slice(0, 10);
      batch.push(
        [
          `${cuis.next().value}${m.code}`,
          f1,
          csvField(f2),
          s1,
          csvField(s2),
          searchName,
          birth,
          rand() < 0.5 ? 'F' : 'M',
          types[i % types.length].id,
          entityOf.get(m.id),
          m.id,
          i % 10 === 0 ? 'INACTIVO' : 'ACTIVO',
          'APROBADO',
          at.toISOString(),
          at.toISOString(),
        ].join('\t'),
      );
      if (batch.length === 5000) {
        yield `${batch.join('\n')}\n`;
        batch = [];
      }
    }
    if (batch.length) yield `${batch.join('\n')}\n`;
  }
  const columns =
    'cui, first_name, second_name, first_surname, second_surname, search_name, birth_date, sex, type_id, entity_id, municipality_id, state, cui_state, created_at, updated_at';
  if (PGLITE) {
    const client = db.$client;
    for (let start = 0, gen = lines(); start < ROWS; start += 50_000) {
      const parts = [];
      for (let k = 0; k < 10; k++) {
        const next = gen.next();
        if (next.done) break;
        parts.push(next.value);
      }
      if (!parts.length) break;
      await client.query(`COPY contributors (${columns}) FROM '/dev/blob' WITH (NULL '')`, [], { blob: new Blob(parts) });
    }
    await client.query('VACUUM ANALYZE');
  } else {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await pipeline(Readable.from(lines()), c.query(copyFrom(`COPY contributors (${columns}) FROM STDIN WITH (NULL '')`)));
    await c.query('VACUUM ANALYZE');
    await c.end();
  }
}
