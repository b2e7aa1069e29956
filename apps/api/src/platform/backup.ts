// Backup and restore of the embedded database (PGlite). PostgreSQL (DATABASE_URL) is backed up with its own
// tools, pg_dump / pg_restore (README "Copias de seguridad").
//
// PGlite runs inside one process and its data folder must never be opened by two at once. So:
// - `serve` writes DATA_DIR/aporta.pid (mode 0600) and removes it when it stops;
// - `backup <file>` with no server running opens the folder itself and writes the snapshot;
// - with a server running, the CLI writes its request to DATA_DIR/backup-request.json and sends the server
//   SIGUSR2; the server takes the snapshot between transactions and writes the file, then its answer to
//   DATA_DIR/backup-result.json. Only the server's own user (or root) can signal it and write in DATA_DIR:
//   no network route, no token, nothing an HTTP client can reach.
// - `restore <file>` needs the server stopped and an empty (or new) DATA_DIR, unless --force.
//
// A copy holds data, never the state of the process that served it (issue 25): the pid files
// (aporta.pid, PostgreSQL's postmaster.pid), the backup request and result and a half-written snapshot are
// left out of the snapshot and removed after a restore, so a restored folder never names (nor signals) the
// source's server. The pid file also names its folder: a pid file copied into another folder by other means
// (cp -a) names a server that does not serve it, and is ignored. A restored folder is private: directories
// 0700, files 0600 (signing-master.key among them); PGlite itself writes its files 0666.
import { randomUUID } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { type Database, openDatabase } from '../db/client.ts';

export class BackupError extends Error {}

const files = (dataDir: string) => ({
  pid: join(dataDir, 'aporta.pid'),
  request: join(dataDir, 'backup-request.json'),
  result: join(dataDir, 'backup-result.json'),
});

/** Files at the top of DATA_DIR that belong to a running process, not to the data: never copied, never restored. */
export const RUNTIME_FILES = ['aporta.pid', 'postmaster.pid', 'backup-request.json', 'backup-result.json'] as const;
const isRuntimeFile = (name: string) => {
  const top = name.replace(/^(\.?\/)+/, '');
  return (RUNTIME_FILES as readonly string[]).includes(top) || (!top.includes('/') && top.endsWith('.parcial'));
};

const realDir = (dir: string) => {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
};

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The pid of the server serving this data folder, or null: a pid file left by a crash does not count, nor
 * one that names another folder (copied here with the data). The pid file is `{"pid":…,"dataDir":…}`; a bare
 * number (written before issue 25) is still read.
 */
export function runningServer(dataDir: string): number | null {
  const { pid } = files(dataDir);
  if (!existsSync(pid)) return null;
  const text = readFileSync(pid, 'utf8').trim();
  let n: number;
  if (text.startsWith('{')) {
    let parsed: { pid?: unknown; dataDir?: unknown };
    try {
      parsed = JSON.parse(text) as { pid?: unknown; dataDir?: unknown };
    } catch {
      return null;
    }
    if (parsed.dataDir !== realDir(dataDir)) return null;
    n = Number(parsed.pid);
  } else {
    n = Number.parseInt(text, 10);
  }
  return Number.isSafeInteger(n) && n > 0 && alive(n) ? n : null;
}

/** A tar header's field as text (up to its first NUL). */
const field = (header: Buffer, start: number, length: number) =>
  header
    .subarray(start, start + length)
    .toString('latin1')
    .replace(/\0.*$/s, '');

/**
 * The tar `tar` without the runtime files (RUNTIME_FILES at its top). PGlite writes plain ustar entries; an
 * extended header (pax `x`, GNU `L`/`K`) is kept or dropped with the entry it describes.
 */
export function withoutRuntimeFiles(tar: Buffer): Buffer {
  const kept: Buffer[] = [];
  let pending: Buffer[] = [];
  let off = 0;
  while (off + 512 <= tar.length) {
    const header = tar.subarray(off, off + 512);
    if (header.every((b) => b === 0)) break;
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    if (!Number.isSafeInteger(size) || size < 0) throw new BackupError('La copia de seguridad está dañada (cabecera tar).');
    const end = off + 512 + Math.ceil(size / 512) * 512;
    const entry = tar.subarray(off, end);
    off = end;
    const type = String.fromCharCode(header[156]);
    if (type === 'x' || type === 'L' || type === 'K') {
      pending.push(entry);
      continue;
    }
    const prefix = field(header, 257, 6).startsWith('ustar') ? field(header, 345, 155) : '';
    const name = prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100);
    if (!isRuntimeFile(name)) kept.push(...pending, entry);
    pending = [];
  }
  kept.push(Buffer.alloc(1024));
  return Buffer.concat(kept);
}

/** Writes the snapshot file with owner-only permissions, through a temporary name so it is never half written. */
async function writeSnapshot(database: Database, file: string): Promise<number> {
  if (!database.snapshot) throw new BackupError('La copia de seguridad integrada solo existe para la base embebida (PGlite).');
  const blob = await database.snapshot();
  // The snapshot is the whole folder; the runtime files are taken out (compression runs off the main thread).
  const bytes = await promisify(gzip)(withoutRuntimeFiles(await promisify(gunzip)(Buffer.from(await blob.arrayBuffer()))));
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.parcial`;
  await writeFile(partial, bytes, { mode: 0o600 });
  renameSync(partial, file);
  return bytes.length;
}

/**
 * The server's answer to a backup request, written whole or not at all (a temporary file renamed into place):
 * the CLI polls for the file and must never read it half written.
 */
async function answer(file: string, body: object): Promise<void> {
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, JSON.stringify(body), { mode: 0o600 });
  renameSync(partial, file);
}

/**
 * Called by `serve` on PGlite: marks the folder as in use and answers backup requests from the CLI.
 * Returns the function that undoes both at shutdown.
 */
export function serveBackups(dataDir: string, database: Database): () => void {
  const f = files(dataDir);
  // The folder is private; a request or answer left by an earlier process is not this one's.
  chmodSync(dataDir, 0o700);
  rmSync(f.request, { force: true });
  rmSync(f.result, { force: true });
  writeFileSync(f.pid, JSON.stringify({ pid: process.pid, dataDir: realDir(dataDir) }), { mode: 0o600 });
  let busy = false;
  const onSignal = () => {
    if (busy) return;
    busy = true;
    void (async () => {
      let id = '';
      try {
        const req = JSON.parse(await readFile(f.request, 'utf8')) as { id: string; file: string };
        id = req.id;
        const bytes = await writeSnapshot(database, req.file);
        await answer(f.result, { id, ok: true, bytes });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        await answer(f.result, { id, ok: false, message }).catch(() => {});
      } finally {
        busy = false;
      }
    })();
  };
  process.on('SIGUSR2', onSignal);
  return () => {
    process.off('SIGUSR2', onSignal);
    if (existsSync(f.pid) && runningServer(dataDir) === process.pid) rmSync(f.pid, { force: true });
  };
}

/** `backup <file>`: a consistent snapshot of DATA_DIR, taken by the running server or, if none, directly. */
export async function backup(
  dataDir: string,
  target: string,
  opts: { timeoutMs?: number } = {},
): Promise<{ bytes: number; by: 'server' | 'cli' }> {
  const file = resolve(target);
  if (existsSync(file)) throw new BackupError(`El archivo ${file} ya existe; indique otro nombre.`);
  if (!existsSync(join(dataDir, 'PG_VERSION')) && !existsSync(join(dataDir, 'base')))
    throw new BackupError(`No hay base de datos en ${dataDir} (DATA_DIR).`);
  const pid = runningServer(dataDir);
  if (pid === null) {
    const database = await openDatabase({ dataDir });
    try {
      return { bytes: await writeSnapshot(database, file), by: 'cli' };
    } finally {
      await database.close();
    }
  }
  const f = files(dataDir);
  const id = randomUUID();
  await rm(f.result, { force: true });
  await writeFile(f.request, JSON.stringify({ id, file }), { mode: 0o600 });
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + (opts.timeoutMs ?? 10 * 60_000);
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    if (!existsSync(f.result)) {
      if (alive(pid)) continue;
      rmSync(f.request, { force: true });
      throw new BackupError(`El servidor (proceso ${pid}) terminó sin hacer la copia de seguridad.`);
    }
    const res = JSON.parse(readFileSync(f.result, 'utf8')) as { id: string; ok: boolean; bytes?: number; message?: string };
    if (res.id !== id) continue;
    rmSync(f.result, { force: true });
    rmSync(f.request, { force: true });
    if (!res.ok) throw new BackupError(`El servidor no pudo hacer la copia: ${res.message}`);
    return { bytes: res.bytes ?? statSync(file).size, by: 'server' };
  }
  throw new BackupError(`El servidor (proceso ${pid}) no respondió a la copia de seguridad a tiempo.`);
}

/** `restore <file>`: loads a snapshot into DATA_DIR, which must be new or empty (or --force), server stopped. */
export async function restore(dataDir: string, source: string, opts: { force?: boolean } = {}): Promise<void> {
  const file = resolve(source);
  if (!existsSync(file)) throw new BackupError(`No existe el archivo ${file}.`);
  const pid = runningServer(dataDir);
  if (pid !== null) throw new BackupError(`El servidor (proceso ${pid}) usa ${dataDir}; deténgalo antes de restaurar.`);
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    if (!opts.force)
      throw new BackupError(
        `La carpeta ${dataDir} no está vacía. Restaure en una carpeta nueva (DATA_DIR=<carpeta>) o use --force para reemplazarla.`,
      );
    rmSync(dataDir, { recursive: true, force: true });
  }
  const blob = new Blob([readFileSync(file)]);
  let database: Database;
  try {
    database = await openDatabase({ dataDir, loadDataDir: blob });
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw new BackupError(`El archivo ${file} no es una copia de seguridad válida de Aporta (${(err as Error).message}).`);
  }
  await database.close();
  // A copy taken before issue 25 carried the source's runtime files: none may name (or signal) its server.
  for (const name of readdirSync(dataDir)) if (isRuntimeFile(name)) rmSync(join(dataDir, name), { force: true });
  makePrivate(dataDir);
}

/** Directories 0700 and files 0600 under `dir` (itself included); symbolic links are left as they are. */
export function makePrivate(dir: string) {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) makePrivate(path);
    else if (entry.isFile()) chmodSync(path, 0o600);
  }
}
