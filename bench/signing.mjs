// Batch sealing (issue 16): N distinct one-page PDFs (receipts) in the document library are sealed with
// the institution's seal by the real job (POST /api/signing/batch through app.inject, the job worker of
// the app), on a fresh embedded database. Prints a live progress bar from the job's own progress, the
// seconds, documents per second and peak RSS; checks one sealed copy with pdfsig when it is installed.
// Target: 1 000 PDFs in ≤ 60 s, memory bounded (one PDF at a time).
//
//   node --import tsx bench/signing.mjs [count=1000]
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchApp, loadApi, mb, openBenchDatabase, rssPeak, say } from './lib.mjs';

const count = Number(process.argv[2] ?? 1000);
// The API loads before the database, as it always has (loadApi in lib.mjs says why).
await loadApi();
const schema = await import('../apps/api/src/db/schema/index.ts');
const { putBlob } = await import('../apps/api/src/platform/blobs.ts');
const { samplePdf } = await import('../apps/api/src/test/pdfs.ts');
const { eq } = await import('drizzle-orm');

const rss = rssPeak();
const { database, dir, dispose } = await openBenchDatabase({ pglite: true, prefix: 'aporta-bench-signing-' });
const db = database.db;
const { app, headers: auth } = await benchApp(database, { env: { DATA_DIR: join(dir, 'data') } });

// The library: one folder of N distinct receipts (set up outside the measured time).
const t0 = performance.now();
const [folder] = await db.insert(schema.documentFolders).values({ name: 'Recibos (bench)' }).returning();
for (let i = 1; i <= count; i++) {
  const pdf = await samplePdf(`Recibo número ${i}`);
  const sha256 = await putBlob(db, app.files, pdf, 'application/pdf');
  const [doc] = await db
    .insert(schema.documents)
    .values({ folderId: folder.id, title: `Recibo ${i}`, docType: 'RECIBO' })
    .returning();
  await db.insert(schema.documentVersions).values({
    documentId: doc.id,
    version: 1,
    sha256,
    filename: `recibo-${i}.pdf`,
    contentType: 'application/pdf',
    size: pdf.length,
    pages: 1,
  });
}
say(`${count} recibos preparados en ${((performance.now() - t0) / 1000).toFixed(1)} s (no cuenta)`);
const rssBefore = process.memoryUsage().rss;

const start = await app.inject({
  method: 'POST',
  url: '/api/signing/batch',
  headers: auth,
  payload: { folderId: folder.id, docType: 'RECIBO' },
});
if (start.statusCode !== 202) throw new Error(`batch: ${start.statusCode} ${start.body}`);
const { jobId } = start.json();
const t1 = performance.now();
await app.jobs.start();
let job;
for (;;) {
  job = (await app.inject({ method: 'GET', url: `/api/jobs/${jobId}`, headers: auth })).json();
  const done = job.done ?? 0;
  const total = job.total ?? count;
  const width = 40;
  const filled = Math.round((done / Math.max(1, total)) * width);
  process.stdout.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${job.phase ?? ''}   `);
  if (['DONE', 'FAILED', 'CANCELLED'].includes(job.state)) break;
  await new Promise((r) => setTimeout(r, 250));
}
const seconds = (performance.now() - t1) / 1000;
await app.jobs.stop();
say('');
say(`estado ${job.state}: ${job.result?.sealed ?? 0} sellados, ${job.result?.failed?.length ?? 0} con error`);
say(`sellado en lote de ${count} PDF: ${seconds.toFixed(1)} s (${(count / seconds).toFixed(0)} PDF/s)`);
say(`RSS antes ${mb(rssBefore)}, pico ${mb(rss.peak)}`);

// One sealed copy, read by pdfsig (no trust database: the signature itself).
try {
  const [doc] = await db.select().from(schema.documents).where(eq(schema.documents.folderId, folder.id)).limit(1);
  const content = await app.inject({ method: 'GET', url: `/api/library/documents/${doc.id}/content`, headers: auth });
  const path = join(dir, 'sellado.pdf');
  writeFileSync(path, content.rawPayload);
  const out = execFileSync('pdfsig', ['-nocert', path], { encoding: 'utf8' });
  say(
    out
      .split('\n')
      .filter((l) => /Signature Validation|Signature Type|Common Name/.test(l))
      .join('\n'),
  );
} catch {
  say('(pdfsig no disponible: no se leyó la copia sellada)');
}

rss.stop();
await app.close();
await dispose();
const ok = job.state === 'DONE' && seconds <= 60;
say(ok ? 'OK: dentro del objetivo de 60 s' : 'FUERA DEL OBJETIVO (60 s)');
process.exitCode = ok ? 0 : 1;
