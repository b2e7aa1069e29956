// Bulk upload of contributors: generates a 50 000-row file, validates and commits it through the real
// app (buildApp + app.inject) on a fresh embedded database (or PostgreSQL with BENCH_DATABASE_URL),
// then times list searches over the result. Prints seconds and peak RSS.
//
//   node --import tsx bench/contributors-bulk.mjs [rows=50000] [xlsx|csv]
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/contributors-bulk.mjs
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBenchDatabase } from './lib.mjs';

const rows = Number(process.argv[2] ?? 50_000);
const format = process.argv[3] ?? 'xlsx';
const { formatCui, makeCui } = await import('@aporta/domain');
const ExcelJS = (await import('exceljs')).default;
const { buildApp } = await import('../apps/api/src/app.ts');
const { loadConfig } = await import('../apps/api/src/config.ts');
const schema = await import('../apps/api/src/db/schema/index.ts');
const { hashPassword } = await import('../apps/api/src/platform/passwords.ts');
const { eq } = await import('drizzle-orm');

let peak = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 50);
const mb = (b) => `${(b / 1024 / 1024).toFixed(0)} MB`;
const say = (s) => process.stdout.write(`${s}\n`);
const time = async (label, fn) => {
  const t0 = performance.now();
  const out = await fn();
  const s = (performance.now() - t0) / 1000;
  say(`${label.padEnd(34)} ${s.toFixed(2)} s   (RSS pico hasta ahora ${mb(peak)})`);
  return [out, s];
};

const { database, dir, dispose } = await openBenchDatabase();
const db = database.db;
const [mun] = await db.select().from(schema.municipalities).where(eq(schema.municipalities.code, '0101'));
const [cls] = await db.insert(schema.classifications).values({ code: 'MUNI', name: 'Municipalidad' }).returning();
await db
  .insert(schema.municipalEntities)
  .values({ code: 'E-0101', name: 'Municipalidad de Guatemala', classificationId: cls.id, municipalityId: mun.id });
await db
  .insert(schema.budgetLines)
  .values({ code: '011', name: 'Personal permanente', isSubjectToContribution: true })
  .onConflictDoNothing();
const [sys] = await db.select().from(schema.institutions).where(eq(schema.institutions.code, 'SISTEMA'));
const [user] = await db
  .insert(schema.users)
  .values({ email: 'bench@aporta.local', passwordHash: await hashPassword('Bench-Clave-2026') })
  .returning();
await db.insert(schema.userInstitutions).values({ userId: user.id, institutionId: sys.id });

const config = { ...loadConfig({ NODE_ENV: 'test', LOGIN_RATE_PER_MINUTE: '1000' }), webDist: '' };
const app = await buildApp({ config, database });
await app.ready();
const login = await app.inject({
  method: 'POST',
  url: '/api/auth/login',
  payload: { email: 'bench@aporta.local', password: 'Bench-Clave-2026' },
});
const token = login.json().token;
const auth = { authorization: `Bearer ${token}` };

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
const [file] = await time(`generar ${rows} filas (${format})`, async () => {
  if (format === 'csv')
    return Buffer.from(
      `\uFEFF${[header, ...Array.from({ length: rows }, (_, i) => row(i))].map((r) => r.join(';')).join('\r\n')}\r\n`,
    );
  // Streaming writer to a file: the generator must not inflate the memory being measured.
  const filename = join(dir, 'afiliados.xlsx');
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename, useSharedStrings: true });
  const ws = wb.addWorksheet('Afiliados');
  ws.addRow(header).commit();
  for (let i = 0; i < rows; i++) ws.addRow(row(i)).commit();
  ws.commit();
  await wb.commit();
  return readFileSync(filename);
});
say(`tamaño del archivo                 ${mb(file.length)}`);
const boundary = `----bench${randomUUID()}`;
const payload = Buffer.concat([
  Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="afiliados.${format}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  ),
  file,
  Buffer.from(`\r\n--${boundary}--\r\n`),
]);
const rssBefore = process.memoryUsage().rss;
peak = rssBefore;
// The upload answers once the file is read (201, VALIDANDO); the validation continues as a background
// run and the browser polls the batch, as here (every 700 ms, the screen's rate), until it leaves VALIDANDO.
const t0 = performance.now();
const [accepted, readSeconds] = await time('  subida + lectura (petición)', () =>
  app.inject({
    method: 'POST',
    url: '/api/contributor-imports',
    headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
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
  `${'validar (carga + validación)'.padEnd(34)} ${validateSeconds.toFixed(2)} s   (RSS pico hasta ahora ${mb(peak)}; lectura ${readSeconds.toFixed(2)} s)`,
);
if (v.status !== 'VALIDADO') throw new Error(`validación: ${v.status} ${v.message}`);
say(`  filas válidas ${v.validRows}, excepciones ${v.errorRows}`);
const peakValidate = peak;
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

clearInterval(sampler);
say('');
say(
  `RESUMEN ${rows} filas ${format} (${database.kind}): validar ${validateSeconds.toFixed(2)} s, confirmar ${commitSeconds.toFixed(2)} s, RSS pico ${mb(Math.max(peak, peakValidate))} (antes de cargar ${mb(rssBefore)})`,
);
await app.close();
await dispose();
