import { sql } from 'drizzle-orm';
import { integer, pgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneDatabase, clonePgDatabase } from '../test/harness.ts';
import { type Database, openDatabase, rowsOf } from './client.ts';
import { analyzeIfStale } from './statistics.ts';

const probe = pgTable('stats_probe', { id: integer().primaryKey() });

// One connection: a write's statistics reach the shared counters when its own connection flushes them, so the
// writes and the check go through the same one (the server's pool may see another's a second or so late).
let t: { database: Database; drop: () => Promise<void> };
beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) {
    const cloned = await clonePgDatabase();
    const database = await openDatabase({ url: cloned.url, poolSize: 1 });
    const drop = async () => {
      await database.close();
      await cloned.drop();
    };
    t = { database, drop };
  } else t = await cloneDatabase();
  await t.database.db.execute(sql`create table stats_probe (id integer primary key)`);
});
afterAll(() => t.drop());

const counted = async () =>
  Number(
    rowsOf<{ n: number }>(
      await t.database.db.execute(sql`select reltuples as n from pg_class where oid = 'stats_probe'::regclass`),
    )[0].n,
  );
const insert = (from: number, to: number) =>
  t.database.db.execute(sql`insert into ${probe} (id) select g from generate_series(${from}::int, ${to}::int) g`);

describe('ANALYZE only when statistics are stale (issue 30, month-end bench)', () => {
  it('analyses a table never analysed, skips a small change and analyses once the changes add up', async () => {
    await insert(1, 20_000);
    expect(await analyzeIfStale(t.database.db, probe)).toBe(true);
    expect(await counted()).toBe(20_000);
    // 2 000 rows: under 500 + 10 % of 20 000 — statistics left as they are.
    await insert(20_001, 22_000);
    expect(await analyzeIfStale(t.database.db, probe)).toBe(false);
    expect(await counted()).toBe(20_000);
    // 1 000 more: 3 000 changed since the last ANALYZE, over 2 500 — analysed, the planner sees 23 000.
    await insert(22_001, 23_000);
    expect(await analyzeIfStale(t.database.db, probe)).toBe(true);
    expect(await counted()).toBe(23_000);
    expect(await analyzeIfStale(t.database.db, probe)).toBe(false);
  });
});
