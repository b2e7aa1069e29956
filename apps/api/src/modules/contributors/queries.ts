// Reading contributors: the view of one, the list within scope (count, export, search), one by id.
import {
  AppError,
  type ContributorListQuery,
  type ContributorSearchResult,
  contributorFullName,
  msg,
  normalizeCui,
} from '@aporta/domain';
import { and, count, desc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { type Db, preparedPerDb } from '../../db/client.ts';
import { contributors, contributorTypes, departments, municipalEntities, municipalities } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { EXPORT_CHUNK_ROWS, type KeysetChunk, keysetBatches, keysetOf, listPage } from '../../platform/list.ts';
import { expensiveSearch } from '../../platform/load.ts';
import { entityInScope } from '../../platform/scope.ts';
import { Binder, filtersWithin, isNameQuery, nameWords, sortable } from './filters.ts';
import {
  matchOf,
  NAME_COUNT_CAP,
  nameSearchTuning,
  plannedRows,
  rankOf,
  resolveName,
  surelyAboveCap,
  tierPage,
} from './name-search.ts';

// What a contributor's view shows (toContributor): not the search columns nor who imported or created the
// row, which every list, lookup and export would otherwise read, send and parse for nothing.
const {
  searchName: _searchName,
  searchWords: _searchWords,
  importId: _importId,
  createdBy: _createdBy,
  ...shown
} = getTableColumns(contributors);

const selection = {
  ...shown,
  typeName: contributorTypes.name,
  entityName: municipalEntities.name,
  municipalityName: municipalities.name,
  departmentName: departments.name,
};

export const baseQuery = (db: Db) =>
  db
    .select(selection)
    .from(contributors)
    .innerJoin(contributorTypes, eq(contributorTypes.id, contributors.typeId))
    .leftJoin(municipalEntities, eq(municipalEntities.id, contributors.entityId))
    .leftJoin(municipalities, eq(municipalities.id, contributors.municipalityId))
    .leftJoin(departments, eq(departments.id, municipalities.departmentId));

type Joined = Awaited<ReturnType<ReturnType<typeof baseQuery>['execute']>>[number];

export const toContributor = (r: Joined) => ({
  id: r.id,
  cui: r.cui,
  nit: r.nit,
  firstName: r.firstName,
  secondName: r.secondName,
  thirdName: r.thirdName,
  firstSurname: r.firstSurname,
  secondSurname: r.secondSurname,
  marriedSurname: r.marriedSurname,
  fullName: contributorFullName(r),
  birthDate: r.birthDate,
  sex: r.sex,
  maritalStatus: r.maritalStatus,
  address: r.address,
  municipalityId: r.municipalityId,
  municipalityName: r.municipalityName,
  departmentName: r.departmentName,
  phone: r.phone,
  email: r.email,
  typeId: r.typeId,
  typeName: r.typeName,
  state: r.state,
  entityId: r.entityId,
  entityName: r.entityName,
  budgetLineCode: r.budgetLineCode,
  hireDate: r.hireDate,
  salary: r.salary,
  cuiState: r.cuiState,
  renapCheckedAt: r.renapCheckedAt?.toISOString() ?? null,
  renapResult: r.renapResult,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});
export type ContributorView = ReturnType<typeof toContributor>;

/**
 * The paginated list (listPage: by key, totals that do not scan). A name search is an expensive search:
 * it runs through the search gate, under the search statement timeout (platform/load.ts), ranked by
 * relevance unless a sort is asked. Callers: contributor-list READ (the list), contributors READ (the
 * palette search).
 */
export async function findContributors(ctx: RequestContext, query: ContributorListQuery) {
  const inScope = ctx.inScope(contributors.entityId);
  const cui = exactCuiOnly(query);
  if (cui && !inScope) {
    // The hottest lookup (one CUI, whole scope, no other filter): a prepared statement, no query building.
    const rows = await cuiStatementOf(ctx.db).execute({ cui });
    return { items: rows.map(toContributor), total: rows.length, totalKind: 'exact' as const, next: null, prev: null };
  }
  const byName = isNameQuery(query.q);
  // Every list but a name search is a prepared statement per shape (platform/list.ts, PreparedList); the
  // scope's user id is one of its values.
  const b = new Binder(!byName);
  b.mark(`scope:${ctx.scope}`);
  const scoped = inScope && b.prepare ? entityInScope(b.bind('userId', ctx.user.id), ctx.scope!, contributors.entityId) : inScope;
  if (byName) {
    // A name search: its words are corrected against the dictionary first, inside the search's transaction,
    // then matched and ranked with the corrections as values (name-search.ts).
    const res = await expensiveSearch(ctx.db, (tx) => namePage(tx, filtersWithin(scoped, { ...query, q: undefined }), query));
    return { ...res, items: res.items.map(toContributor) };
  }
  const where = filtersWithin(scoped, query, b);
  const page = (db: Db) =>
    listPage(db, {
      query,
      sortable,
      defaultSort: '-updatedAt',
      rows: (c) =>
        baseQuery(db)
          .where(and(where, c.where))
          .orderBy(...c.order)
          .limit(c.limit)
          .offset(c.offset),
      idOf: (r) => r.id,
      count: () =>
        db
          .select({ id: contributors.id })
          .from(contributors)
          .leftJoin(municipalities, eq(municipalities.id, contributors.municipalityId))
          .where(where),
      estimateTable: where ? undefined : contributors,
      prepared: b.prepare ? { key: `contributors|${b.shape.join(',')}`, values: b.values } : undefined,
    });
  const res = await page(ctx.db);
  return { ...res, items: res.items.map(toContributor) };
}

/**
 * One page of a name search within `base` (scope and the other filters). Ranked by relevance unless a sort
 * is asked: in one statement (`rankOf`) when the planner expects few matches (`nameSearchTuning`), else by tiers
 * (`tierPage`), or by `rankOf` again when the page lies past the first tiers; a sorted search pages by key like
 * any list. Counted up to `NAME_COUNT_CAP` ("más de 1 000"), and not at all when the planner expects far
 * more matches (`surelyAboveCap`).
 */
async function namePage(db: Db, base: SQL | undefined, query: ContributorListQuery) {
  const name = await resolveName(db, nameWords(query.q!));
  // A word nothing in the dictionary resembles: nobody matches.
  if (name.levels.some((ls) => !ls.length)) return { items: [], total: 0, totalKind: 'exact' as const, next: null, prev: null };
  const where = and(base, matchOf(name));
  const planned = await plannedRows(db, where);
  const ranked = !query.sort;
  return listPage(db, {
    query,
    sortable,
    defaultSort: '-updatedAt',
    rows: (c) => {
      const general = () =>
        baseQuery(db)
          .where(and(where, c.where))
          .orderBy(...c.order)
          .limit(c.limit)
          .offset(c.offset);
      if (!ranked || planned <= nameSearchTuning.fewMatches) return general();
      const tierRows = (tier: SQL, limit: number) =>
        baseQuery(db).where(and(base, tier)).orderBy(desc(contributors.id)).limit(limit);
      return tierPage(name, Number(c.offset), Number(c.limit), tierRows).then((rows) => rows ?? general());
    },
    idOf: (r) => r.id,
    count: () =>
      db
        .select({ id: contributors.id })
        .from(contributors)
        .leftJoin(municipalities, eq(municipalities.id, contributors.municipalityId))
        .where(where),
    countCap: NAME_COUNT_CAP,
    surelyAboveCap: async () => surelyAboveCap(planned),
    ranked: ranked ? rankOf(name) : undefined,
  });
}

/** The CUI of a query that asks for one CUI and nothing else (no filter, no cursor, no sort); else null. */
function exactCuiOnly(query: ContributorListQuery): string | null {
  const digits = normalizeCui(query.q?.trim() ?? '');
  if (!/^\d{13}$/.test(digits) || query.after || query.before || query.page > 1) return null;
  const { entityId, municipalityId, departmentId, typeId, state, cuiState } = query;
  return entityId || municipalityId || departmentId || typeId || state || cuiState ? null : digits;
}

const cuiStatementOf = preparedPerDb((db: Db) =>
  baseQuery(db)
    .where(eq(contributors.cui, sql.placeholder('cui')))
    .limit(1)
    .prepare('contributor_by_cui'),
);

/** How many contributors the filters select in the caller's scope (a background export's total). Callers: the export job. */
export async function countContributors(ctx: RequestContext, query: Partial<ContributorListQuery>) {
  const where = filtersWithin(ctx.inScope(contributors.entityId), query);
  return (
    await ctx.db
      .select({ total: count() })
      .from(contributors)
      .leftJoin(municipalities, eq(municipalities.id, contributors.municipalityId))
      .where(where)
  )[0].total;
}

/**
 * The export's rows in keyset chunks (short statements), same filters and scope as the list. The sort
 * is checked here, before the first byte. Callers: GET /api/contributors/export (EXPORT, with scope).
 */
export function exportContributorBatches(ctx: RequestContext, query: Partial<ContributorListQuery>) {
  const keyset = keysetOf(query.sort, sortable, 'id');
  const where = filtersWithin(ctx.inScope(contributors.entityId), query);
  const chunk = async (db: Db, c: KeysetChunk) =>
    (
      await baseQuery(db)
        .where(and(where, c.after))
        .orderBy(...c.order)
        .limit(c.limit)
    ).map(toContributor);
  return keysetBatches(
    keyset,
    (c) => chunk(ctx.db, c),
    (r) => r.id,
    EXPORT_CHUNK_ROWS,
  );
}

/** Palette search: up to 8 matches by CUI (exact/prefix) or name. Callers: contributors READ. */
export async function searchContributors(ctx: RequestContext, input: { q: string }): Promise<ContributorSearchResult> {
  const res = await findContributors(ctx, { q: input.q, page: 1, pageSize: 8 });
  return res.items.map((c) => ({ id: c.id, cui: c.cui, fullName: c.fullName, entityName: c.entityName, state: c.state }));
}

/** One contributor by id, limited by `inScope` when given. */
export async function loadOne(db: Db, id: number, inScope?: SQL): Promise<ContributorView> {
  const [r] = await baseQuery(db)
    .where(and(eq(contributors.id, id), inScope))
    .limit(1);
  if (!r) throw new AppError('NOT_FOUND', msg('contributors.notFound'));
  return toContributor(r);
}

export const loadInScope = (ctx: RequestContext, id: number) => loadOne(ctx.db, id, ctx.inScope(contributors.entityId));

/** One contributor, within the caller's scope. Callers: contributors READ. */
export const getContributor = (ctx: RequestContext, input: { id: number }) => loadInScope(ctx, input.id);

/** Checks the catalogue references of a contributor; 400 naming each unknown one. */
