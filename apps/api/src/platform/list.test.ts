import { COUNT_CAP } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contributorFixtures } from '../modules/contributors/fixtures.ts';
import { createTestApp, type TestApp, type TestUser } from '../test/harness.ts';

/**
 * listPage (platform/list.ts) through the contributors and users lists: pages by key forwards and
 * backwards without repeating or skipping rows that share a sort value, the old `page=` still answers,
 * and totals are exact up to COUNT_CAP, "at least" beyond, and the planner's estimate unfiltered.
 */
let t: TestApp;
let admin: TestUser;
let typeId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  typeId = (await contributorFixtures(t.database.db)).typeId;
});
afterAll(() => t.close());

const get = async (url: string) => {
  const res = await t.request({ method: 'GET', url, token: admin.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: { id: number }[]; total: number; totalKind: string; next: string | null; prev: string | null };
};

/** `n` contributors in one statement, all with the same created/updated time (a bulk import). */
async function bulk(n: number, from: number, state = 'ACTIVO') {
  await t.database.db.execute(sql`
    insert into contributors (cui, first_name, first_surname, search_name, birth_date, sex, type_id, state, created_at, updated_at)
    select lpad((${from}::bigint + g)::text, 13, '7'), 'BULTO', 'LISTADO', 'BULTO LISTADO', date '1980-01-01' + (g % 500), 'F',
           ${typeId}::int, ${state}, timestamptz '2024-02-03 04:05:06.789123', timestamptz '2024-02-03 04:05:06.789123'
    from generate_series(1, ${n}::int) g`);
}

/** Every id in `path`'s order by following `next`, then back by `prev` from the last page. */
async function walk(path: string) {
  const forward: number[][] = [];
  let page = await get(path);
  expect(page.prev).toBeNull();
  forward.push(page.items.map((r) => r.id));
  while (page.next) {
    page = await get(`${path}&after=${page.next}`);
    forward.push(page.items.map((r) => r.id));
  }
  const backward: number[][] = [page.items.map((r) => r.id)];
  while (page.prev) {
    page = await get(`${path}&before=${page.prev}`);
    backward.unshift(page.items.map((r) => r.id));
  }
  return { forward, backward };
}

describe('listPage', () => {
  it('pages by key forwards and backwards through rows sharing one updated_at, never repeating or skipping', async () => {
    await bulk(23, 1000);
    const expected = (
      (await t.database.db.execute(sql`select id from contributors order by updated_at desc, id desc`)) as unknown as {
        rows: { id: number }[];
      }
    ).rows.map((r) => r.id);
    const { forward, backward } = await walk('/api/contributors?pageSize=5');
    expect(forward.flat()).toEqual(expected);
    expect(forward.slice(0, -1).every((p) => p.length === 5)).toBe(true);
    // Backwards the pages are the same pages.
    expect(backward).toEqual(forward);
    // Another sort column (text, with ties): the same rows, each once.
    const byName = await walk('/api/contributors?pageSize=4&sort=-name');
    expect(byName.forward.flat().sort()).toEqual([...expected].sort());
    expect(byName.backward).toEqual(byName.forward);
  });

  it('pages by key on a nullable column (users by last sign-in), NULLs once each', async () => {
    for (let i = 0; i < 4; i++) await t.createUser({ grants: [{ resource: 'users', action: 'READ', scope: 'ALL' }] });
    const all = (await get('/api/users?pageSize=200&sort=lastLoginAt')).items.map((u) => u.id);
    const { forward, backward } = await walk('/api/users?pageSize=2&sort=lastLoginAt');
    expect(forward.flat()).toEqual(all);
    expect(backward).toEqual(forward);
    const desc = await walk('/api/users?pageSize=3&sort=-lastLoginAt');
    expect(desc.forward.flat().sort()).toEqual([...all].sort());
  });

  it('still answers page= by position, and hands on a cursor to go on by key', async () => {
    const first = await get('/api/contributors?pageSize=5');
    const second = await get('/api/contributors?pageSize=5&page=2');
    const byKey = await get(`/api/contributors?pageSize=5&after=${first.next}`);
    expect(second.items).toEqual(byKey.items);
    expect(second.next).toBe(byKey.next);
  });

  it('refuses a malformed cursor with a Spanish message naming it', async () => {
    const res = await t.request({ method: 'GET', url: '/api/contributors?after=1%20or%201=1', token: admin.token });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0]).toMatchObject({ path: 'consulta.after', message: 'El cursor de página no es válido.' });
  });

  it('counts exactly up to the cap, says "at least" beyond it, and estimates an unfiltered large table', async () => {
    await bulk(COUNT_CAP + 50, 100_000, 'INACTIVO');
    const exact = await get('/api/contributors?state=ACTIVO');
    expect(exact.totalKind).toBe('exact');
    expect(exact.total).toBeGreaterThan(0);
    const capped = await get('/api/contributors?state=INACTIVO&pageSize=10');
    expect(capped).toMatchObject({ total: COUNT_CAP, totalKind: 'atLeast' });
    expect(capped.items).toHaveLength(10);
    await t.database.db.execute(sql`analyze contributors`);
    const estimated = await get('/api/contributors?pageSize=10');
    expect(estimated.totalKind).toBe('estimate');
    expect(estimated.total).toBeGreaterThan(COUNT_CAP);
    // The export still exports everything the filters select.
    const csv = await t.request({ method: 'GET', url: '/api/contributors/export?format=csv&state=INACTIVO', token: admin.token });
    expect(csv.body.trim().split(/\r?\n/)).toHaveLength(COUNT_CAP + 50 + 1);
  });
});
