import { PassThrough } from 'node:stream';
import type { ExportFormat } from '@aporta/domain';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import Papa from 'papaparse';
import type { FileStore } from './files.ts';

export interface ExportColumn<T> {
  header: string;
  value: (row: T) => string | number | boolean | Date | null | undefined;
  width?: number;
}

const contentTypes: Record<ExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

/**
 * Streams rows as xlsx or csv (UTF-8 with BOM, so Excel reads accents). Rows come as an async
 * iterable of batches so a large export never sits in memory whole.
 *
 * - The first batch is read before any header or byte is sent: a bad sort or filter (or any failure of
 *   the query) answers a normal JSON error instead of a download that breaks after it started.
 * - Between batches the event loop is yielded (setImmediate) and the next batch is fetched only once
 *   the client has drained what was written: memory stays bounded by one batch and the single
 *   connection of the embedded database serves other requests between chunks.
 * - A failure after the first byte is logged and the response is destroyed, so the client sees a
 *   failed download (an incomplete chunked body), never a short file that looks complete. A client
 *   that goes away stops the reading.
 */
export async function sendExport<T>(
  reply: FastifyReply,
  opts: { format: ExportFormat; filename: string; sheetName?: string; columns: ExportColumn<T>[]; batches: AsyncIterable<T[]> },
): Promise<FastifyReply> {
  const iterator = opts.batches[Symbol.asyncIterator]();
  const first = await iterator.next();
  const stream = new PassThrough();
  const stamp = new Date().toISOString().slice(0, 10);
  reply
    .header('content-type', contentTypes[opts.format])
    .header('content-disposition', `attachment; filename="${opts.filename}-${stamp}.${opts.format}"`)
    .header('cache-control', 'no-store');
  writeExport(stream, { ...opts, iterator, first }).catch((err) => {
    reply.log.error({ err }, 'export failed after streaming started; the download is aborted');
    stream.destroy(err);
  });
  return reply.send(stream);
}

export const exportContentType = (format: ExportFormat): string => contentTypes[format];

/**
 * Writes an export into a file of the store (a background export): the same xlsx/csv as `sendExport`,
 * written batch by batch with backpressure from the store. `onBatch` runs after each batch is written
 * (the job reports progress and sees a cancel there: throwing stops the export and no file remains).
 */
export async function writeExportFile<T>(
  store: FileStore,
  key: string,
  opts: {
    format: ExportFormat;
    sheetName?: string;
    columns: ExportColumn<T>[];
    batches: AsyncIterable<T[]>;
    onBatch?: (rowsSoFar: number) => Promise<void>;
  },
): Promise<{ size: number; rows: number }> {
  const stream = new PassThrough();
  const iterator = opts.batches[Symbol.asyncIterator]();
  let rows = 0;
  const counted = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
        rows += next.value.length;
        await opts.onBatch?.(rows);
      }
    },
  };
  const countedIterator = counted[Symbol.asyncIterator]() as AsyncIterator<T[]>;
  const first = await countedIterator.next();
  const stored = store.put(key, stream, { contentType: contentTypes[opts.format] });
  try {
    await writeExport(stream, { ...opts, iterator: countedIterator, first });
  } catch (err) {
    stream.destroy(err as Error);
    await stored.catch(() => {});
    await store.delete(key).catch(() => {});
    throw err;
  }
  const { size } = await stored;
  return { size, rows };
}

/**
 * The body of an export: a BOM and CSV lines, or an xlsx workbook streamed row by row. Between batches
 * the event loop is yielded and the next batch is read only once `stream` has drained: memory stays
 * bounded by one batch and the embedded database serves other requests between chunks.
 */
async function writeExport<T>(
  stream: PassThrough,
  opts: {
    format: ExportFormat;
    sheetName?: string;
    columns: ExportColumn<T>[];
    iterator: AsyncIterator<T[]>;
    first: IteratorResult<T[]>;
  },
): Promise<void> {
  const { format, columns, iterator } = opts;

  async function* batches(): AsyncIterable<T[]> {
    let next = opts.first;
    while (!next.done) {
      if (stream.destroyed) {
        await iterator.return?.();
        return;
      }
      yield next.value;
      await drained(stream);
      await yieldToEventLoop();
      if (stream.destroyed) {
        await iterator.return?.();
        return;
      }
      next = await iterator.next();
    }
  }

  if (format === 'csv') {
    stream.write('\uFEFF');
    stream.write(`${Papa.unparse([columns.map((c) => c.header)])}\r\n`);
    for await (const batch of batches()) {
      if (batch.length === 0) continue;
      const rows = batch.map((r) => columns.map((c) => formatCsv(c.value(r))));
      stream.write(`${Papa.unparse(rows, { newline: '\r\n' })}\r\n`);
    }
    stream.end();
    return;
  }
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(opts.sheetName ?? 'Datos');
  ws.columns = columns.map((c) => ({ header: c.header, width: c.width ?? Math.max(12, c.header.length + 2) }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  for await (const batch of batches()) {
    for (const r of batch) ws.addRow(columns.map((c) => c.value(r) ?? null)).commit();
  }
  ws.commit();
  await wb.commit();
}

/** Resolves once `stream` can take more (or is gone): the backpressure of an export. */
function drained(stream: PassThrough): Promise<void> {
  if (!stream.writableNeedDrain || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function formatCsv(v: string | number | boolean | Date | null | undefined): string | number {
  if (v == null) return '';
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'boolean') return v ? 'Sí' : 'No';
  // A leading = + - @ would be run as a formula by spreadsheet programs (CSV injection).
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(v)) return `'${v}`;
  return v;
}

/**
 * Reads a query in OFFSET pages of `size` until it runs dry. Only for small tables (roles,
 * institutions, users, catalogues, one import's rows); a large table uses `keysetBatches` (list.ts),
 * whose chunks cost the same from the first to the last.
 */
export async function* inBatches<T>(fetchPage: (limit: number, offset: number) => Promise<T[]>, size = 1000): AsyncIterable<T[]> {
  for (let offset = 0; ; offset += size) {
    const rows = await fetchPage(size, offset);
    yield rows;
    if (rows.length < size) return;
  }
}
