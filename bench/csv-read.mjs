// Reading a planilla's CSV (platform/imports/reader.ts, csvRows): files of 2 500, 25 000 and 150 000 lines as
// the template writes them (UTF-8 with BOM, `;`, CRLF), and the same with a quoted line break in every record
// (papaparse's slow path). Each file is read 5 times; the median is reported, in ms and µs per line.
//
//   node --import tsx bench/csv-read.mjs
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const { csvRows } = await import(pathToFileURL(join(ROOT, 'apps/api/src/platform/imports/reader.ts')).href);
const dir = mkdtempSync(join(tmpdir(), 'aporta-csv-bench-'));
const say = (s) => process.stdout.write(`${s}\n`);
say('| archivo | líneas | MB | mediana | µs por línea |');
say('| --- | --: | --: | --: | --: |');
for (const quoted of [false, true]) {
  for (const n of [2_500, 25_000, 150_000]) {
    const lines = ['CUI;NOMBRE;RENGLON;SALARIO;DIAS_LABORADOS'];
    for (let i = 0; i < n; i++) {
      const name = quoted ? `"Empleado ""${i}""\r\nMunicipal"` : `Empleado Municipal ${i}`;
      lines.push(`${3_000_000_000_000 + i};${name};011;${(3000 + (i % 9000)).toFixed(2)};30`);
    }
    const text = `\uFEFF${lines.join('\r\n')}\r\n`;
    const path = join(dir, `${n}-${quoted}.csv`);
    writeFileSync(path, text);
    const times = [];
    for (let k = 0; k < 5; k++) {
      const t = performance.now();
      let rows = 0;
      for await (const _ of csvRows(path)) rows++;
      times.push(performance.now() - t);
      if (rows !== n + 1) throw new Error(`${rows} filas leídas de ${n + 1}`);
    }
    const median = times.sort((a, b) => a - b)[2];
    say(
      `| ${quoted ? 'con salto de línea entre comillas' : 'plantilla'} | ${n} | ${(Buffer.byteLength(text) / 1e6).toFixed(1)} | ${median.toFixed(1)} ms | ${((median * 1000) / n).toFixed(1)} |`,
    );
  }
}
rmSync(dir, { recursive: true, force: true });
