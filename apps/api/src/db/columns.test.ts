import { MAX_AMOUNT_CENTS } from '@aporta/domain';
import { asc, sql } from 'drizzle-orm';
import { integer, pgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { jsonValue, money, rate } from './columns.ts';

const probe = pgTable('money_probe', { id: integer().primaryKey(), amount: money(), pct: rate() });

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.database.db.execute(sql`create table money_probe (id integer primary key, amount numeric(14, 2), pct numeric(7, 4))`);
});
afterAll(() => t.close());

describe('money and rate columns (issue 10)', () => {
  it('keeps any JSON value in jsonb, bare strings included', async () => {
    const j = pgTable('json_probe', { id: integer().primaryKey(), v: jsonValue() });
    await t.database.db.execute(sql`create table json_probe (id integer primary key, v jsonb)`);
    const values = [
      '7.0000',
      '12',
      7,
      ['011', '022'],
      { fixed: [{ day: '01-01', name: 'Año Nuevo' }] },
      true,
      'texto "con" comillas',
    ];
    await t.database.db.insert(j).values(values.map((v, i) => ({ id: i + 1, v })));
    const back = await t.database.db.select().from(j).orderBy(asc(j.id));
    expect(back.map((r) => r.v)).toEqual(values);
  });

  it('write and read the extremes of numeric(14,2) and numeric(7,4) exactly', async () => {
    const rows = [
      { id: 1, amount: MAX_AMOUNT_CENTS, pct: '999.9999' },
      { id: 2, amount: -MAX_AMOUNT_CENTS, pct: '0.0001' },
      { id: 3, amount: 1n, pct: '7.0000' },
      { id: 4, amount: -1n, pct: '0.0000' },
      { id: 5, amount: 0n, pct: '12.3456' },
      { id: 6, amount: 98_765_432_109_876n, pct: '100.0000' },
    ];
    await t.database.db.insert(probe).values(rows);
    const back = await t.database.db.select().from(probe).orderBy(asc(probe.id));
    expect(back).toEqual(rows);
    const [text] = await t.database.db
      .select({ amount: sql<string>`${probe.amount}::text` })
      .from(probe)
      .where(sql`${probe.id} = 1`);
    expect(text.amount).toBe('999999999999.99');
  });

  it('sums in SQL stay exact when read back', async () => {
    const [{ total }] = await t.database.db
      .select({ total: sql<string>`sum(${probe.amount})::text` })
      .from(probe)
      .where(sql`${probe.id} in (3, 5, 6)`);
    expect(total).toBe('987654321098.77');
  });

  it('refuses a rate SQL would round or overflow, before it reaches the database', async () => {
    await expect(t.database.db.insert(probe).values({ id: 7, amount: 0n, pct: '7.12345' })).rejects.toThrow(/cuatro decimales/);
    await expect(t.database.db.insert(probe).values({ id: 8, amount: 0n, pct: '1000' })).rejects.toThrow(/supera el máximo/);
    // An amount beyond numeric(14,2) is refused by the database, never truncated.
    await expect(t.database.db.insert(probe).values({ id: 9, amount: MAX_AMOUNT_CENTS + 1n, pct: '1' })).rejects.toThrow();
  });
});
