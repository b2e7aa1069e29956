// Planillas (issue 12): a 50 000-line planilla uploaded, validated and calculated through the real app
// (buildApp + app.inject) on a fresh embedded database (or PostgreSQL with BENCH_DATABASE_URL); then a
// page of its lines (plain, searched, issues only), the submit (a job: whole re-validation) and the approval.
// Prints seconds and peak RSS. The 30-year contributor history over 10 M lines is bench/planillas-history.mjs.
//
//   node --import tsx bench/planillas.mjs [lines=50000] [csv|xlsx]
import {
  addBenchUser,
  benchApp,
  benchEntity,
  benchLogin,
  loadApi,
  mb,
  multipart,
  openBenchDatabase,
  rssPeak,
  say,
  sheetFile,
  timer,
} from './lib.mjs';

const rows = Number(process.argv[2] ?? 50_000);
const format = process.argv[3] ?? 'csv';
const { makeCui, periodOf, guatemalaToday, previousPeriod } = await import('@aporta/domain');
const ExcelJS = (await import('exceljs')).default;
// The API loads before the database, as it always has (loadApi in lib.mjs says why).
await loadApi();

const rss = rssPeak();
const time = timer({ pad: 40, note: () => `   (RSS pico ${mb(rss.peak)})` });

const { database, dir, dispose } = await openBenchDatabase();
const db = database.db;
const { entity } = await benchEntity(db);
// A clerk uploads and submits, a reviewer approves; the uploads and the submit are jobs.
await addBenchUser(db, { email: 'clerk@aporta.local' });
await addBenchUser(db, { email: 'reviewer@aporta.local' });
const { app, headers: clerk } = await benchApp(database, { email: 'clerk@aporta.local', addUser: false, startJobs: true });
const reviewer = await benchLogin(app, 'reviewer@aporta.local');

// The file: the largest municipality's payroll; every 500th line carries a mistake (fixed before submitting).
const period = previousPeriod(periodOf(guatemalaToday()));
const lines = ['011', '022', '031', '029'];
const header = ['CUI', 'NOMBRE', 'RENGLON', 'SALARIO', 'DIAS_LABORADOS'];
const row = (i) => [
  makeCui(30_000_000 + i * 37, '0101'),
  `Empleado Municipal ${i}`,
  lines[i % 4],
  i % 500 === 499 ? 'mil' : (3000 + (i % 9000) + (i % 100) / 100).toFixed(2),
  '30',
];
const [file] = await time(`generar ${rows} líneas (${format})`, () =>
  sheetFile({ ExcelJS, format, header, rows, rowOf: row, dir, sheet: 'Planilla', fileName: 'planilla.xlsx' }),
);
say(`tamaño del archivo                       ${mb(file.length)}`);
const { payload, contentType } = multipart(file, `planilla.${format}`);
rss.peak = process.memoryUsage().rss;
const t0 = performance.now();
const accepted = await app.inject({
  method: 'POST',
  url: `/api/planilla-uploads?entityId=${entity.id}&period=${period}`,
  headers: { ...clerk, 'content-type': contentType },
  payload,
});
if (accepted.statusCode !== 201) throw new Error(`carga: ${accepted.statusCode} ${accepted.body}`);
let v;
for (;;) {
  v = (await app.inject({ method: 'GET', url: `/api/planilla-uploads/${accepted.json().id}`, headers: clerk })).json();
  if (v.status !== 'VALIDANDO') break;
  await new Promise((r) => setTimeout(r, 200));
}
const validated = (performance.now() - t0) / 1000;
say(`${'subida + lectura + validación'.padEnd(40)} ${validated.toFixed(2)} s   (RSS pico ${mb(rss.peak)})`);
if (v.status !== 'VALIDADO') throw new Error(`validación: ${v.status} ${v.message}`);
say(`  filas válidas ${v.validRows}, excepciones ${v.errorRows}`);
// The commit is a job (issue 10): the request answers 202 CONFIRMANDO at once; the bench polls the
// upload (200 ms, as for the validation) until it leaves CONFIRMANDO and names the planilla written.
const [committed, commitSeconds] = await time('confirmar + calcular (un proceso, una transacción)', async () => {
  const asked = await app.inject({ method: 'POST', url: `/api/planilla-uploads/${v.id}/commit`, headers: clerk });
  if (asked.statusCode !== 202) throw new Error(`confirmación: ${asked.statusCode} ${asked.body}`);
  for (;;) {
    const b = (await app.inject({ method: 'GET', url: `/api/planilla-uploads/${v.id}`, headers: clerk })).json();
    if (b.status !== 'CONFIRMANDO') return b;
    await new Promise((r) => setTimeout(r, 200));
  }
});
if (committed.status !== 'CONFIRMADO' || !committed.planillaId)
  throw new Error(`confirmación: ${committed.status} ${committed.message}`);
const id = committed.planillaId;
say(`${'TOTAL carga, validación y cálculo'.padEnd(40)} ${(validated + commitSeconds).toFixed(2)} s  (objetivo ≤ 10 s)`);
const p = (await app.inject({ method: 'GET', url: `/api/planillas/${id}`, headers: clerk })).json();
say(`  líneas ${p.lineCount}, con error ${p.errorCount}, cuota laboral ${p.totalEmployee}, patronal ${p.totalEmployer}`);

const page = async (label, qs) => {
  await app.inject({ method: 'GET', url: `/api/planillas/${id}/lines?${qs}`, headers: clerk });
  const n = 5;
  const t = performance.now();
  let res;
  for (let k = 0; k < n; k++) res = await app.inject({ method: 'GET', url: `/api/planillas/${id}/lines?${qs}`, headers: clerk });
  say(
    `página de líneas ${label.padEnd(22)} ${((performance.now() - t) / n).toFixed(0)} ms  (total ${res.json().total}; objetivo ≤ 100 ms)`,
  );
};
await page('primera', 'page=1&pageSize=25');
await page('página 1000', 'page=1000&pageSize=25');
await page('búsqueda por CUI', `q=${row(31_337 % rows)[0].slice(0, 9)}`);
await page('búsqueda por nombre', `q=${encodeURIComponent('Municipal 4999')}`);
await page('solo con error', 'issues=errors');

// The lines with a mistake are fixed on screen, then the planilla goes through its review.
const bad = (
  await app.inject({ method: 'GET', url: `/api/planillas/${id}/lines?issues=errors&pageSize=200`, headers: clerk })
).json().items;
await time(`corregir ${bad.length} líneas (una por una)`, async () => {
  for (const l of bad) {
    const r = await app.inject({
      method: 'PUT',
      url: `/api/planillas/${id}/lines/${l.id}`,
      headers: clerk,
      payload: { cui: l.cui, fullName: l.fullName, budgetLine: l.budgetLineCode, salary: '3500.00' },
    });
    if (r.statusCode !== 200) throw new Error(`corrección: ${r.statusCode} ${r.body}`);
  }
});
const step = async (label, headers, to) => {
  const [r] = await time(label, () =>
    app.inject({ method: 'POST', url: `/api/planillas/${id}/transitions`, headers, payload: { to } }),
  );
  if (r.statusCode !== 200) throw new Error(`${label}: ${r.statusCode} ${r.body}`);
};
// The submit is a job (ENVIANDO meanwhile): the request answers at once; the bench polls the planilla
// (200 ms) until the job sends it, and measures the answer, the whole submit, and a page of lines served
// while the job runs (the embedded database has one connection: the job writes in chunks between requests).
const [sending, askSeconds] = await time('enviar: respuesta (ENVIANDO, proceso en cola)', () =>
  app.inject({ method: 'POST', url: `/api/planillas/${id}/transitions`, headers: clerk, payload: { to: 'ENVIANDO' } }),
);
if (sending.statusCode !== 200 || sending.json().state !== 'ENVIANDO')
  throw new Error(`enviar: ${sending.statusCode} ${sending.body}`);
let slowestPage = 0;
const [sent, submitSeconds] = await time(`enviar: proceso completo (revalida y recalcula ${rows} líneas)`, async () => {
  for (;;) {
    const t = performance.now();
    await app.inject({ method: 'GET', url: `/api/planillas/${id}/lines?page=1&pageSize=25`, headers: clerk });
    slowestPage = Math.max(slowestPage, performance.now() - t);
    const now = (await app.inject({ method: 'GET', url: `/api/planillas/${id}`, headers: clerk })).json();
    if (now.state !== 'ENVIANDO') return now;
    await new Promise((r) => setTimeout(r, 200));
  }
});
if (sent.state !== 'ENVIADA') throw new Error(`enviar: quedó ${sent.state}: ${sent.submitMessage}`);
say(
  `  respuesta ${askSeconds.toFixed(2)} s; envío ${submitSeconds.toFixed(2)} s; página de líneas más lenta durante el envío ${slowestPage.toFixed(0)} ms`,
);
await step('tomar para revisión', reviewer, 'EN_REVISION');
await step('aprobar (objetivo ≤ 3 s)', reviewer, 'APROBADA');
const [cmp] = await time('comparación con el período anterior', () =>
  app.inject({ method: 'GET', url: `/api/planillas/${id}/comparison`, headers: reviewer }),
);
say(`  nuevos ${cmp.json().newCount}, ausentes ${cmp.json().missingCount}`);
await time('exportar la declaración (csv)', () =>
  app.inject({ method: 'GET', url: `/api/planillas/${id}/export?format=csv`, headers: clerk }),
);

rss.stop();
say(`RSS pico total                           ${mb(rss.peak)}`);
await app.close();
await dispose();
