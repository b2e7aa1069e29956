// The contributors list's conditions: sortable columns, filters within scope, text and name search.
import { type ContributorListQuery, type CurrentUser, foldName, normalizeCui, normalizeNit, type Scope } from '@aporta/domain';
import { and, eq, like, or, type SQL, sql } from 'drizzle-orm';
import { contributors, municipalities, nameWords as nameWordsTable } from '../../db/schema/index.ts';
import { likePattern } from '../../platform/list.ts';
import { entityInScope } from '../../platform/scope.ts';

export const sortable = {
  id: contributors.id,
  cui: contributors.cui,
  name: contributors.searchName,
  firstSurname: contributors.firstSurname,
  birthDate: contributors.birthDate,
  state: contributors.state,
  cuiState: contributors.cuiState,
  updatedAt: contributors.updatedAt,
  createdAt: contributors.createdAt,
};

/**
 * WHERE of the list, the export and the reports. `q`: digits → exact CUI (13) or CUI prefix, or a NIT;
 * a NIT with its check letter (`576937-K`) → that NIT; text → a name search (`nameCondition`).
 */
export function contributorFilters(user: CurrentUser, scope: Scope, q: Partial<ContributorListQuery>): SQL | undefined {
  return filtersWithin(entityInScope(user.id, scope, contributors.entityId), q);
}

/**
 * The values of a query: inline, or placeholders of a prepared list (`PreparedList`, platform/list.ts) whose
 * `shape` says which conditions the SQL holds, so one shape is one statement text.
 */
export class Binder {
  readonly values: Record<string, unknown> = {};
  readonly shape: string[] = [];
  constructor(readonly prepare: boolean) {}

  /** `value` itself, or the placeholder `name` (its value kept for the execution). */
  bind<T>(name: string, value: T): T {
    if (!this.prepare) return value;
    this.values[name] = value;
    this.shape.push(name);
    return sql.placeholder(name) as unknown as T;
  }

  mark(part: string) {
    this.shape.push(part);
  }
}

const inline = new Binder(false);

/** The filters of `q` within `inScope` (the caller's scope on contributors.entity_id; undefined for ALL). */
export function filtersWithin(inScope: SQL | undefined, q: Partial<ContributorListQuery>, b: Binder = inline): SQL | undefined {
  const where: (SQL | undefined)[] = [inScope];
  if (q.entityId) where.push(eq(contributors.entityId, b.bind('entityId', q.entityId)));
  if (q.municipalityId) where.push(eq(contributors.municipalityId, b.bind('municipalityId', q.municipalityId)));
  if (q.departmentId) where.push(eq(municipalities.departmentId, b.bind('departmentId', q.departmentId)));
  if (q.typeId) where.push(eq(contributors.typeId, b.bind('typeId', q.typeId)));
  if (q.state) where.push(eq(contributors.state, b.bind('state', q.state)));
  if (q.cuiState) where.push(eq(contributors.cuiState, b.bind('cuiState', q.cuiState)));
  const text = q.q?.trim();
  if (text) where.push(textCondition(text, b));
  const present = where.filter((w): w is SQL => !!w);
  return present.length ? and(...present) : undefined;
}

/**
 * What the search box finds. Digits: 13 → one CUI; fewer → a CUI prefix or a NIT prefix (a NIT fragment of
 * at least `NIT_FRAGMENT_DIGITS` significant digits, or else the exact NIT), both on `text_pattern_ops` btree
 * indexes (a BitmapOr of two index range scans). A NIT with its dash and check character (`576937-K`,
 * `8977112-0`) → that NIT; ending in K without the dash (`576937K`) → that NIT too; dots, spaces and leading
 * zeros ignored. Any other text → a name search (`nameCondition`, never prepared: it runs in a transaction).
 */
function textCondition(text: string, b: Binder): SQL {
  const compact = text.replace(/[\s.]+/g, '');
  const digits = normalizeCui(compact);
  if (/^\d+$/.test(digits)) {
    if (digits.length === 13) return eq(contributors.cui, b.bind('cui', digits));
    const nit = digits.replace(/^0+(?=\d)/, '');
    const cuiPrefix = like(contributors.cui, b.bind('cuiPrefix', likePattern(digits, 'prefix')));
    if (nit.length >= NIT_FRAGMENT_DIGITS)
      return or(cuiPrefix, like(contributors.nit, b.bind('nitPrefix', likePattern(nit, 'prefix')))) as SQL;
    return or(cuiPrefix, eq(contributors.nit, b.bind('nit', nit))) as SQL;
  }
  if (/^\d+-?[kK]$/.test(digits) || /^\d+-[kK\d]$/.test(compact))
    return eq(contributors.nit, b.bind('nit', normalizeNit(compact)));
  return nameCondition(nameWords(text));
}

/** The shortest NIT fragment searched by prefix (fewer digits match the exact NIT only). */
export const NIT_FRAGMENT_DIGITS = 4;

/**
 * The words a name search matches. Never empty for a non-blank query: text with no word of two
 * characters (`%`, `a`, `% _`) is searched as one piece, so the WHERE and the rank always have a term.
 */
export const nameWords = (q: string) => {
  const folded = foldName(q);
  const words = folded.split(' ').filter((w) => w.length >= 2);
  return (words.length || !folded ? words : [folded]).slice(0, 6);
};

/**
 * A name search that scales with the number of distinct name words, not with rows (issue 11): each typed
 * word is corrected against the dictionary of name words (`name_words`, a few thousand rows, trigram
 * index): the words similar to it (pg_trgm similarity ≥ 0.3, the default threshold, so one typo in a
 * short word still counts — "LUSIA" for "LUCIA" scores 0.33) or containing it (a prefix for a two-letter
 * word). Then a contributor matches when, for every typed word, one of their name words is among its
 * corrections: an exact array match on the GIN index of `search_words`. Accents and case are folded on
 * both sides. This form (corrections in subqueries) serves exports, reports and counts; the list resolves
 * the corrections first and matches and ranks with them as values (name-search.ts, issue 30).
 */
function nameCondition(words: string[]): SQL {
  return and(
    ...words.map((w) => {
      const contains = w.length >= 3 ? likePattern(w) : likePattern(w, 'prefix');
      return sql`${contributors.searchWords} && (select coalesce(array_agg(${nameWordsTable.word}), '{}'::text[]) from ${nameWordsTable}
        where ${nameWordsTable.word} % ${w} or ${nameWordsTable.word} like ${contains})`;
    }),
  ) as SQL;
}

export const isNameQuery = (q?: string) => {
  const text = q?.trim();
  if (!text) return false;
  const compact = normalizeCui(text.replace(/[\s.]+/g, ''));
  return !/^\d+$/.test(compact) && !/^\d+-?[kK]$/.test(compact);
};
