/**
 * The xlsx writer of exports, run in a worker thread (started by `platform/export.ts` through
 * `xlsx-worker.mjs`): ExcelJS builds each row's XML and archiver deflates it here, so the main thread,
 * which holds the embedded database's one connection, keeps answering requests while a large export runs.
 *
 * Protocol: the sheet comes in `workerData`; then batches of rows whose values the main thread already
 * mapped (`rows`), and `end`. The worker answers `batch` once a batch is in the sheet and the bytes it
 * produced so far were taken; it sends the file as `data` chunks (fresh ArrayBuffers, transferred) and
 * sends the next chunk only after the main thread's `ack` (its stream drained): memory stays bounded by
 * about one batch on each side. `done` once the file is complete; `error` when ExcelJS failed. `stop` ends
 * the thread.
 */
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { openXlsxSheet, type XlsxCell, type XlsxSheet } from './xlsx-sheet.ts';

export type XlsxToWorker = { type: 'rows'; rows: XlsxCell[][] } | { type: 'end' } | { type: 'ack' } | { type: 'stop' };
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

const sheet = openXlsxSheet(output, workerData as XlsxSheet);

async function handle(message: XlsxToWorker): Promise<void> {
  if (message.type === 'rows') {
    sheet.add(message.rows);
    await flushed();
    post({ type: 'batch' });
  } else if (message.type === 'end') {
    await sheet.close();
    post({ type: 'done' });
  }
}

port.on('message', (message: XlsxToWorker) => {
  // The export ended or its client left: the thread ends here, between two tasks (see export.ts `close`).
  if (message.type === 'stop') process.exit(0);
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
