import { getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { type Db, rowsOf } from './client.ts';

/**
 * ANALYZE `table` when its statistics are stale: never analysed, or more rows changed since the last ANALYZE
 * than 500 + 10 % of the rows it counted then (PostgreSQL's own autovacuum rule, 50 + 10 %, with a larger
 * floor). A bulk write (an upload's confirmation, a contributor import) calls this after its transaction:
 * the embedded database has no autovacuum, and on PostgreSQL autovacuum may come a minute late. Analysing
 * after every write instead cost 0.23 s per upload on a 250 000-line table (bench/month-end.mjs), most of
 * the database's time in a month-end; the counter is cumulative, so small writes add up until one analyses.
 * The write's own counters are flushed first (PostgreSQL ≥ 15; another connection's may lag a second or so,
 * which only delays the ANALYZE to a later write). Returns whether it analysed.
 */
export async function analyzeIfStale(db: Db, table: PgTable): Promise<boolean> {
  const name = getTableName(table);
  // PostgreSQL 15 and later (and PGlite); an older server flushes on its own, a moment later.
  await db.execute(sql`select pg_stat_force_next_flush()`).catch(() => undefined);
  const [s] = rowsOf<{ changed: number | string | null; counted: number | string | null }>(
    await db.execute(sql`select s.n_mod_since_analyze as changed, c.reltuples as counted
      from pg_class c left join pg_stat_user_tables s on s.relid = c.oid
      where c.oid = ${name}::regclass`),
  );
  const counted = Number(s?.counted ?? -1);
  const changed = Number(s?.changed ?? 0);
  if (counted >= 0 && changed < 500 + 0.1 * counted) return false;
  await db.execute(sql`analyze ${sql.identifier(name)}`);
  return true;
}
