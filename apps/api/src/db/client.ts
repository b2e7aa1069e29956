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
import { speedUpPg } from './pg-speed.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** The database handle services receive; a transaction has the same shape. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

/** The rows of a raw `db.execute(sql`…`)`: both drivers answer `{ rows }` (an array is taken as it is). */
export const rowsOf = <R>(result: unknown): R[] => (Array.isArray(result) ? result : (result as { rows: R[] }).rows) as R[];

export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgresql';
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: a consistent gzip tarball of the data folder (see platform/backup.ts). */
  snapshot?(): Promise<Blob>;
  /**
   * Sign-in, session checks and the health check: a small pool of their own on PostgreSQL, so they never
   * wait behind searches that hold the main pool (platform/load.ts). The same handle as `db` on PGlite.
   */
  priorityDb: Db;
  /** Requests waiting for a connection of the main pool (0 on PGlite). */
  poolWaiting(): number;
  /** PostgreSQL only: subscribes to a NOTIFY channel on a connection of its own; returns the unsubscribe. */
  listen?(channel: string, onNotify: (payload: string) => void, onLost: () => void): Promise<() => Promise<void>>;
}

export class DatabaseUnavailableError extends Error {}

/**
 * PostgreSQL through a pg pool when `url` is given; otherwise embedded PGlite in `dataDir` (or in
 * memory, or loaded from a dump, for tests).
 */
export async function openDatabase(
  opts: { url?: string; dataDir?: string; loadDataDir?: Blob; poolSize?: number; statementTimeoutMs?: number } = {},
): Promise<Database> {
  if (opts.url) {
    speedUpPg();
    // A backstop on every statement: nothing holds a connection for ever (platform/load.ts).
    const statement_timeout = opts.statementTimeoutMs ?? 120_000;
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: 5000,
      statement_timeout,
    });
    const priority = new pg.Pool({ connectionString: opts.url, max: 2, connectionTimeoutMillis: 5000, statement_timeout: 5_000 });
    // Without a listener an idle client's network error would crash the process.
    pool.on('error', () => {});
    priority.on('error', () => {});
    try {
      const c = await pool.connect();
      c.release();
    } catch (err) {
      await pool.end().catch(() => {});
      await priority.end().catch(() => {});
      const reason = err instanceof Error ? err.message : String(err);
      throw new DatabaseUnavailableError(`No se pudo conectar a PostgreSQL (DATABASE_URL): ${reason}`);
    }
    const db = drizzlePg(pool, { schema, casing: 'snake_case' }) as unknown as Db;
    const priorityDb = drizzlePg(priority, { schema, casing: 'snake_case' }) as unknown as Db;
    const listeners = new Set<pg.Client>();
    return {
      db,
      priorityDb,
      kind: 'postgresql',
      poolWaiting: () => pool.waitingCount,
      migrate: () => migratePg(db as never, { migrationsFolder }),
      async listen(channel, onNotify, onLost) {
        const client = new pg.Client({ connectionString: opts.url });
        listeners.add(client);
        let closing = false;
        const lost = () => {
          if (!closing) onLost();
        };
        client.on('error', lost);
        client.on('end', lost);
        client.on('notification', (n) => {
          if (n.channel === channel) onNotify(n.payload ?? '');
        });
        await client.connect();
        await client.query(`LISTEN ${channel}`);
        return async () => {
          closing = true;
          listeners.delete(client);
          await client.end().catch(() => {});
        };
      },
      close: async () => {
        for (const c of listeners) await c.end().catch(() => {});
        await Promise.all([pool.end(), priority.end()]);
      },
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
    priorityDb: db,
    poolWaiting: () => 0,
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

/**
 * A prepared statement built once per database handle (`build` calls drizzle's `.prepare(name)`): for the
 * hot queries (the session, the exact CUI lookup) no query is built again and PostgreSQL plans it once per
 * connection.
 */
export function preparedPerDb<T>(build: (db: Db) => T): (db: Db) => T {
  const statements = new WeakMap<Db, T>();
  return (db) => {
    let statement = statements.get(db);
    if (!statement) {
      statement = build(db);
      statements.set(db, statement);
    }
    return statement;
  };
}
