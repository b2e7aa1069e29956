import { PassThrough } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { AppError, detail, type ExportFormat, msg } from '@aporta/domain';
import type { FastifyReply } from 'fastify';
import Papa from 'papaparse';
import type { FileStore } from './files.ts';
import { EXPORT_MAX_ROWS } from './list.ts';
import { assertHeavyRoute } from './load.ts';
import { openXlsxSheet, type XlsxCell, type XlsxSheet } from './xlsx-sheet.ts';
import type { XlsxFromWorker, XlsxToWorker } from './xlsx-worker.ts';

export interface ExportColumn<T> {
  header: string;
  value: (row: T) => string | number | boolean | Date | null | undefined;
  width?: number;
  /**
   * The value is money as decimal text (`"-1234.50"`): CSV writes that text as is (no formula guard for
   * the minus sign), xlsx a number cell formatted `#,##0.00`.
   */
  money?: boolean;
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
 * - Its API route declares `config.heavy`: the user's share of exports at once (platform/load.ts).
 */
export async function sendExport<T>(
  reply: FastifyReply,
  opts: {
    format: ExportFormat;
    filename: string;
    sheetName?: string;
    columns: ExportColumn<T>[];
    batches: AsyncIterable<T[]>;
    /** The row cap (EXPORT_MAX_ROWS unless a test sets another). */
    maxRows?: number;
  },
): Promise<FastifyReply> {
  assertHeavyRoute(reply);
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
    maxRows?: number;
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
 * bounded by one batch and the embedded database serves other requests between chunks. CSV is written
 * here (cheap); xlsx of two batches or more by a worker thread (`xlsx-worker.ts`): this thread reads the
 * batches and maps the values, the worker builds the XML and zips it, and its bytes come back into `stream`.
 */
async function writeExport<T>(
  stream: PassThrough,
  opts: {
    format: ExportFormat;
    sheetName?: string;
    columns: ExportColumn<T>[];
    iterator: AsyncIterator<T[]>;
    first: IteratorResult<T[]>;
    maxRows?: number;
  },
): Promise<void> {
  const { format, columns, iterator } = opts;
  const maxRows = opts.maxRows ?? EXPORT_MAX_ROWS;
  let rows = 0;

  // Batches already read (the first, and for xlsx the second) come before the iterator's.
  const read: IteratorResult<T[]>[] = [opts.first];
  async function* batches(): AsyncIterable<T[]> {
    let next = read.shift() as IteratorResult<T[]>;
    while (!next.done) {
      if (stream.destroyed) {
        await iterator.return?.();
        return;
      }
      rows += next.value.length;
      if (rows > maxRows) {
        await iterator.return?.();
        throw tooManyRows(maxRows);
      }
      yield next.value;
      await drained(stream);
      await yieldToEventLoop();
      if (stream.destroyed) {
        await iterator.return?.();
        return;
      }
      next = read.shift() ?? (await iterator.next());
    }
  }

  if (format === 'csv') {
    stream.write('\uFEFF');
    stream.write(`${Papa.unparse([columns.map((c) => c.header)])}\r\n`);
    for await (const batch of batches()) {
      if (batch.length === 0) continue;
      const rows = batch.map((r) => columns.map((c) => (c.money ? (c.value(r) ?? '') : formatCsv(c.value(r)))));
      stream.write(`${Papa.unparse(rows, { newline: '\r\n' })}\r\n`);
    }
    stream.end();
    return;
  }
  const sheet: XlsxSheet = {
    sheetName: opts.sheetName ?? 'Datos',
    columns: columns.map((c) => ({ header: c.header, width: c.width ?? Math.max(12, c.header.length + 2), money: !!c.money })),
  };
  const cells = (batch: T[]) =>
    batch.map((r) => columns.map((c): XlsxCell => (c.money ? xlsxMoney(c.value(r)) : (c.value(r) ?? null))));
  // An export that fits in one batch is written here: it holds this thread for one batch, as the reading does
  // between yields, and starting a worker (~0.4 s) would cost more than the file.
  const second = opts.first.done ? opts.first : await iterator.next();
  if (second.done) {
    if (stream.destroyed) return;
    const small = openXlsxSheet(stream, sheet);
    if (!opts.first.done) small.add(cells(opts.first.value));
    await small.close();
    return;
  }
  read.push(second);
  const writer = await startXlsxWorker(sheet, stream);
  if (!writer) {
    await iterator.return?.();
    return;
  }
  try {
    // The worker writes batch n while batch n + 1 is read; n + 1 is posted once the worker took n and the
    // stream drained.
    let previous: Promise<void> = Promise.resolve();
    for await (const batch of batches()) {
      const rows = cells(batch);
      await previous;
      await drained(stream);
      // A stream gone (client away) is seen by batches(), which stops the reading.
      if (stream.destroyed) continue;
      previous = writer.rows(rows);
      // Seen at the next await; marked handled so a crash while the next batch is read is no unhandled rejection.
      previous.catch(() => {});
    }
    await previous;
    if (stream.destroyed) return;
    await writer.end();
    stream.end();
  } finally {
    writer.close();
  }
}

/** The export passed its row cap: it fails (a download aborted, a job failed with this message), never a short file. */
const tooManyRows = (max: number) =>
  new AppError('VALIDATION', msg('platform.exportTooManyRows', { max }), [
    { path: 'consulta', ...detail(msg('platform.exportTooManyRowsDetail', { max })) },
  ]);

/**
 * A money cell of xlsx. A spreadsheet number is an IEEE double, so this is the one place money becomes a
 * JS number: numeric(14,2) has at most 14 significant digits and a double keeps 15, so the cell shows
 * exactly the decimal text it came from (the same conversion Excel applies to a typed amount).
 */
function xlsxMoney(v: unknown): number | null {
  if (typeof v !== 'string' || v === '') return null;
  return Number(v);
}

/** At most this many xlsx exports are written at once (one worker thread each); a further one waits for a place. */
export const MAX_XLSX_WORKERS = 4;
/** How long a worker asked to stop may take before it is terminated (see `close`). */
const WORKER_STOP_GRACE_MS = 5_000;
const liveWorkers = new Set<Worker>();
let placeWaiters: (() => void)[] = [];

/** The xlsx worker threads alive now (tests see a cancelled export's worker end). */
export const liveXlsxWorkers = (): ReadonlySet<Worker> => liveWorkers;

const workerFailed = (cause: unknown) => new AppError('INTERNAL', msg('platform.exportWorkerFailed'), undefined, { cause });

/**
 * Starts a worker thread writing one xlsx file into `stream` (see xlsx-worker.ts). `rows` resolves once
 * the worker took a batch, `end` once the file is complete; both reject (in Spanish) when the worker fails
 * or dies. `close` terminates it: always called, so a cancelled or failed export leaves no thread behind.
 * Null when `stream` went away while waiting for a place.
 */
async function startXlsxWorker(
  sheet: XlsxSheet,
  stream: PassThrough,
): Promise<{ rows: (rows: XlsxCell[][]) => Promise<void>; end: () => Promise<void>; close: () => void } | null> {
  while (liveWorkers.size >= MAX_XLSX_WORKERS) {
    await new Promise<void>((resolve) => placeWaiters.push(resolve));
    if (stream.destroyed) return null;
  }
  const worker = new Worker(new URL('./xlsx-worker.mjs', import.meta.url), {
    workerData: sheet,
    // The entry loads tsx by itself; the process's `--import tsx` would only load it a second time (~0.1 s).
    execArgv: [],
    // A runaway worker fails its export, never the server.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  liveWorkers.add(worker);
  let failure: AppError | null = null;
  let waiting: { type: 'batch' | 'done'; resolve: () => void; reject: (err: AppError) => void } | null = null;
  const fail = (cause: unknown) => {
    failure ??= workerFailed(cause);
    waiting?.reject(failure);
    waiting = null;
  };
  const send = (message: XlsxToWorker) => worker.postMessage(message);
  worker.on('message', (message: XlsxFromWorker) => {
    if (message.type === 'data') {
      // Bytes for a stream gone are dropped but still acknowledged, so the worker never waits on it.
      if (stream.destroyed) return send({ type: 'ack' });
      const ok = stream.write(Buffer.from(message.chunk.buffer, message.chunk.byteOffset, message.chunk.byteLength));
      if (ok) send({ type: 'ack' });
      else drained(stream).then(() => send({ type: 'ack' }));
    } else if (message.type === 'error') {
      fail(new Error(message.message));
    } else if (waiting?.type === message.type) {
      waiting.resolve();
      waiting = null;
    }
  });
  worker.on('error', fail);
  worker.on('messageerror', fail);
  worker.on('exit', (code) => {
    liveWorkers.delete(worker);
    const next = placeWaiters;
    placeWaiters = [];
    for (const w of next) w();
    fail(new Error(`xlsx worker exited with code ${code}`));
  });
  const request = (type: 'batch' | 'done', message: XlsxToWorker) =>
    new Promise<void>((resolve, reject) => {
      if (failure) return reject(failure);
      waiting = { type, resolve, reject };
      send(message);
    });
  return {
    rows: (rows) => request('batch', { type: 'rows', rows }),
    end: () => request('done', { type: 'end' }),
    close: () => {
      if (!liveWorkers.has(worker)) return;
      // Asked to stop, the worker exits between two of its tasks. terminate() stops it at any instruction,
      // also inside a zlib stream's constructor, and Node then aborts the whole process when the thread is
      // cleaned up ("close before init", node_zlib.cc): only a worker that does not stop gets it.
      send({ type: 'stop' });
      setTimeout(() => {
        if (liveWorkers.has(worker)) void worker.terminate();
      }, WORKER_STOP_GRACE_MS).unref();
    },
  };
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
  // Bounded by the row cap as well: a table that keeps growing while it is read cannot hold the export open.
  for (let offset = 0; offset < EXPORT_MAX_ROWS + size; offset += size) {
    const rows = await fetchPage(size, offset);
    yield rows;
    if (rows.length < size) return;
  }
}
