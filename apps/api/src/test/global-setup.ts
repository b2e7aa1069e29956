import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.ts';
import { seedReference } from '../seed/index.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: path of a migrated and seeded data-dir dump to load per test file. */
    templateDump: string;
    /** PostgreSQL: name of the migrated and seeded template database. */
    templateDatabase: string;
  }
}

/**
 * Migrates and seeds once, then each test file clones the result: a PGlite dump, or a PostgreSQL
 * template database when TEST_DATABASE_URL is set. Much faster than migrating per file.
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `aporta_tpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    const u = new URL(url);
    u.pathname = `/${name}`;
    const database = await openDatabase({ url: u.toString(), poolSize: 2 });
    await database.migrate();
    await seedReference(database.db);
    await database.close();
    project.provide('templateDatabase', name);
    project.provide('templateDump', '');
    return async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`).catch(() => {});
      await admin.end();
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'aporta-tpl-'));
  const database = await openDatabase({});
  await database.migrate();
  await seedReference(database.db);
  const client = (database.db as unknown as { $client: import('@electric-sql/pglite').PGlite }).$client;
  const dump = await client.dumpDataDir('none');
  const file = join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('templateDump', file);
  project.provide('templateDatabase', '');
  return () => rmSync(dir, { recursive: true, force: true });
}
