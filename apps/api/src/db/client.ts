import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** The database handle services receive; a transaction has the same shape. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgresql';
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: a consistent gzip tarball of the data folder (see platform/backup.ts). */
  snapshot?(): Promise<Blob>;
}

export class DatabaseUnavailableError extends Error {}

/**
 * PostgreSQL through a pg pool when `url` is given; otherwise embedded PGlite in `dataDir` (or in
 * memory, or loaded from a dump, for tests).
 */
export async function openDatabase(
  opts: { url?: string; dataDir?: string; loadDataDir?: Blob; poolSize?: number } = {},
): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10, connectionTimeoutMillis: 5000 });
    // Without a listener an idle client's network error would crash the process.
    pool.on('error', () => {});
    try {
      const c = await pool.connect();
      c.release();
    } catch (err) {
      await pool.end().catch(() => {});
      const reason = err instanceof Error ? err.message : String(err);
      throw new DatabaseUnavailableError(`No se pudo conectar a PostgreSQL (DATABASE_URL): ${reason}`);
    }
    const db = drizzlePg(pool, { schema, casing: 'snake_case' }) as unknown as Db;
    return {
      db,
      kind: 'postgresql',
      migrate: () => migratePg(db as never, { migrationsFolder }),
      close: () => pool.end(),
    };
  }
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const client = await PGlite.create({
    dataDir: opts.dataDir,
    loadDataDir: opts.loadDataDir,
    // Trigram similarity for fuzzy name search (contributors).
    extensions: { pg_trgm },
  });
  const db = drizzlePglite(client, { schema, casing: 'snake_case' }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    // PGlite runs every statement and transaction under one lock; inside a (read-nothing) transaction of
    // our own no other is half done. CHECKPOINT writes every committed page to the files first.
    snapshot: () =>
      client.transaction(async (tx) => {
        await tx.exec('CHECKPOINT');
        return client.dumpDataDir('gzip');
      }),
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}
