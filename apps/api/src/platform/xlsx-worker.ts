/**
 * The xlsx writer of exports, run in a worker thread (started by `platform/export.ts` through
 * `xlsx-worker.mjs`): ExcelJS builds each row's XML and archiver deflates it here, so the main thread,
 * which holds the embedded database's one connection, keeps answering requests while a large export runs.
 *
 * Protocol: the sheet comes in `workerData`; then batches of rows whose values the main thread already
 * mapped (`rows`), and `end`. The worker answers `batch` once a batch is in the sheet and the bytes it
 * produced so far were taken; it sends the file as `data` chunks (fresh ArrayBuffers, transferred) and
 * sends the next chunk only after the main thread's `ack` (its stream drained): memory stays bounded by
 * about one batch on each side. `done` once the file is complete; `error` when ExcelJS failed.
 */
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import ExcelJS from 'exceljs';

export interface XlsxSheet {
  sheetName: string;
  columns: { header: string; width: number; money: boolean }[];
}
export type XlsxCell = string | number | boolean | Date | null;
export type XlsxToWorker = { type: 'rows'; rows: XlsxCell[][] } | { type: 'end' } | { type: 'ack' };
export type XlsxFromWorker =
  | { type: 'data'; chunk: Uint8Array }
  | { type: 'batch' }
  | { type: 'done' }
  | { type: 'error'; message: string };

const port = parentPort;
if (!port) throw new Error('xlsx-worker runs only as a worker thread');
const post = (message: XlsxFromWorker, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer);

/** The callback of the data chunk the main thread has not acknowledged yet. */
let inFlight: (() => void) | null = null;
let idleWaiters: (() => void)[] = [];

/** Hands chunks to the main thread as one fresh buffer (never a slice of Node's shared pool: it is transferred). */
function send(parts: Uint8Array[], callback: (err?: Error | null) => void): void {
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.byteLength;
  }
  inFlight = () => callback();
  post({ type: 'data', chunk: bytes }, [bytes.buffer]);
}

const output = new Writable({
  highWaterMark: 256 * 1024,
  write(chunk: Buffer, _encoding, callback) {
    send([chunk], callback);
  },
  writev(chunks, callback) {
    send(
      chunks.map((c) => c.chunk as Buffer),
      callback,
    );
  },
});

/** Resolves once the output is idle: nothing buffered and no chunk waiting for the main thread. */
async function flushed(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  while (inFlight || output.writableLength > 0) {
    await new Promise<void>((resolve) => idleWaiters.push(resolve));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const sheet = workerData as XlsxSheet;
const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
const ws = wb.addWorksheet(sheet.sheetName);
ws.columns = sheet.columns.map((c) => ({
  header: c.header,
  width: c.width,
  ...(c.money ? { style: { numFmt: '#,##0.00' } } : {}),
}));
ws.getRow(1).font = { bold: true };
ws.getRow(1).commit();

async function handle(message: XlsxToWorker): Promise<void> {
  if (message.type === 'rows') {
    for (const row of message.rows) ws.addRow(row).commit();
    await flushed();
    post({ type: 'batch' });
  } else if (message.type === 'end') {
    ws.commit();
    await wb.commit();
    post({ type: 'done' });
  }
}

port.on('message', (message: XlsxToWorker) => {
  if (message.type === 'ack') {
    const callback = inFlight;
    inFlight = null;
    callback?.();
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
    return;
  }
  handle(message).catch((err: unknown) => {
    post({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  });
});
