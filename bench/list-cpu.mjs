// Node CPU per list request (issue 11): what the API process spends on one contributors list or search
// request above the SQL it runs. On a machine shared with other work wall-clock latency says little, so
// this measures CPU time (process.cpuUsage) of this process per request, one request at a time.
//
// A PostgreSQL database it creates (the database's own CPU is another process and is not counted) with
// N contributors (default 20 000; varied names, valid CUIs); the real app (`buildApp`) answers through
// `app.inject` (no sockets: the same hooks, validation, handler and serialisation). For each request the
// floor is the same SQL statements the API ran (captured once), replayed on the same pg pool: what is left
// is Fastify, zod, Drizzle and the response.
//
//   node --import tsx bench/list-cpu.mjs                      # 20 000 rows, 2 000 requests per kind
//   node --import tsx bench/list-cpu.mjs --rows=20000 --n=3000 --root=<checkout>   # measure another checkout
//   node --import tsx bench/list-cpu.mjs --only='página 1,nombre' --profile=/tmp/prof   # a .cpuprofile of the API loop
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres (default)
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import {
  addBenchUser,
  ROOT as BENCH_ROOT,
  benchApp,
  checkout,
  cuiBodies,
  entityPerMunicipality,
  loadApi,
  parseArgs,
  pgDatabase,
  say,
} from './lib.mjs';
import { FIRST_NAMES, SURNAMES } from './names.mjs';

const args = parseArgs();
const ROWS = Number(args.rows ?? 20_000);
const N = Number(args.n ?? 2_000);
const ROOT = resolve(args.root ?? BENCH_ROOT);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const { mod, apiRequire } = checkout(ROOT);
const pg = apiRequire('pg');
// The API loads before the database, as it always has (loadApi in lib.mjs says why).
await loadApi(ROOT);
const { openDatabase } = await mod('apps/api/src/db/client.ts');
const { seedReference } = await mod('apps/api/src/seed/index.ts');
const schema = await mod('apps/api/src/db/schema/index.ts');
const { cuiCheckDigit, foldName, nitCheckCharacter } = await mod('packages/domain/src/index.ts');

let seed = 20261124;
const rand = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const pick = (a) => a[Math.floor(rand() * a.length)];

const dbName = `aporta_cpu_${process.pid}`;
const { admin, url } = await pgDatabase(ADMIN_URL, dbName);
const database = await openDatabase({ url, poolSize: 4 });
try {
  await run();
} finally {
  await database.close().catch(() => {});
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch((e) => say(`DROP: ${e.message}`));
  await admin.end();
}

async function run() {
  await database.migrate();
  await seedReference(database.db);
  const db = database.db;
  const { munis, entityOf } = await entityPerMunicipality(db, { root: ROOT });
  const types = await db.select().from(schema.contributorTypes);
  await addBenchUser(db, { root: ROOT });

  function* lines() {
    const cuis = cuiBodies(cuiCheckDigit);
    const batch = [];
    for (let i = 0; i < ROWS; i++) {
      const m = munis[i % munis.length];
      const f1 = pick(FIRST_NAMES);
      const f2 = rand() < 0.7 ? pick(FIRST_NAMES) : '';
      const s1 = pick(SURNAMES);
      const s2 = rand() < 0.9 ? pick(SURNAMES) : '';
      const nitBody = String(1_000_000 + i * 7);
      const at = new Date(Date.UTC(2020, 0, 1) + Math.floor(rand() * 1e10)).toISOString();
      batch.push(
        [
          `${cuis.next().value}${m.code}`,
          nitBody + nitCheckCharacter(nitBody),
          f1,
          f2,
          s1,
          s2,
          foldName([f1, f2, s1, s2].filter(Boolean).join(' ')),
          new Date(Date.UTC(1950, 0, 1) + Math.floor(rand() * 18_000) * 86_400_000).toISOString().slice(0, 10),
          rand() < 0.5 ? 'F' : 'M',
          types[i % types.length].id,
          entityOf.get(m.id),
          m.id,
          `Calle ${i % 40}, zona ${i % 20}`,
          `5${String(i).padStart(7, '0')}`,
          `persona${i}@correo.gt`,
          (2500 + (i % 9000)).toFixed(2),
          i % 10 === 0 ? 'INACTIVO' : 'ACTIVO',
          'APROBADO',
          at,
          at,
        ].join('\t'),
      );
      if (batch.length === 5000) yield `${batch.splice(0).join('\n')}\n`;
    }
    if (batch.length) yield `${batch.join('\n')}\n`;
  }
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await pipeline(
    Readable.from(lines()),
    c.query(
      copyFrom(
        `COPY contributors (cui, nit, first_name, second_name, first_surname, second_surname, search_name, birth_date, sex,
          type_id, entity_id, municipality_id, address, phone, email, salary, state, cui_state, created_at, updated_at)
         FROM STDIN WITH (NULL '')`,
      ),
    ),
  );
  await c.query('VACUUM ANALYZE');
  await c.end();

  const { app, headers } = await benchApp(database, {
    root: ROOT,
    env: { NODE_ENV: 'production', LOGIN_RATE_PER_MINUTE: '100000', DATABASE_URL: url, DATA_DIR: '/tmp/aporta-cpu-unused' },
    addUser: false,
  });
  const get = (url) => app.inject({ method: 'GET', url, headers });
  const sample = (await db.execute('select cui, nit, search_name from contributors where id % 97 = 3 order by id limit 20')).rows;
  const first = (await get('/api/contributors?pageSize=25')).json();
  const queries = [
    { key: 'página 1', paths: ['/api/contributors?pageSize=25'] },
    { key: 'página siguiente', paths: [`/api/contributors?pageSize=25&after=${first.next}`] },
    { key: 'CUI exacto', paths: sample.map((s) => `/api/contributors?pageSize=25&q=${s.cui}`) },
    { key: 'prefijo CUI', paths: sample.map((s) => `/api/contributors?pageSize=25&q=${s.cui.slice(0, 8)}`) },
    {
      key: 'nombre',
      paths: sample.map(
        (s) => `/api/contributors?pageSize=25&q=${encodeURIComponent(s.search_name.split(' ').slice(0, 2).join(' '))}`,
      ),
    },
    { key: 'paleta', paths: sample.map((s) => `/api/contributors/search?q=${encodeURIComponent(s.search_name.split(' ')[0])}`) },
  ].filter((q) => !args.only || args.only.split(',').includes(q.key));

  // The statements each request runs (the session's own left out), captured on the pg client.
  const captured = [];
  let capturing = false;
  const authTables = /from "(sessions|users|user_institutions|role_grants|user_roles|institution_roles)"|update "sessions"/i;
  const q = pg.Client.prototype.query;
  pg.Client.prototype.query = function (config, values, cb) {
    if (capturing) {
      const text = typeof config === 'string' ? config : config?.text;
      if (text && !authTables.test(text))
        captured.push({ text, values: (typeof config === 'object' && config.values) || values || [], name: config?.name });
    }
    return q.call(this, config, values, cb);
  };
  for (const query of queries) {
    query.floor = [];
    for (const path of query.paths) {
      captured.length = 0;
      capturing = true;
      const res = await get(path);
      capturing = false;
      if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      query.floor.push(captured.splice(0));
    }
  }
  pg.Client.prototype.query = q;
  const floorPool = new pg.Pool({ connectionString: url, max: 1 });
  const replay = async (stmts) => {
    const client = await floorPool.connect();
    try {
      for (const s of stmts)
        await client.query(s.name ? { name: s.name, text: s.text, values: s.values } : { text: s.text, values: s.values });
    } finally {
      client.release();
    }
  };

  const measure = async (fn) => {
    for (let i = 0; i < Math.min(300, N); i++) await fn(i); // warm-up: JIT, prepared statements, caches
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) await fn(i);
    const cpu = process.cpuUsage(cpu0);
    return { cpuMs: (cpu.user + cpu.system) / 1000 / N, wallMs: (performance.now() - t0) / N };
  };
  say(`\n## CPU de Node por petición (${ROWS} afiliados en PostgreSQL, ${N} peticiones seguidas, una a la vez), raíz ${ROOT}\n`);
  say('| consulta | sentencias | API CPU ms/pet. | piso CPU ms/pet. | API − piso | API pared ms | piso pared ms |');
  say('| --- | --: | --: | --: | --: | --: | --: |');
  for (const query of queries) {
    const session = args.profile ? await startProfile() : null;
    const api = await measure(async (i) => {
      const res = await get(query.paths[i % query.paths.length]);
      if (res.statusCode !== 200) throw new Error(`${res.statusCode}`);
    });
    if (session) await stopProfile(session, join(args.profile, `${query.key.replace(/\W+/g, '-')}.cpuprofile`));
    const floor = await measure((i) => replay(query.floor[i % query.floor.length]));
    const f = (n) => n.toFixed(3);
    say(
      `| ${query.key} | ${query.floor[0].length} | ${f(api.cpuMs)} | ${f(floor.cpuMs)} | ${f(api.cpuMs - floor.cpuMs)} | ${f(api.wallMs)} | ${f(floor.wallMs)} |`,
    );
  }
  await floorPool.end();
  await app.close();
}

async function startProfile() {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  return session;
}

async function stopProfile(session, file) {
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  mkdirSync(resolve(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(profile));
  say(`(perfil: ${file})`);
}
