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
  /** The PostgreSQL pools (main and priority) as they stand; none on PGlite (platform/metrics.ts). */
  poolStats(): PoolStats[];
  /** PostgreSQL only: subscribes to a NOTIFY channel on a connection of its own; returns the unsubscribe. */
  listen?(channel: string, onNotify: (payload: string) => void, onLost: () => void): Promise<() => Promise<void>>;
}

export class DatabaseUnavailableError extends Error {}

/** A pool of PostgreSQL connections as it stands (platform/metrics.ts). */
export interface PoolStats {
  pool: 'main' | 'priority';
  max: number;
  /** Connections open (in use or idle). */
  total: number;
  idle: number;
  /** Requests waiting for a connection. */
  waiting: number;
}

/** One checkout of a connection: how long it took, whether the pool was full when asked, whether it failed. */
export interface PoolAcquire {
  pool: PoolStats['pool'];
  seconds: number;
  waited: boolean;
  failed: boolean;
}

let poolAcquireListener: ((acquire: PoolAcquire) => void) | null = null;

/**
 * Told of every connection checkout of every PostgreSQL pool of this process (platform/metrics.ts, only when
 * metrics are on: nothing is measured otherwise). null stops it.
 */
export function onPoolAcquire(listener: ((acquire: PoolAcquire) => void) | null): void {
  poolAcquireListener = listener;
}

/** Measures each checkout of `pool` (a query's or a transaction's) for the listener of `onPoolAcquire`. */
function measureCheckouts(pool: pg.Pool, name: PoolStats['pool']): void {
  type Callback = (err: Error | undefined, client?: pg.PoolClient, done?: (release?: unknown) => void) => void;
  const connect = pool.connect.bind(pool) as (cb?: Callback) => Promise<pg.PoolClient> | undefined;
  // pg's own pool.query() calls this.connect(callback); a transaction calls pool.connect().
  (pool as unknown as { connect: (cb?: Callback) => unknown }).connect = (cb?: Callback) => {
    const listener = poolAcquireListener;
    if (!listener) return connect(cb);
    const waited = pool.idleCount === 0 && pool.totalCount >= (pool.options.max ?? 10);
    const started = performance.now();
    const report = (failed: boolean) => {
      try {
        listener({ pool: name, seconds: (performance.now() - started) / 1000, waited, failed });
      } catch {
        // A measurement never breaks a query.
      }
    };
    if (cb)
      return connect((err, client, done) => {
        report(!!err);
        cb(err, client, done);
      });
    return connect()!.then(
      (client) => {
        report(false);
        return client;
      },
      (err) => {
        report(true);
        throw err;
      },
    );
  };
}

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
    measureCheckouts(pool, 'main');
    measureCheckouts(priority, 'priority');
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
    let closed = false;
    return {
      db,
      priorityDb,
      kind: 'postgresql',
      poolWaiting: () => pool.waitingCount,
      poolStats: () =>
        (
          [
            ['main', pool],
            ['priority', priority],
          ] as const
        ).map(([name, p]) => ({
          pool: name,
          max: p.options.max ?? 10,
          total: p.totalCount,
          idle: p.idleCount,
          waiting: p.waitingCount,
        })),
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
      // Once: a second close (a shutdown after a failed start, a test) finds it closed, as PGlite's does.
      close: async () => {
        if (closed) return;
        closed = true;
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
    poolStats: () => [],
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
