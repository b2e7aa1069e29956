// Name search on the common case (issue 30): a clerk types the commonest names all day, and a word such as
// HERNANDEZ is held by a quarter of the people. The search must cost what the page costs, not what the
// matches cost.
import { and, desc, eq, not, or, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { contributors, municipalities, nameWords } from '../../db/schema/index.ts';
import { likePattern } from '../../platform/list.ts';

/** Corrections of one typed word that rank alike: the same similarity, exact (the typed word itself) or not. */
export interface Level {
  words: string[];
  exact: boolean;
  /** pg_trgm similarity × 10 000, rounded: an integer, so JavaScript and SQL order levels the same way. */
  score: number;
}

/** A name search resolved against the dictionary: for each typed word, its corrections by level, best first. */
export interface ResolvedName {
  words: string[];
  levels: Level[][];
}

/**
 * Each typed word's corrections in one statement on the dictionary of name words (`name_words`, trigram
 * index): the words similar to it (pg_trgm similarity ≥ 0.3) or containing it (a prefix for a two-letter
 * word), as `nameCondition` (filters.ts) corrects them for exports and reports.
 */
export async function resolveName(db: Db, words: string[]): Promise<ResolvedName> {
  const patterns = words.map((w) => (w.length >= 3 ? likePattern(w) : likePattern(w, 'prefix')));
  const rows = rowsOf<{ i: number | string; word: string; score: number | string }>(
    await db.execute(sql`select t.i::int as i, n.word, round(similarity(n.word, t.w) * 10000)::int as score
      from unnest(${sql.param(words)}::text[], ${sql.param(patterns)}::text[]) with ordinality as t(w, pat, i)
      cross join lateral (select ${nameWords.word} as word from ${nameWords}
        where ${nameWords.word} % t.w or ${nameWords.word} like t.pat) n`),
  );
  const levels = words.map((typed, k) => {
    const byKey = new Map<string, Level>();
    for (const r of rows) {
      if (Number(r.i) !== k + 1) continue;
      const exact = r.word === typed;
      const score = exact ? 10_000 : Number(r.score);
      const key = `${exact}:${score}`;
      const level = byKey.get(key) ?? { words: [], exact, score };
      level.words.push(r.word);
      byKey.set(key, level);
    }
    return [...byKey.values()].sort((a, b) => Number(b.exact) - Number(a.exact) || b.score - a.score);
  });
  return { words, levels };
}

const holdsAny = (words: string[]) => sql`${contributors.searchWords} && ${sql.param(words)}::text[]`;

/** Contributors holding, for every typed word, one of its corrections (false when a word has none). */
export const matchOf = (name: ResolvedName): SQL =>
  name.levels.some((ls) => !ls.length)
    ? sql`false`
    : (and(...name.levels.map((ls) => holdsAny(ls.flatMap((l) => l.words)))) as SQL);

/**
 * Relevance: contributors holding more of the typed words exactly first, then the sum, over the typed words,
 * of the best similarity among the corrections they hold, then the newest. The same order the tiers walk.
 */
export const rankOf = (name: ResolvedName): SQL[] => {
  // Only the words that are themselves in the dictionary count as exact (a key of constants alone would be
  // read by PostgreSQL as a column position).
  const exact = name.levels
    .map((ls) => ls.filter((l) => l.exact).flatMap((l) => l.words))
    .filter((words) => words.length)
    .map((words) => sql`(${holdsAny(words)})::int`);
  const scores = name.levels.map((ls) => {
    const words = ls.flatMap((l) => l.words);
    const values = ls.flatMap((l) => l.words.map(() => l.score));
    return sql`coalesce((select max(x.s) from unnest(${sql.param(words)}::text[], ${sql.param(values)}::int[]) as x(c, s)
        where x.c = any(${contributors.searchWords})), 0)`;
  });
  return [
    ...(exact.length ? [sql`(${sql.join(exact, sql` + `)}) desc`] : []),
    sql`(${sql.join(scores, sql` + `)}) desc`,
    desc(contributors.id),
  ];
};

/** At most this many combinations of levels are ranked by tiers; a search with more is ranked by `rankOf`. */
const MAX_COMBINATIONS = 4096;
/** At most this many tier statements per page before the page is ranked by `rankOf` instead. */
export const MAX_TIER_STATEMENTS = 12;

/**
 * The tiers of a search, best first: every combination of one level per typed word, grouped by their rank
 * (exact words held, sum of scores). A contributor belongs to the combination of the best level they hold
 * for each word, so the tiers partition the matches and a tier's rows are in id order. Null when the
 * combinations are too many to enumerate.
 */
export function tiersOf(name: ResolvedName): SQL[] | null {
  const { levels } = name;
  if (levels.some((ls) => !ls.length)) return [];
  if (levels.reduce((n, ls) => n * ls.length, 1) > MAX_COMBINATIONS) return null;
  let combos: number[][] = [[]];
  for (const ls of levels) combos = combos.flatMap((c) => ls.map((_, j) => [...c, j]));
  const keyOf = (c: number[]) => ({
    exact: c.reduce((s, j, i) => s + Number(levels[i][j].exact), 0),
    score: c.reduce((s, j, i) => s + levels[i][j].score, 0),
  });
  const groups = new Map<string, { exact: number; score: number; combos: number[][] }>();
  for (const c of combos) {
    const k = keyOf(c);
    const id = `${k.exact}:${k.score}`;
    const group = groups.get(id) ?? { ...k, combos: [] };
    group.combos.push(c);
    groups.set(id, group);
  }
  const condition = (c: number[]) =>
    and(
      ...c.map((j, i) => {
        const better = levels[i].slice(0, j).flatMap((l) => l.words);
        return better.length ? and(holdsAny(levels[i][j].words), not(holdsAny(better))) : holdsAny(levels[i][j].words);
      }),
    ) as SQL;
  return [...groups.values()]
    .sort((a, b) => b.exact - a.exact || b.score - a.score)
    .map((g) => (g.combos.length === 1 ? condition(g.combos[0]) : (or(...g.combos.map(condition)) as SQL)));
}

/** A tier's rows, newest first: `… where <tier> order by id desc limit n`. */
export type TierRows<R> = (tier: SQL, limit: number) => PromiseLike<R[]>;

/** Tier rows that are only ids (within `where`). */
export const tierIds =
  (db: Db, where: SQL | undefined): TierRows<{ id: number }> =>
  (tier, limit) =>
    db
      .select({ id: contributors.id })
      .from(contributors)
      .leftJoin(municipalities, eq(municipalities.id, contributors.municipalityId))
      .where(and(where, tier))
      .orderBy(desc(contributors.id))
      .limit(limit);

/**
 * One page of a ranked name search, walking the tiers best first: each tier is one statement
 * `… order by id desc limit n` (`rows`), which the planner answers by reading the primary key backwards when
 * the tier's words are common (HERNANDEZ and LOPEZ: some 90 rows read per row shown) and by the words' GIN
 * index when one is rare (the word frequencies it weighs are its statistics of `search_words`). So the cost
 * follows the page, not the number of matches. Null when the page needs more than `MAX_TIER_STATEMENTS` tiers
 * (or the tiers cannot be enumerated): the caller ranks the matches with `rankOf` instead.
 */
export async function tierPage<R>(name: ResolvedName, offset: number, limit: number, rows: TierRows<R>): Promise<R[] | null> {
  const tiers = tiersOf(name);
  if (!tiers) return null;
  const page: R[] = [];
  let skip = offset;
  for (const [n, tier] of tiers.entries()) {
    if (n >= MAX_TIER_STATEMENTS) return null;
    const got = await rows(tier, skip + limit - page.length);
    if (got.length <= skip) {
      skip -= got.length;
      continue;
    }
    page.push(...got.slice(skip));
    skip = 0;
    if (page.length >= limit) break;
  }
  return page.slice(0, limit);
}

/**
 * The planner's estimate of how many contributors `where` selects, from its statistics (for `search_words`,
 * each word's frequency, kept by ANALYZE): one EXPLAIN, no row read.
 */
export async function plannedRows(db: Db, where: SQL | undefined): Promise<number> {
  const query = db
    .select({ one: sql`1` })
    .from(contributors)
    .leftJoin(municipalities, eq(municipalities.id, contributors.municipalityId))
    .where(where);
  const [row] = rowsOf<Record<string, unknown>>(await db.execute(sql`explain (format json) ${query}`));
  const cell = row ? Object.values(row)[0] : undefined;
  const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan?: { 'Plan Rows'?: number } }[] | undefined;
  return plan?.[0]?.Plan?.['Plan Rows'] ?? 0;
}

/**
 * `fewMatches`: a search the planner expects to match at most this many rows is ranked in one statement
 * (`rankOf`, on the GIN index, whose intersection skips through a common word's entries along a rare word's);
 * above it, by tiers. A setting of the module (a test sets it to 0 to page a small table by tiers).
 */
export const nameSearchTuning = { fewMatches: 2_000 };

/**
 * Where a name search stops counting: "más de 1 000" rather than the lists' 10 000. A ranked search is read
 * from its top; counting to 10 000 reads up to 10 000 rows at random (40–90 ms for two common surnames on
 * 1 000 000), which is what the page itself no longer costs.
 */
export const NAME_COUNT_CAP = 1_000;

/**
 * Whether a search surely matches more than it counts (`cap`): the planner's estimate of its rows
 * (`plannedRows`) is at least four times the cap. Then
 * the total is "más de …" without a count that would read the matches. Four times: the planner multiplies
 * the words' frequencies as if independent, which overestimates two surnames held together about twice
 * (HERNANDEZ and LOPEZ: 39 153 expected, 21 841 found on 1 000 000).
 */
export const surelyAboveCap = (planned: number, cap = NAME_COUNT_CAP) => planned >= 4 * cap;
