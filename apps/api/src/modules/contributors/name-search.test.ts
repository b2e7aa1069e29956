// Name search on common names (issue 30): tiers, the same people for exact and misspelt words, rare first.
import { foldName, makeCui } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { contributors } from '../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { nameWords } from './filters.ts';
import { attachUserToEntity, contributorFixtures } from './fixtures.ts';
import { matchOf, nameSearchTuning, plannedRows, rankOf, resolveName, surelyAboveCap, tierIds, tierPage } from './name-search.ts';

let t: TestApp;
let admin: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;
const people: Record<string, number[]> = {};

let serial = 0;
/** A CUI of its own for each row (ten serials apart: `makeCui` moves on past a serial without a check digit). */
const nextCui = () => makeCui(60_000_000 + 10 * serial++, '0904');

/** `n` contributors named `name` (first name, surnames) in `entity`, inserted directly: the search reads only rows. */
async function add(key: string, n: number, [first, s1, s2]: [string, string, string], entity: 'A' | 'B' = 'A') {
  const rows = Array.from({ length: n }, () => ({
    cui: nextCui(),
    firstName: first,
    firstSurname: s1,
    secondSurname: s2,
    searchName: foldName(`${first} ${s1} ${s2}`),
    birthDate: '1980-01-01',
    sex: 'F' as const,
    typeId: fx.typeId,
    entityId: (entity === 'A' ? fx.entityA : fx.entityB).id,
    municipalityId: fx.municipality.id,
  }));
  const ids = await t.database.db.insert(contributors).values(rows).returning({ id: contributors.id });
  people[key] = [...(people[key] ?? []), ...ids.map((r) => r.id)];
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  fx = await contributorFixtures(t.database.db);
  // Interleaved, so that ids of one name are not one run.
  for (let k = 0; k < 4; k++) {
    await add('hl', 15, ['José', 'Hernández', 'López']);
    await add('hg', 5, ['María', 'Hernández', 'García']);
    await add('lh', 2, ['Juan', 'López', 'Hernández']);
  }
  // Somebody whose name was written with the typo itself: HERNANDES and LOPES are dictionary words too.
  await add('typo', 1, ['Pedro', 'Hernandes', 'Lopes']);
  await add('rare', 1, ['José', 'Hernández', 'Tzaquitzal']);
  await add('b', 3, ['Ana', 'Hernández', 'López'], 'B');
  await t.database.db.execute(sql`analyze contributors`);
});
afterAll(() => t.close());

const list = async (q: string, extra = '', token = admin.token) => {
  const res = await t.request({ method: 'GET', url: `/api/contributors?q=${encodeURIComponent(q)}${extra}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: { id: number; fullName: string }[]; total: number; totalKind: string; next: string | null };
};

/** Every page of a search, following `next`. */
async function allPages(q: string, pageSize: number) {
  const ids: number[] = [];
  let after = '';
  for (let n = 0; n < 100; n++) {
    const page = await list(q, `&pageSize=${pageSize}${after}`);
    ids.push(...page.items.map((c) => c.id));
    if (!page.next) return ids;
    after = `&after=${encodeURIComponent(page.next)}`;
  }
  throw new Error('too many pages');
}

describe('name search on common names', () => {
  it('finds the same people for exact and misspelt common surnames, exact matches first', async () => {
    const all = [...people.hl, ...people.lh, ...people.typo, ...people.rare, ...people.b].filter(
      (id) => !people.rare.includes(id), // Tzaquitzal holds no LOPEZ
    );
    const exact = await allPages('hernandez lopez', 100);
    const typo = await allPages('Hernandes Lopes', 100);
    expect(new Set(exact)).toEqual(new Set(all));
    expect(new Set(typo)).toEqual(new Set(all));
    // Holding both typed words exactly comes first, newest first among them; the HERNANDES LOPES spelling last.
    const holders = [...people.hl, ...people.lh, ...people.b].sort((a, b) => b - a);
    expect(exact.slice(0, holders.length)).toEqual(holders);
    expect(exact.at(-1)).toBe(people.typo[0]);
    // Typed as written in the record, that record is first; then everyone else, in the same order.
    expect(typo[0]).toBe(people.typo[0]);
    expect(typo.slice(1)).toEqual(holders);
  });

  it('pages by tiers exactly as one ranking of every match would', async () => {
    for (const q of [
      'hernandes lopes',
      'jose hernandes',
      'hernandez',
      'hernandes',
      'lopes',
      'maria lopes',
      'lopez hernandez garcia',
      'jose',
    ]) {
      const name = await resolveName(t.database.db, nameWords(q));
      const ranked = rowsOf<{ id: number }>(
        await t.database.db.execute(
          sql`select ${contributors.id} as id from ${contributors} where ${matchOf(name)} order by ${sql.join(rankOf(name), sql`, `)}`,
        ),
      ).map((r) => r.id);
      const ids = async (offset: number, limit: number) =>
        (await tierPage(name, offset, limit, tierIds(t.database.db, undefined)))?.map((r) => r.id);
      expect(await ids(0, 1000), q).toEqual(ranked);
      expect(await ids(7, 11), q).toEqual(ranked.slice(7, 18));
      // Pages of the API, page by page, are the same order: ranked in one statement (few matches expected)
      // and by tiers.
      expect(await allPages(q, 7), q).toEqual(ranked);
      nameSearchTuning.fewMatches = 0;
      try {
        expect(await allPages(q, 7), q).toEqual(ranked);
      } finally {
        nameSearchTuning.fewMatches = 2_000;
      }
    }
  });

  it('finds the person with a rare surname first when it is typed with a common word, even misspelt', async () => {
    for (const q of ['hernandes tzaquitsal', 'tzakitzal hernandez', 'jose tzaquitzal']) {
      const res = await list(q);
      expect(res.items[0]?.id, q).toBe(people.rare[0]);
      expect(res.total, q).toBe(1);
    }
  });

  it('answers "más de" without counting when the planner expects far more matches than the cap', async () => {
    const db = t.database.db;
    const common = await resolveName(db, nameWords('hernandez'));
    const rare = await resolveName(db, nameWords('tzaquitzal'));
    expect(surelyAboveCap(await plannedRows(db, matchOf(common)), 5)).toBe(true);
    expect(surelyAboveCap(await plannedRows(db, matchOf(rare)), 5)).toBe(false);
    // Below the cap the list counts exactly.
    expect(await list('hernandez', '&pageSize=5')).toMatchObject({ total: 93, totalKind: 'exact' });
    expect(await list('zzzz qqqq')).toMatchObject({ items: [], total: 0 });
    expect(await list('zzzz')).toMatchObject({ items: [], total: 0 });
    expect(await list('hernandez', '&sort=name')).toMatchObject({ total: 93, totalKind: 'exact' });
  });

  it('counts a name search up to 1 000: "más de 1 000" beyond', async () => {
    await add('many', 1001, ['Zoila', 'Quisquiná', 'Yojcom']);
    expect(await list('zoila yojcom', '&pageSize=5')).toMatchObject({ total: 1000, totalKind: 'atLeast' });
    expect(await list('quisquina yojcom zoila', '&pageSize=5&sort=-id')).toMatchObject({ total: 1000, totalKind: 'atLeast' });
  });

  it('keeps a name search within the caller scope', async () => {
    const clerk = await t.createUser({ grants: [{ resource: 'contributor-list', action: 'READ', scope: 'ENTITY' }] });
    await attachUserToEntity(t.database.db, clerk.id, fx.entityB.id);
    const res = await list('hernandes lopes', '&pageSize=100', clerk.token);
    expect(res.items.map((c) => c.id).sort()).toEqual([...people.b].sort());
    expect(res.total).toBe(3);
  });
});
