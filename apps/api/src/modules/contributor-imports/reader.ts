import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { AppError } from '@aporta/domain';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import unzipper from 'unzipper';

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

/** What a file is, by its first bytes: xlsx (zip), csv (text), or neither (refused). */
export async function sniffFile(path: string, fileName: string): Promise<FileKind> {
  const fh = await open(path, 'r');
  const head = Buffer.alloc(4096);
  const { bytesRead } = await fh.read(head, 0, 4096, 0);
  await fh.close();
  const bytes = head.subarray(0, bytesRead);
  if (bytesRead === 0) throw new AppError('VALIDATION', 'El archivo está vacío.');
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return 'xlsx';
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'El formato .xls antiguo no se admite; guarde el archivo como .xlsx o .csv.');
  }
  // Text: no NUL bytes and mostly printable. A PDF, image or executable fails here.
  const binary = bytes.some((b) => b === 0) || /^%PDF|^\x89PNG|^GIF8|^\xff\xd8/.test(bytes.subarray(0, 4).toString('latin1'));
  if (!binary && /\.(csv|txt)$/i.test(fileName)) return 'csv';
  if (!binary && !/\.(xlsx|xls|pdf|docx?|png|jpe?g)$/i.test(fileName)) return 'csv';
  throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'El archivo no es una hoja de cálculo: cargue un .xlsx o un .csv.');
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
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'El archivo .xlsx está dañado o no es una hoja de cálculo.');
  }
  const files = dir.files.filter((f) => f.type === 'File');
  if (files.length > IMPORT_LIMITS.maxZipEntries) throw bomb();
  const declared = files.reduce((s, f) => s + f.uncompressedSize, 0);
  if (declared > IMPORT_LIMITS.maxUncompressedBytes) throw bomb();
  if (!files.some((f) => f.path === 'xl/workbook.xml')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'El archivo no es una hoja de cálculo .xlsx (falta el libro de trabajo).');
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
  // Sizes in the directory can lie: inflate the sheets and shared strings, counting real bytes.
  let actual = 0;
  for (const f of files.filter((x) => /^xl\/(worksheets\/sheet\d+|sharedStrings)\.xml$/.test(x.path))) {
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
      s.on('error', () => reject(new AppError('UNSUPPORTED_MEDIA_TYPE', 'El archivo .xlsx está dañado.')));
    });
  }
}

const bomb = () =>
  new AppError(
    'PAYLOAD_TOO_LARGE',
    'El archivo .xlsx se expande a un tamaño excesivo al descomprimirlo (posible bomba zip); no se procesó.',
  );

/** The rows of the first worksheet, streamed (bounded memory), each cell reduced to a plain value. */
export async function* xlsxRows(path: string): AsyncGenerator<SheetRow> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  for await (const sheet of reader) {
    for await (const row of sheet as unknown as AsyncIterable<ExcelJS.Row>) {
      const values = row.values as unknown[];
      const cells: Cell[] = [];
      for (let i = 1; i < values.length; i++) cells.push(plainCell(values[i]));
      yield { rowNumber: row.number, cells };
    }
    return; // only the first worksheet
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
 * CSV as Excel and others write it: UTF-8 with or without BOM, or Latin-1 (Windows-1252); `;` or `,`.
 * One pass checks the encoding (bounded: a streaming decoder), the second parses with papaparse.
 */
export async function* csvRows(path: string): AsyncGenerator<SheetRow> {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let isUtf8 = true;
  let firstLine = '';
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 })) {
    try {
      const text = utf8.decode(chunk as Buffer, { stream: true });
      if (firstLine.length < 4096 && !firstLine.includes('\n')) firstLine += text.slice(0, 4096);
    } catch {
      isUtf8 = false;
      break;
    }
  }
  if (!isUtf8) {
    const head = Buffer.alloc(4096);
    const fh = await open(path, 'r');
    const { bytesRead } = await fh.read(head, 0, 4096, 0);
    await fh.close();
    firstLine = new TextDecoder('windows-1252').decode(head.subarray(0, bytesRead));
  }
  firstLine = firstLine.replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '';
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const decoder = new TextDecoder(isUtf8 ? 'utf-8' : 'windows-1252');
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, { delimiter, skipEmptyLines: false });
  const source = createReadStream(path, { highWaterMark: 256 * 1024 });
  (async () => {
    try {
      let first = true;
      for await (const chunk of source) {
        let text = decoder.decode(chunk as Buffer, { stream: true });
        if (first) {
          text = text.replace(/^\uFEFF/, '');
          first = false;
        }
        if (!parser.write(text)) await new Promise((r) => parser.once('drain', r));
      }
      const rest = decoder.decode();
      if (rest) parser.write(rest);
      parser.end();
    } catch (err) {
      parser.destroy(err as Error);
    }
  })();
  let n = 0;
  for await (const record of parser as AsyncIterable<string[]>) {
    n += 1;
    yield { rowNumber: n, cells: record.map((c) => (c === '' ? null : c)) };
  }
}
