import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openDatabase } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { seedAccountsDemo } from '../seed/accounts.ts';
import { seedCatalogDemo } from '../seed/catalogs.ts';
import { seedContributorDemo } from '../seed/contributors.ts';
import { seedReference } from '../seed/index.ts';
import { seedShellDemo } from '../seed/shell.ts';
import { BackupError, backup, RUNTIME_FILES, restore, runningServer, serveBackups } from './backup.ts';

const rows = async <T>(database: Database, query: SQL) => ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;

/** Every table of the database (application tables and drizzle's migration journal) → "rows:md5". */
async function fingerprint(database: Database): Promise<Record<string, string>> {
  const tables = await rows<{ name: string }>(
    database,
    sql`
    select quote_ident(table_schema) || '.' || quote_ident(table_name) as name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1`,
  );
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const [r] = await rows<{ n: string; sum: string }>(
      database,
      sql.raw(`select count(*)::text as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum from ${name} t`),
    );
    out[name] = `${r.n}:${r.sum}`;
  }
  return out;
}

const work = mkdtempSync(join(tmpdir(), 'aporta-backup-'));
const source = join(work, 'origen');
let database: Database;
let before: Record<string, string>;

beforeAll(async () => {
  // The backup is of the embedded database on every run (PGlite or PostgreSQL). A real data folder with the migrated schema, reference data and some demo data of every module.
  const template = inject('templateDump');
  database = await openDatabase(
    template ? { dataDir: source, loadDataDir: new Blob([readFileSync(template)]) } : { dataDir: source },
  );
  await database.migrate();
  // On the PostgreSQL run there is no PGlite template: the reference data is seeded here.
  if (!template) await seedReference(database.db);
  await seedAccountsDemo(database.db);
  await seedCatalogDemo(database.db);
  await seedContributorDemo(database.db, { people: 400, contributors: 150 });
  await seedShellDemo(database.db);
  before = await fingerprint(database);
  await database.close();
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

const openRestored = (dir: string) => openDatabase({ dataDir: dir });

/** What a restored folder must be: none of the source's runtime files, directories 0700 and files 0600. */
function expectCleanAndPrivate(dir: string) {
  for (const name of RUNTIME_FILES) expect(existsSync(join(dir, name)), `${dir}/${name}`).toBe(false);
  expect(readdirSync(dir).filter((n) => n.endsWith('.parcial'))).toEqual([]);
  const loose: string[] = [];
  const walk = (d: string) => {
    if ((statSync(d).mode & 0o777) !== 0o700) loose.push(`${d} ${(statSync(d).mode & 0o777).toString(8)}`);
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, e.name);
      if (e.isDirectory()) walk(path);
      else if ((statSync(path).mode & 0o777) !== 0o600) loose.push(`${path} ${(statSync(path).mode & 0o777).toString(8)}`);
    }
  };
  walk(dir);
  expect(loose.slice(0, 5)).toEqual([]);
}

// The real command line (src/main.ts) and the real server, as an operator runs them, on PGlite.
const mainScript = fileURLToPath(new URL('../main.ts', import.meta.url));
const children: ChildProcess[] = [];
const cliEnv = (dataDir: string): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    DEMO_DATA: 'false',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
  };
  delete env.DATABASE_URL;
  return env;
};

/** Runs `aporta <args>` on `dataDir`; a command still running after `timeoutMs` is killed and reported as such. */
function cli(dataDir: string, args: string[], timeoutMs = 120_000) {
  return new Promise<{ code: number | null; out: string; timedOut: boolean }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', mainScript, ...args], {
      env: cliEnv(dataDir),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    let timedOut = false;
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, timedOut });
    });
  });
}

/** `aporta serve` on `dataDir`; answers its address and how to stop it (SIGTERM, as an operator would). */
function serveFolder(dataDir: string) {
  return new Promise<{ url: string; stop: () => Promise<void> }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', mainScript, 'serve'], {
      env: cliEnv(dataDir),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    const stop = () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start: ${out}`));
    }, 150_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /Listo en (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], stop });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}): ${out}`));
    });
  });
}

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

describe('backup and restore of the embedded database', () => {
  it('a backup taken with no server running restores into a new folder with every table equal (rows and checksum)', async () => {
    const file = join(work, 'copia-cli.tar.gz');
    const r = await backup(source, file);
    expect(r.by).toBe('cli');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const target = join(work, 'restaurada-cli');
    await restore(target, file);
    const restored = await openRestored(target);
    try {
      const after = await fingerprint(restored);
      expect(Object.keys(after).length).toBeGreaterThan(20);
      expect(after).toEqual(before);
      expect(Object.values(after).some((v) => !v.startsWith('0:'))).toBe(true);
    } finally {
      await restored.close();
    }
  }, 180_000);

  it('while the server runs, the CLI asks it for the snapshot; a transaction in progress is all in the copy or not at all', async () => {
    const live = await openDatabase({ dataDir: source });
    const stop = serveBackups(source, live);
    try {
      expect(runningServer(source)).toBe(process.pid);
      // A transaction that changes two rows with a pause between them is running when the backup is asked.
      let release: () => void = () => {};
      const paused = new Promise<void>((r) => {
        release = r;
      });
      const tx = live.db.transaction(async (t) => {
        await t.update(users).set({ firstName: 'Copia-A' }).where(sql`${users.id} = (select min(id) from ${users})`);
        await paused;
        await t.update(users).set({ firstName: 'Copia-B' }).where(sql`${users.id} = (select max(id) from ${users})`);
      });
      const file = join(work, 'copia-servidor.tar.gz');
      const asked = backup(source, file);
      setTimeout(release, 300);
      const r = await asked;
      await tx;
      expect(r.by).toBe('server');
      // The restore refuses while the server uses the folder, and refuses a folder that is not empty.
      await expect(restore(source, file)).rejects.toThrow(/deténgalo antes de restaurar/);
      const target = join(work, 'restaurada-servidor');
      await restore(target, file);
      // The source's pid file and the request it was answering stayed behind: the copy names no server.
      expectCleanAndPrivate(target);
      expect(runningServer(target)).toBeNull();
      const restored = await openRestored(target);
      try {
        const [names] = await rows<{ n: string }>(
          restored,
          sql`select count(*)::text as n from ${users} where first_name in ('Copia-A', 'Copia-B')`,
        );
        expect(['0', '2']).toContain(names.n);
        const after = await fingerprint(restored);
        expect(after).toEqual(await fingerprint(live));
      } finally {
        await restored.close();
      }
    } finally {
      stop();
      await live.close();
    }
    expect(existsSync(join(source, 'aporta.pid'))).toBe(false);
  }, 180_000);

  it('restore refuses a non-empty folder without --force, a missing file and a file that is not a backup', async () => {
    const file = join(work, 'copia-cli.tar.gz');
    const busy = join(work, 'ocupada');
    mkdirSync(busy, { recursive: true });
    writeFileSync(join(busy, 'algo.txt'), 'x');
    await expect(restore(busy, file)).rejects.toThrow(/no está vacía.*--force/);
    await expect(restore(join(work, 'nueva'), join(work, 'no-existe.tar.gz'))).rejects.toThrow(/No existe el archivo/);
    const junk = join(work, 'basura.tar.gz');
    writeFileSync(junk, 'no es una copia');
    await expect(restore(join(work, 'basura'), junk)).rejects.toBeInstanceOf(BackupError);
    await restore(busy, file, { force: true });
    expect(existsSync(join(busy, 'algo.txt'))).toBe(false);
    const restored = await openRestored(busy);
    try {
      expect(await fingerprint(restored)).toEqual(before);
    } finally {
      await restored.close();
    }
    await expect(backup(source, file)).rejects.toThrow(/ya existe/);
  }, 180_000);

  it('a copy of a running server restores into a clean, private folder that backs up, restores again and serves the same data', async () => {
    const server = await serveFolder(source);
    const copies = join(work, 'ciclo');
    const first = join(copies, 'primera.tar.gz');
    const second = join(copies, 'segunda.tar.gz');
    const restored = join(copies, 'restaurada');
    const again = join(copies, 'restaurada-otra-vez');
    try {
      expect(runningServer(source)).not.toBeNull();
      const taken = await cli(source, ['backup', first]);
      expect(taken.out).toMatch(/tomada por el servidor en marcha/);
      expect(taken.code).toBe(0);
      // The running server's pid file, its request and PostgreSQL's pid file are not in the copy.
      const restoredOnce = await cli(restored, ['restore', first]);
      expect(restoredOnce.code, restoredOnce.out).toBe(0);
      expectCleanAndPrivate(restored);
      expect(existsSync(join(restored, 'signing-master.key'))).toBe(true);
      // A copy of the restored folder is taken by the command line itself (no server uses that folder),
      // not asked of the source's server, and it does not hang.
      const copied = await cli(restored, ['backup', second], 90_000);
      expect(copied.timedOut, copied.out).toBe(false);
      expect(copied.out).toMatch(/tomada con el servidor detenido/);
      expect(copied.code).toBe(0);
      // --force over the restored folder is not refused in the name of the source's server.
      const forced = await cli(restored, ['restore', second, '--force']);
      expect(forced.out).not.toMatch(/deténgalo/);
      expect(forced.code, forced.out).toBe(0);
      const restoredTwice = await cli(again, ['restore', second]);
      expect(restoredTwice.code, restoredTwice.out).toBe(0);
      expectCleanAndPrivate(restored);
      expectCleanAndPrivate(again);
    } finally {
      await server.stop();
    }
    expect(runningServer(source)).toBeNull();
    // Both restored folders hold the same data as the copy of the running server.
    const a = await openRestored(restored);
    let expected: Record<string, string>;
    try {
      expected = await fingerprint(a);
    } finally {
      await a.close();
    }
    const b = await openRestored(again);
    try {
      expect(await fingerprint(b)).toEqual(expected);
      const [u] = await rows<{ n: string }>(b, sql`select count(*)::text as n from ${users}`);
      expect(Number(u.n)).toBeGreaterThan(0);
    } finally {
      await b.close();
    }
    // The twice-restored folder starts as a server and answers, and a copy of it is asked of that server.
    const served = await serveFolder(again);
    try {
      const health = await fetch(`${served.url}/api/health`);
      expect(health.status).toBe(200);
      const third = await cli(again, ['backup', join(copies, 'tercera.tar.gz')]);
      expect(third.out).toMatch(/tomada por el servidor en marcha/);
      expect(third.code).toBe(0);
    } finally {
      await served.stop();
    }
    expect(runningServer(again)).toBeNull();
  }, 600_000);
});
