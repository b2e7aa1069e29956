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
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { type Database, openDatabase } from '../db/client.ts';

export class BackupError extends Error {}

const files = (dataDir: string) => ({
  pid: join(dataDir, 'aporta.pid'),
  request: join(dataDir, 'backup-request.json'),
  result: join(dataDir, 'backup-result.json'),
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The pid of the server serving this data folder, or null (a pid file left by a crash does not count). */
export function runningServer(dataDir: string): number | null {
  const { pid } = files(dataDir);
  if (!existsSync(pid)) return null;
  const n = Number.parseInt(readFileSync(pid, 'utf8'), 10);
  return Number.isSafeInteger(n) && n > 0 && alive(n) ? n : null;
}

/** Writes the snapshot file with owner-only permissions, through a temporary name so it is never half written. */
async function writeSnapshot(database: Database, file: string): Promise<number> {
  if (!database.snapshot) throw new BackupError('La copia de seguridad integrada solo existe para la base embebida (PGlite).');
  const blob = await database.snapshot();
  const bytes = Buffer.from(await blob.arrayBuffer());
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.parcial`;
  await writeFile(partial, bytes, { mode: 0o600 });
  renameSync(partial, file);
  return bytes.length;
}

/**
 * Called by `serve` on PGlite: marks the folder as in use and answers backup requests from the CLI.
 * Returns the function that undoes both at shutdown.
 */
export function serveBackups(dataDir: string, database: Database): () => void {
  const f = files(dataDir);
  writeFileSync(f.pid, String(process.pid), { mode: 0o600 });
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
        await writeFile(f.result, JSON.stringify({ id, ok: true, bytes }), { mode: 0o600 });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        await writeFile(f.result, JSON.stringify({ id, ok: false, message }), { mode: 0o600 }).catch(() => {});
      } finally {
        busy = false;
      }
    })();
  };
  process.on('SIGUSR2', onSignal);
  return () => {
    process.off('SIGUSR2', onSignal);
    if (readFileSync(f.pid, 'utf8') === String(process.pid)) rmSync(f.pid, { force: true });
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
    if (!existsSync(f.result)) continue;
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
  chmodSync(dataDir, 0o700);
}
