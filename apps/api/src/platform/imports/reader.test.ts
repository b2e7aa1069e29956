import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import Papa from 'papaparse';
import { afterAll, describe, expect, it } from 'vitest';
import { csvRows } from './reader.ts';

const dir = mkdtempSync(join(tmpdir(), 'aporta-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

async function read(content: string | Buffer) {
  const path = join(dir, `f${files++}.csv`);
  writeFileSync(path, content);
  const out: unknown[][] = [];
  for await (const r of csvRows(path)) {
    expect(r.rowNumber).toBe(out.length + 1);
    out.push(r.cells);
  }
  return out;
}
/**
 * What papaparse makes of the whole text at once: the reference the chunked reading must equal — but for the
 * empty record after a final line break, which the reader (as papaparse's stream mode did) does not give.
 */
const whole = (text: string, delimiter: string) => {
  const data = Papa.parse<string[]>(text, { delimiter }).data;
  const last = data.at(-1);
  if (/[\r\n]$/.test(text) && last?.length === 1 && last[0] === '') data.pop();
  return data.map((r) => r.map((c) => (c === '' ? null : c)));
};

describe('CSV read chunk by chunk (month-end bench: papaparse’s stream mode was quadratic)', () => {
  it('gives the records papaparse gives for the whole text, records and quoted line breaks cut anywhere by the chunks', async () => {
    // Fields with the delimiter, quotes and line breaks inside quotes; files past 256 KB so chunks cut records.
    const field = fc.oneof(
      fc.stringMatching(/^[A-Za-zÁÉÍÓÚÑñ0-9 .,-]{0,12}$/),
      fc.stringMatching(/^[A-Za-z;"\r\n ]{0,10}$/).map((s) => `"${s.replaceAll('"', '""')}"`),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(field, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 40 }),
        fc.constantFrom('\r\n', '\n'),
        fc.integer({ min: 1, max: 400 }),
        fc.boolean(),
        async (records, newline, repeat, trailing) => {
          const body = records.map((r) => r.join(';')).join(newline);
          const text = `CUI;NOMBRE${newline}${Array.from({ length: repeat }, () => body).join(newline)}${trailing ? newline : ''}`;
          expect(await read(text)).toEqual(whole(text, ';'));
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a BOM, Latin-1, UTF-16, a tab or a comma, and an unclosed quote read as before', async () => {
    expect(await read('\uFEFFa;b\r\n1;2\r\n')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(await read(Buffer.from('a;b\r\nPeña;ñ\r\n\r\n', 'latin1'))).toEqual([['a', 'b'], ['Peña', 'ñ'], [null]]);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a;b\r\nPeña;2', 'utf16le')]);
    expect(await read(utf16)).toEqual([
      ['a', 'b'],
      ['Peña', '2'],
    ]);
    expect(await read('a\tb\n1\t2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(await read('a,b\r1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    // 1.5 MB of records with quoted line breaks and doubled quotes: six chunks, records cut at their edges.
    const big = ['CUI;NOMBRE;SALARIO']
      .concat(Array.from({ length: 30_000 }, (_, i) => `${i};"Nombre ""x"" ${i}\r\nsegunda línea";${i}.50`))
      .join('\r\n');
    const bigRows = await read(big);
    expect(bigRows).toHaveLength(30_001);
    expect(bigRows).toEqual(whole(big, ';'));
    expect(bigRows[30_000]).toEqual(['29999', 'Nombre "x" 29999\r\nsegunda línea', '29999.50']);
    // An unclosed quote runs to the end of the file (papaparse's reading), 3 MB of it without a record's end.
    const open = `a;b\r\n"${'x'.repeat(3_000_000)}\r\n1;2\r\n`;
    const rows = await read(open);
    expect(rows).toEqual(whole(open, ';'));
    expect(rows).toHaveLength(2);
  });
});
