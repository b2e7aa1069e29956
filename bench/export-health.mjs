// A large export must not freeze the server: loads N contributors (300 000 by default) with valid CUIs
// into a fresh embedded PGlite data folder, starts the real server on a loopback port, and runs an
// unfiltered xlsx export and then a csv export of all of them while GET /api/health is polled every
// 100 ms. Prints the export's duration, rows and bytes, the health latency p50/p95/max, and the delay of the
// server's event loop (monitorEventLoopDelay: how long the main thread was held at a stretch).
//
//   node --import tsx bench/export-health.mjs [rows=300000]
//   BENCH_ANALYZE=1 node --import tsx bench/export-health.mjs   # with planner statistics after the load
// PostgreSQL is not measured here: the point is the single connection of the embedded PGlite.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { addBenchUser, benchApp, benchEntity, loadApi, mb, openBenchDatabase, say } from './lib.mjs';

const rows = Number(process.argv[2] ?? 300_000);
// The API loads before the database, as it always has (loadApi in lib.mjs says why).
await loadApi();
const schema = await import('../apps/api/src/db/schema/index.ts');
const { sql } = await import('drizzle-orm');

const { database, dir, dispose } = await openBenchDatabase({ pglite: true, prefix: 'aporta-export-bench-' });
const db = database.db;

// Reference rows the contributors point to, and a super administrator to export as.
const { mun, entity } = await benchEntity(db);
const [type] = await db
  .insert(schema.contributorTypes)
  .values({ code: 'BENCH', name: 'Activo (bench)' })
  .onConflictDoNothing()
  .returning();
const typeId = type?.id ?? (await db.select().from(schema.contributorTypes).limit(1))[0].id;
await addBenchUser(db);

// Valid CUIs computed in SQL: 8-digit serial, check digit = Σ digit·(position+1) mod 11 (serials whose
// remainder is 10 have no CUI and are skipped), municipality 0101. Inserted in large INSERT … SELECT
// statements of 50 000 rows.
let t0 = performance.now();
const chunk = 50_000;
let serial = 1;
for (let start = 0; start < rows; start += chunk) {
  const n = Math.min(chunk, rows - start);
  // One serial in eleven has no check digit: 15 % more serials than rows, never shared between chunks.
  const span = Math.ceil(n * 1.15);
  await db.execute(sql`
    insert into contributors (cui, first_name, second_name, first_surname, second_surname, search_name, birth_date, sex,
                              type_id, entity_id, municipality_id, budget_line_code, hire_date, salary, state, cui_state)
    select body || chk || '0101',
           (array['MARIA','JOSE','ANA','JUAN','ROSA','CARLOS','LUCIA','PEDRO'])[1 + g % 8],
           (array['ELENA','LUIS','SOFIA','MIGUEL'])[1 + g % 4],
           (array['LOPEZ','GARCIA','PEREZ','XICARA','TZUL','MENDEZ','CUX','BATZ'])[1 + (g / 8) % 8],
           (array['AJANEL','RAMIREZ','CHOC','MORALES'])[1 + (g / 64) % 4],
           (array['MARIA','JOSE','ANA','JUAN','ROSA','CARLOS','LUCIA','PEDRO'])[1 + g % 8] || ' ' ||
             (array['ELENA','LUIS','SOFIA','MIGUEL'])[1 + g % 4] || ' ' ||
             (array['LOPEZ','GARCIA','PEREZ','XICARA','TZUL','MENDEZ','CUX','BATZ'])[1 + (g / 8) % 8] || ' ' ||
             (array['AJANEL','RAMIREZ','CHOC','MORALES'])[1 + (g / 64) % 4],
           date '1960-01-01' + (g % 14000), case when g % 2 = 0 then 'F' else 'M' end,
           ${typeId}::int, ${entity.id}::int, ${mun.id}::int, null, date '2015-03-01' + (g % 3000), 3000 + (g % 5000), 'ACTIVO', 'APROBADO'
    from (
      select g, body, (select sum(substr(body, i, 1)::int * (i + 1)) % 11 from generate_series(1, 8) i) as chk
      from (select g, lpad((10000000 + g)::text, 8, '0') as body
            from generate_series(${serial}::int, ${serial + span - 1}::int) g) s
    ) c
    where chk < 10
    order by g
    limit ${n}::int`);
  serial += span;
}
const [{ total }] = await db.select({ total: sql`count(*)::int` }).from(schema.contributors);
say(`cargados ${total} afiliados en ${((performance.now() - t0) / 1000).toFixed(1)} s (PGlite en ${dir})`);
// PGlite has no autovacuum daemon, so nothing gathers planner statistics after a bulk load unless asked:
// BENCH_ANALYZE=1 measures with them (planning a chunk's query drops from ~20 ms to under 1 ms).
if (process.env.BENCH_ANALYZE === '1') {
  await db.execute(sql`analyze`);
  say('ANALYZE hecho');
}

// The job worker on, as in production.
const { app, headers } = await benchApp(database, { env: { NODE_ENV: 'production' }, startJobs: true, addUser: false });
await app.listen({ host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${app.server.address().port}`;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** One export while health is polled every 100 ms (each poll waits for the previous answer). */
async function exportWithHealth(format) {
  const latencies = [];
  let running = true;
  const poller = (async () => {
    while (running) {
      const s = performance.now();
      const res = await fetch(`${base}/api/health`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`health ${res.status}`);
      latencies.push(performance.now() - s);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  t0 = performance.now();
  const res = await fetch(`${base}/api/contributors/export?format=${format}`, { headers });
  if (res.status !== 200) throw new Error(`export ${format}: ${res.status} ${await res.text()}`);
  let bytes = 0;
  let newlines = 0;
  const firstByte = performance.now() - t0;
  for await (const part of res.body) {
    bytes += part.length;
    if (format === 'csv') for (const b of part) if (b === 10) newlines += 1;
  }
  const seconds = (performance.now() - t0) / 1000;
  loop.disable();
  const loopP99 = loop.percentile(99) / 1e6;
  const loopMax = loop.max / 1e6;
  running = false;
  await poller;
  const sorted = [...latencies].sort((a, b) => a - b);
  const dataRows = format === 'csv' ? newlines - 1 : null;
  say(
    `${format.padEnd(4)} ${seconds.toFixed(1)} s, primer byte ${firstByte.toFixed(0)} ms, ${mb(bytes, 1)}${
      dataRows === null ? '' : `, ${dataRows} filas`
    } | health: ${sorted.length} consultas, p50 ${percentile(sorted, 50).toFixed(0)} ms, p95 ${percentile(sorted, 95).toFixed(
      0,
    )} ms, máx ${sorted.at(-1).toFixed(0)} ms | bucle de eventos p99 ${loopP99.toFixed(0)} ms, máx ${loopMax.toFixed(0)} ms | RSS ${mb(
      process.memoryUsage().rss,
      1,
    )}`,
  );
  return { seconds, bytes, dataRows, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) };
}

const xlsx = await exportWithHealth('xlsx');
const csv = await exportWithHealth('csv');
const ok = Math.max(xlsx.p95, csv.p95) < 200;
say(
  `RESUMEN ${total} afiliados (PGlite): xlsx ${xlsx.seconds.toFixed(1)} s, csv ${csv.seconds.toFixed(1)} s (${csv.dataRows} filas); ` +
    `health p95 ${Math.max(xlsx.p95, csv.p95).toFixed(0)} ms, máx ${Math.max(xlsx.max, csv.max).toFixed(0)} ms — meta p95 < 200 ms: ${ok ? 'cumple' : 'NO cumple'}`,
);
await app.close();
await dispose();
