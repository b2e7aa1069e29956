import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { AppError, detail, msg } from '@aporta/domain';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import unzipper from 'unzipper';
import { cfbKind, cfbStreamNames, textEncoding } from '../uploads.ts';

/** Limits of an upload (issue 6): size, rows, and what a compressed xlsx may expand to. */
export const IMPORT_LIMITS = {
  maxFileBytes: 20 * 1024 * 1024,
  maxRows: 200_000,
  /** Sum of the uncompressed parts of an xlsx, declared and actual: beyond it, a zip bomb. */
  maxUncompressedBytes: 300 * 1024 * 1024,
  maxZipEntries: 2_000,
  maxCompressionRatio: 200,
};

/** A cell as read: text, number, date, or a formula (refused row by row, see decisions.md). */
export type Cell = string | number | Date | null | { formula: true };

export interface SheetRow {
  /** 1-based row number as the spreadsheet shows it. */
  rowNumber: number;
  cells: Cell[];
}

export type FileKind = 'xlsx' | 'csv';

async function readHead(path: string, length = 4096) {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(length);
    const { bytesRead } = await fh.read(head, 0, length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/**
 * What a file is, by its bytes (platform/uploads.ts's detectors): xlsx (zip), csv (text: UTF-8,
 * Windows-1252 or UTF-16), or neither — refused saying what it is: an Office file protected with a
 * password (a compound file holding EncryptionInfo), an old .xls, or not a spreadsheet at all.
 */
export async function sniffFile(path: string, fileName: string): Promise<FileKind> {
  const bytes = await readHead(path);
  if (bytes.length === 0) throw new AppError('VALIDATION', msg('platform.importFileEmpty'));
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return 'xlsx';
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
    // Within the upload limit (20 MB): the compound file's directory says what it holds.
    const kind = cfbKind(cfbStreamNames(await readFile(path)) ?? []);
    if (kind === 'encrypted')
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', msg('platform.importPasswordProtected'), [
        { path: 'archivo', ...detail(msg('platform.importPasswordProtectedDetail')) },
      ]);
    // A compound file whose directory cannot be read but is named .xls is, in practice, an old workbook.
    if (kind === 'xls' || (kind === 'other' && /\.xls$/i.test(fileName)))
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', msg('platform.importOldXls'));
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', msg('platform.importOldOffice'));
  }
  // Text (no NUL or control characters, or UTF-16). A PDF, image or executable fails here.
  const text = textEncoding(bytes) !== null;
  if (text && /\.(csv|txt|tsv)$/i.test(fileName)) return 'csv';
  if (text && !/\.(xlsx|xls|pdf|docx?|png|jpe?g)$/i.test(fileName)) return 'csv';
  throw new AppError('UNSUPPORTED_MEDIA_TYPE', msg('platform.importNotSpreadsheet'));
}

/**
 * Refuses a zip bomb before ExcelJS opens the file: too many parts, a declared expansion beyond the
 * limit or an absurd compression ratio, and, for the parts actually read, more bytes than declared.
 */
export async function guardXlsx(path: string): Promise<void> {
  let dir: Awaited<ReturnType<typeof unzipper.Open.file>>;
  try {
    dir = await unzipper.Open.file(path);
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', msg('platform.importXlsxDamagedOrNot'));
  }
  const files = dir.files.filter((f) => f.type === 'File');
  if (files.length > IMPORT_LIMITS.maxZipEntries) throw bomb();
  const declared = files.reduce((s, f) => s + f.uncompressedSize, 0);
  if (declared > IMPORT_LIMITS.maxUncompressedBytes) throw bomb();
  if (!files.some((f) => f.path === 'xl/workbook.xml')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', msg('platform.importNoWorkbook'));
  }
  for (const f of files) {
    if (
      f.compressedSize > 0 &&
      f.uncompressedSize / f.compressedSize > IMPORT_LIMITS.maxCompressionRatio &&
      f.uncompressedSize > 10_000_000
    ) {
      throw bomb();
    }
  }
  // Sizes in the directory can lie: inflate every part the reader parses (sheets, shared strings, styles,
  // workbook and its relations), counting real bytes.
  let actual = 0;
  const parsed = /^\/?xl\/(worksheets\/sheet\d+\.xml|sharedStrings\.xml|styles\.xml|workbook\.xml|_rels\/workbook\.xml\.rels)$/;
  for (const f of files.filter((x) => parsed.test(x.path))) {
    const limit = f.uncompressedSize + 1024;
    let seen = 0;
    await new Promise<void>((resolve, reject) => {
      const s = f.stream();
      s.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        actual += chunk.length;
        if (seen > limit || actual > IMPORT_LIMITS.maxUncompressedBytes) {
          s.destroy();
          reject(bomb());
        }
      });
      s.on('end', () => resolve());
      s.on('error', () => reject(new AppError('UNSUPPORTED_MEDIA_TYPE', msg('platform.importXlsxDamaged'))));
    });
  }
}

const bomb = () => new AppError('PAYLOAD_TOO_LARGE', msg('platform.importZipBomb'));

/**
 * The parts of ExcelJS's streaming WorkbookReader this reader drives (lib/stream/xlsx/workbook-reader.js,
 * exceljs 4.4): each takes a part's stream; the test reads real workbooks, so a change there fails it.
 */
interface BookReaderInternals {
  model?: { sheets?: { name: string; id: number; rId: string; state?: string }[] };
  workbookRels?: { Id: string; Target: string }[];
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncIterable<unknown>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseWorksheet(entry: Readable, sheetNo: string): Iterable<{ eventType: string; value: AsyncIterable<ExcelJS.Row> }>;
}

/**
 * Opens an xlsx through its central directory (random access), not as one pass over the zip.
 *
 * Why (issue 9, "a valid two-sheet workbook was once refused as damaged"): ExcelJS's streaming
 * WorkbookReader reads the zip entries in stored order in a single pass. ExcelJS itself (and other
 * writers) store `xl/workbook.xml` LAST, after the worksheets; the single pass then sometimes ends
 * without delivering that last entry (exceljs#3064, a race between unzipper's Parse stream and
 * ExcelJS's iterateStream: ~1–2 % of reads of such a file on Node 20 here), and the first worksheet is
 * parsed with no workbook model: `TypeError: Cannot read properties of undefined (reading 'sheets')`,
 * which the upload reported as a damaged file. The same single pass parses a worksheet before
 * `styles.xml` or `sharedStrings.xml` when they come later, so date cells arrived as bare numbers.
 * Here the workbook, its relations, shared strings and styles are always read first, then the chosen
 * worksheet is streamed row by row (bounded memory, as before). Every file stream opened is closed at
 * the end, also when a sheet is abandoned after its first row.
 */
async function openBook(path: string) {
  const opened = new Set<Readable>();
  const dir = await unzipper.Open.custom({
    stream(offset: number, length?: number) {
      const s = createReadStream(path, { start: offset, end: length ? offset + length : undefined });
      opened.add(s);
      s.once('close', () => opened.delete(s));
      return s;
    },
    size: async () => (await stat(path)).size,
  });
  const byPath = new Map(dir.files.filter((f) => f.type === 'File').map((f) => [f.path.replace(/^\//, ''), f]));
  const part = (name: string) => byPath.get(name)?.stream();
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    // Styles are read: they tell a date cell (a Date) from a number cell (a number).
    styles: 'cache',
    entries: 'ignore',
  }) as unknown as BookReaderInternals;
  const required = (name: string) => {
    const s = part(name);
    if (!s) throw new AppError('UNSUPPORTED_MEDIA_TYPE', msg('platform.importXlsxPartMissing', { part: name }));
    return s;
  };
  await reader._parseRels(required('xl/_rels/workbook.xml.rels'));
  await reader._parseWorkbook(required('xl/workbook.xml'));
  const strings = part('xl/sharedStrings.xml');
  if (strings) for await (const _ of reader._parseSharedStrings(strings));
  const styles = part('xl/styles.xml');
  if (styles) await reader._parseStyles(styles);

  // The worksheets in the order of their tabs, visible ones first.
  const rels = new Map((reader.workbookRels ?? []).map((r) => [r.Id, r.Target]));
  const sheets = (reader.model?.sheets ?? [])
    .map((s) => {
      const target = rels.get(s.rId) ?? '';
      const file = target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
      const no = /worksheets\/sheet(\d+)\.xml$/.exec(file)?.[1];
      return { name: s.name, file, no, hidden: !!s.state && s.state !== 'visible' };
    })
    .filter((s): s is typeof s & { no: string } => !!s.no && byPath.has(s.file))
    .sort((a, b) => Number(a.hidden) - Number(b.hidden));

  async function* rows(sheet: (typeof sheets)[number]): AsyncGenerator<SheetRow> {
    const stream = required(sheet.file);
    try {
      for (const { eventType, value } of reader._parseWorksheet(stream, sheet.no)) {
        if (eventType !== 'worksheet') continue;
        for await (const row of value) {
          const values = row.values as unknown[];
          const cells: Cell[] = [];
          for (let i = 1; i < values.length; i++) cells.push(plainCell(values[i]));
          yield { rowNumber: row.number, cells };
        }
      }
    } finally {
      stream.destroy();
    }
  }
  const close = () => {
    for (const s of opened) s.destroy();
    opened.clear();
  };
  return { sheets, rows, close };
}

/**
 * The rows of the data worksheet, streamed (bounded memory), each cell reduced to a plain value (a
 * date-formatted cell is a Date, a number cell a number, text a string). The data worksheet is the
 * first (in tab order) whose first row `isDataSheet` accepts — the template's headers — so a help sheet
 * placed before the data is skipped; when none is accepted, the first sheet (its header errors are
 * then reported).
 */
export async function* xlsxRows(
  path: string,
  opts: { isDataSheet?: (firstRow: Cell[]) => boolean } = {},
): AsyncGenerator<SheetRow> {
  let book: Awaited<ReturnType<typeof openBook>> | undefined;
  try {
    book = await openBook(path);
    if (!book.sheets.length) throw new AppError('VALIDATION', msg('platform.importNoSheets'));
    let chosen = book.sheets[0];
    if (opts.isDataSheet && book.sheets.length > 1) {
      for (const sheet of book.sheets) {
        let first: Cell[] | null = null;
        for await (const row of book.rows(sheet)) {
          first = row.cells;
          break;
        }
        if (first && opts.isDataSheet(first)) {
          chosen = sheet;
          break;
        }
      }
    }
    yield* book.rows(chosen);
  } finally {
    book?.close();
  }
}

function plainCell(v: unknown): Cell {
  if (v == null) return null;
  if (typeof v === 'string' || typeof v === 'number' || v instanceof Date) return v;
  if (typeof v === 'boolean') return v ? 'VERDADERO' : 'FALSO';
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if ('formula' in o || 'sharedFormula' in o) return { formula: true };
    if (Array.isArray(o.richText)) return (o.richText as { text: string }[]).map((r) => r.text).join('');
    if (typeof o.text === 'string') return o.text;
    if ('error' in o) return String(o.error);
  }
  return String(v);
}

/**
 * CSV as Excel and others write it: UTF-8 with or without BOM, Latin-1 (Windows-1252), or UTF-16 (little
 * or big endian, with or without BOM: Excel's «Texto Unicode»); `;`, `,` or tab. For 8-bit text one pass
 * checks the encoding (bounded: a streaming decoder); UTF-16 is told by its first bytes. The next pass
 * parses with papaparse.
 */
export async function* csvRows(path: string): AsyncGenerator<SheetRow> {
  const head = await readHead(path);
  let encoding: 'utf-8' | 'windows-1252' | 'utf-16le' | 'utf-16be' = 'utf-8';
  const told = textEncoding(head);
  if (told === 'utf-16le' || told === 'utf-16be') encoding = told;
  else {
    const utf8 = new TextDecoder('utf-8', { fatal: true });
    for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 })) {
      try {
        utf8.decode(chunk as Buffer, { stream: true });
      } catch {
        encoding = 'windows-1252';
        break;
      }
    }
  }
  const firstLine =
    new TextDecoder(encoding)
      .decode(head)
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)[0] ?? '';
  const counts = { ';': firstLine.split(';').length, ',': firstLine.split(',').length, '\t': firstLine.split('\t').length };
  const delimiter = counts['\t'] > Math.max(counts[';'], counts[',']) ? '\t' : counts[';'] > counts[','] ? ';' : ',';
  const decoder = new TextDecoder(encoding);
  // papaparse's own parser over the decoded text, chunk by chunk: each parse returns the complete records and
  // where the last one ended; the rest (a record cut by the chunk, a quoted field still open) waits for the next
  // chunk. Papa's stream mode (NODE_STREAM_INPUT) paused every 16 records and parsed the rest of its chunk
  // again on each resume: 82 ms for a 2 500-line file against 1.3 ms here, a third of the server's CPU in a
  // national month-end (bench/month-end.mjs). A record still open after 1 MB (an unclosed quote) is parsed
  // again only once the text waiting has doubled, so a hostile file stays linear.
  let parser: Papa.Parser | null = null;
  let waiting = '';
  let fresh: string[] = [];
  let freshLength = 0;
  let n = 0;
  const records = function* (final: boolean) {
    let text = waiting + fresh.join('');
    fresh = [];
    freshLength = 0;
    if (n === 0 && waiting === '') text = text.replace(/^\uFEFF/, '');
    if (!parser) {
      // The line break as papaparse guesses it (\r\n, \n or \r), from the first chunk.
      const newline = Papa.parse<string[]>(text.slice(0, 1 << 20), { delimiter, preview: 1 }).meta.linebreak;
      parser = new Papa.Parser({ delimiter, newline: newline as Papa.ParseConfig['newline'] });
    }
    const result = parser.parse(text, 0, !final) as Papa.ParseResult<string[]>;
    waiting = final ? '' : text.slice(result.meta.cursor);
    for (const record of result.data) {
      n += 1;
      yield { rowNumber: n, cells: record.map((c) => (c === '' ? null : c)) };
    }
  };
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 })) {
    const text = decoder.decode(chunk as Buffer, { stream: true });
    fresh.push(text);
    freshLength += text.length;
    if (waiting.length > 1 << 20 && freshLength < waiting.length) continue;
    yield* records(false);
  }
  const rest = decoder.decode();
  if (rest) fresh.push(rest);
  yield* records(true);
}
