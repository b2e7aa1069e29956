// What every bench that needs its own database shares: a migrated database with the reference data, in a
// temporary folder (embedded PGlite) or, with BENCH_DATABASE_URL, a new PostgreSQL database it creates;
// `dispose()` closes it, drops the PostgreSQL database and removes the folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export async function openBenchDatabase() {
  const { openDatabase } = await import('../apps/api/src/db/client.ts');
  const { seedReference } = await import('../apps/api/src/seed/index.ts');
  const dir = mkdtempSync(join(tmpdir(), 'aporta-bench-'));
  let database;
  let dropDb = async () => {};
  if (process.env.BENCH_DATABASE_URL) {
    const name = `aporta_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const u = new URL(process.env.BENCH_DATABASE_URL);
    u.pathname = `/${name}`;
    database = await openDatabase({ url: u.toString() });
    dropDb = async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    };
  } else {
    database = await openDatabase({ dataDir: join(dir, 'db') });
  }
  await database.migrate();
  await seedReference(database.db);
  const dispose = async () => {
    await database.close();
    await dropDb();
    rmSync(dir, { recursive: true, force: true });
  };
  return { database, dir, dispose };
}
