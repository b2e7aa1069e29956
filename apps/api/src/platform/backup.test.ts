import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openDatabase } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { seedAccountsDemo } from '../seed/accounts.ts';
import { seedCatalogDemo } from '../seed/catalogs.ts';
import { seedContributorDemo } from '../seed/contributors.ts';
import { seedReference } from '../seed/index.ts';
import { seedShellDemo } from '../seed/shell.ts';
import { BackupError, backup, restore, runningServer, serveBackups } from './backup.ts';

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
});
