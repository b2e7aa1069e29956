// Bulk upload of contributors: generates a 50 000-row file, validates and commits it through the real
// app (buildApp + app.inject) on a fresh embedded database (or PostgreSQL with BENCH_DATABASE_URL),
// then times list searches over the result. Prints seconds and peak RSS.
//
//   node --import tsx bench/contributors-bulk.mjs [rows=50000] [xlsx|csv]
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/contributors-bulk.mjs
import { benchApp, benchEntity, loadApi, mb, multipart, openBenchDatabase, rssPeak, say, sheetFile, timer } from './lib.mjs';

const rows = Number(process.argv[2] ?? 50_000);
const format = process.argv[3] ?? 'xlsx';
const { formatCui, makeCui } = await import('@aporta/domain');
const ExcelJS = (await import('exceljs')).default;
// The API loads before the database, as it always has (loadApi in lib.mjs says why).
await loadApi();
const schema = await import('../apps/api/src/db/schema/index.ts');

const rss = rssPeak();
const time = timer({ pad: 34, note: () => `   (RSS pico hasta ahora ${mb(rss.peak)})` });

const { database, dir, dispose } = await openBenchDatabase();
const db = database.db;
const { mun } = await benchEntity(db);
await db
  .insert(schema.budgetLines)
  .values({ code: '011', name: 'Personal permanente', isSubjectToContribution: true })
  .onConflictDoNothing();
// The upload's validation and commit are jobs.
const { app, headers: auth } = await benchApp(database, { startJobs: true });

// The file: every 50th row carries a mistake, as real uploads do.
const munCodes = (await db.select({ code: schema.municipalities.code }).from(schema.municipalities)).map((m) => m.code);
const names = ['María', 'José', 'Ana', 'Juan', 'Rosa', 'Carlos', 'Lucía', 'Pedro'];
const surnames = ['López', 'García', 'Pérez', 'Xicará', 'Tzul', 'Méndez', 'Cux', 'Batz'];
const header = [
  'CUI',
  'NIT',
  'PRIMER_NOMBRE',
  'SEGUNDO_NOMBRE',
  'PRIMER_APELLIDO',
  'SEGUNDO_APELLIDO',
  'FECHA_NACIMIENTO',
  'SEXO',
  'TIPO',
  'ENTIDAD',
  'RENGLON',
  'FECHA_INGRESO',
  'SALARIO',
  'MUNICIPIO',
];
const row = (i) => {
  const cui = makeCui(20_000_000 + i * 37, munCodes[i % munCodes.length]);
  return [
    i % 50 === 49 ? '1680352240101' : formatCui(cui),
    '576937-K',
    names[i % 8],
    names[(i >> 3) % 8],
    surnames[(i >> 2) % 8],
    surnames[(i >> 5) % 8],
    `${String(1 + (i % 28)).padStart(2, '0')}/${String(1 + (i % 12)).padStart(2, '0')}/${1960 + (i % 40)}`,
    i % 2 ? 'M' : 'F',
    'ACTIVO',
    'E-0101',
    '011',
    `${String(1 + (i % 28)).padStart(2, '0')}/03/2015`,
    (3000 + (i % 5000)).toFixed(2),
    munCodes[i % munCodes.length],
  ];
};
// Streaming writer to a file (xlsx): the generator must not inflate the memory being measured.
const [file] = await time(`generar ${rows} filas (${format})`, () =>
  sheetFile({ ExcelJS, format, header, rows, rowOf: row, dir, sheet: 'Afiliados', fileName: 'afiliados.xlsx' }),
);
say(`tamaño del archivo                 ${mb(file.length)}`);
const { payload, contentType } = multipart(file, `afiliados.${format}`);
const rssBefore = process.memoryUsage().rss;
rss.peak = rssBefore;
// The upload answers once the file is read (201, VALIDANDO); the validation continues as a background
// run and the browser polls the batch, as here (every 700 ms, the screen's rate), until it leaves VALIDANDO.
const t0 = performance.now();
const [accepted, readSeconds] = await time('  subida + lectura (petición)', () =>
  app.inject({
    method: 'POST',
    url: '/api/contributor-imports',
    headers: { ...auth, 'content-type': contentType },
    payload,
  }),
);
if (accepted.statusCode !== 201) throw new Error(`carga: ${accepted.statusCode} ${accepted.body}`);
const id = accepted.json().id;
let v;
for (;;) {
  const res = await app.inject({ method: 'GET', url: `/api/contributor-imports/${id}`, headers: auth });
  v = res.json();
  if (v.status !== 'VALIDANDO') break;
  await new Promise((r) => setTimeout(r, 700));
}
const validateSeconds = (performance.now() - t0) / 1000;
say(
  `${'validar (carga + validación)'.padEnd(34)} ${validateSeconds.toFixed(2)} s   (RSS pico hasta ahora ${mb(rss.peak)}; lectura ${readSeconds.toFixed(2)} s)`,
);
if (v.status !== 'VALIDADO') throw new Error(`validación: ${v.status} ${v.message}`);
say(`  filas válidas ${v.validRows}, excepciones ${v.errorRows}`);
const peakValidate = rss.peak;
// The commit is a job too (issue 10): the request answers 202 CONFIRMANDO at once and the browser polls
// the batch (700 ms) until it leaves CONFIRMANDO. "confirmar" is from the request to CONFIRMADO.
const [committed, commitSeconds] = await time('confirmar (proceso, una transacción)', async () => {
  const asked = await app.inject({ method: 'POST', url: `/api/contributor-imports/${v.id}/commit`, headers: auth });
  if (asked.statusCode !== 202) throw new Error(`confirmación: ${asked.statusCode} ${asked.body}`);
  for (;;) {
    const res = await app.inject({ method: 'GET', url: `/api/contributor-imports/${v.id}`, headers: auth });
    if (res.json().status !== 'CONFIRMANDO') return res;
    await new Promise((r) => setTimeout(r, 700));
  }
});
if (committed.json().status !== 'CONFIRMADO')
  throw new Error(`confirmación: ${committed.json().status} ${committed.json().message}`);
say(`  afiliados guardados ${committed.json().committedRows}`);

const search = async (label, qs) => {
  await app.inject({ method: 'GET', url: `/api/contributors?${qs}`, headers: auth }); // warm
  const t0 = performance.now();
  const n = 5;
  let res;
  for (let k = 0; k < n; k++) res = await app.inject({ method: 'GET', url: `/api/contributors?${qs}`, headers: auth });
  const ms = (performance.now() - t0) / n;
  say(`búsqueda ${label.padEnd(25)} ${ms.toFixed(0)} ms  (total ${res.json().total})`);
};
const sample = row(1234)[0].replace(/ /g, '');
await search('CUI exacto', `q=${sample}`);
await search('prefijo de CUI (6)', `q=${sample.slice(0, 6)}`);
await search('nombre aproximado', `q=${encodeURIComponent('jose xicara')}`);
await search('nombre con error', `q=${encodeURIComponent('lusia mendes')}`);
await search('página 100 sin filtro', 'page=100&pageSize=25');
await search('filtro municipio+estado', `municipalityId=${mun.id}&state=ACTIVO`);

rss.stop();
say('');
say(
  `RESUMEN ${rows} filas ${format} (${database.kind}): validar ${validateSeconds.toFixed(2)} s, confirmar ${commitSeconds.toFixed(2)} s, RSS pico ${mb(Math.max(rss.peak, peakValidate))} (antes de cargar ${mb(rssBefore)})`,
);
await app.close();
await dispose();
