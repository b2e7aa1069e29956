import {
  AppError,
  type ContributorData,
  type ContributorHistoryQuery,
  type ContributorListQuery,
  type ContributorOptions,
  type ContributorOverview,
  type ContributorRenapLookup,
  type ContributorSearchResult,
  type CurrentUser,
  compareWithRenap,
  contributorFullName,
  type contributorInputSchema,
  contributorSearchName,
  type contributorUpdateSchema,
  cuiMunicipalityCode,
  type ErrorDetail,
  foldName,
  formatCui,
  normalizeCui,
  normalizeNit,
  type Resource,
  type Scope,
  scopeRank,
} from '@aporta/domain';
import { and, count, desc, eq, getTableColumns, inArray, like, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type Db, preparedPerDb } from '../../db/client.ts';
import {
  auditLog,
  budgetLines,
  contributors,
  contributorTypes,
  cuiApprovalRequests,
  departments,
  municipalEntities,
  municipalities,
  nameWords as nameWordsTable,
} from '../../db/schema/index.ts';
import { auditHistoryPage } from '../../platform/audit.ts';
import { entityIdsInScope, type RequestContext, withPermission } from '../../platform/context.ts';
import { registerConstraintRules, toAppError } from '../../platform/db-errors.ts';
import { EXPORT_CHUNK_ROWS, type KeysetChunk, keysetBatches, keysetOf, likePattern, listPage } from '../../platform/list.ts';
import { expensiveSearch } from '../../platform/load.ts';
import { entityInScope } from '../../platform/scope.ts';
import { notifyCuiApprovers } from '../cui-approvals/service.ts';
import type { RenapAdapter } from '../renap/adapter.ts';
import { lookupForScreen, lookupRenap, type RenapOutcome } from '../renap/service.ts';

const PENDING_CUI_REQUEST = 'Este afiliado ya tiene una solicitud de CUI pendiente; espere a que se resuelva.';

registerConstraintRules({
  cui_approval_requests_one_open: { path: 'cui', message: PENDING_CUI_REQUEST, code: 'CONFLICT' },
  contributors_cui_key: { path: 'cui', message: 'Ya existe un afiliado con este CUI.' },
});

const searchNameOf = contributorSearchName;

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

const baseQuery = (db: Db) =>
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

const sortable = {
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
class Binder {
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
function filtersWithin(inScope: SQL | undefined, q: Partial<ContributorListQuery>, b: Binder = inline): SQL | undefined {
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
const nameWords = (q: string) => {
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
 * both sides.
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

/** Relevance of a name search: contributors holding every typed word exactly first, then by trigram similarity. */
const nameRank = (words: string[]): SQL[] => [
  sql`(${sql.join(
    words.map((w) => sql`(${w} = any(${contributors.searchWords}))::int`),
    sql` + `,
  )}) desc`,
  sql`(${sql.join(
    words.map((w) => sql`word_similarity(${w}, ${contributors.searchName})`),
    sql` + `,
  )}) desc`,
  desc(contributors.id),
];

const isNameQuery = (q?: string) => {
  const text = q?.trim();
  if (!text) return false;
  const compact = normalizeCui(text.replace(/[\s.]+/g, ''));
  return !/^\d+$/.test(compact) && !/^\d+-?[kK]$/.test(compact);
};

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
      ranked: byName && !query.sort ? nameRank(nameWords(query.q!)) : undefined,
      prepared: b.prepare ? { key: `contributors|${b.shape.join(',')}`, values: b.values } : undefined,
    });
  const res = byName ? await expensiveSearch(ctx.db, page) : await page(ctx.db);
  return { ...res, items: res.items.map(toContributor) };
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
async function loadOne(db: Db, id: number, inScope?: SQL): Promise<ContributorView> {
  const [r] = await baseQuery(db)
    .where(and(eq(contributors.id, id), inScope))
    .limit(1);
  if (!r) throw new AppError('NOT_FOUND', 'El afiliado no existe o no está dentro de su alcance.');
  return toContributor(r);
}

const loadInScope = (ctx: RequestContext, id: number) => loadOne(ctx.db, id, ctx.inScope(contributors.entityId));

/** One contributor, within the caller's scope. Callers: contributors READ. */
export const getContributor = (ctx: RequestContext, input: { id: number }) => loadInScope(ctx, input.id);

/** Checks the catalogue references of a contributor; 400 naming each unknown one. */
async function checkReferences(db: Db, data: Partial<ContributorData>, allowed: Set<number> | null) {
  const details: ErrorDetail[] = [];
  const exists = async (table: 'type' | 'entity' | 'municipality' | 'budgetLine') => {
    if (table === 'type' && data.typeId != null) {
      const [r] = await db
        .select({ id: contributorTypes.id, isActive: contributorTypes.isActive })
        .from(contributorTypes)
        .where(eq(contributorTypes.id, data.typeId));
      if (!r?.isActive) details.push({ path: 'typeId', message: 'El tipo de afiliado no existe o está inactivo.' });
    }
    if (table === 'entity' && data.entityId != null) {
      const [r] = await db
        .select({ id: municipalEntities.id })
        .from(municipalEntities)
        .where(eq(municipalEntities.id, data.entityId));
      if (!r) details.push({ path: 'entityId', message: 'La entidad no existe.' });
      else if (allowed && !allowed.has(r.id))
        details.push({ path: 'entityId', message: 'La entidad no está dentro de su alcance.' });
    }
    if (table === 'municipality' && data.municipalityId != null) {
      const [r] = await db
        .select({ id: municipalities.id })
        .from(municipalities)
        .where(eq(municipalities.id, data.municipalityId));
      if (!r) details.push({ path: 'municipalityId', message: 'El municipio no existe.' });
    }
    if (table === 'budgetLine' && data.budgetLineCode) {
      const [r] = await db.select({ code: budgetLines.code }).from(budgetLines).where(eq(budgetLines.code, data.budgetLineCode));
      if (!r) details.push({ path: 'budgetLineCode', message: 'El renglón presupuestario no existe.' });
    }
  };
  await Promise.all((['type', 'entity', 'municipality', 'budgetLine'] as const).map(exists));
  if (details.length) throw new AppError('VALIDATION', undefined, details);
}

/**
 * Refuses a CUI another contributor holds. Named (with the contributor) only when that contributor is
 * inside `allowed` (null: scope ALL); otherwise a generic refusal that neither formats the number nor
 * says where it is registered — a scoped user must not learn about other entities' contributors.
 */
async function duplicateCui(db: Db, cui: string, allowed: Set<number> | null, exceptId?: number) {
  const [dup] = await db
    .select({
      id: contributors.id,
      firstName: contributors.firstName,
      firstSurname: contributors.firstSurname,
      entityId: contributors.entityId,
    })
    .from(contributors)
    .where(eq(contributors.cui, cui))
    .limit(1);
  if (dup && dup.id !== exceptId && allowed && (dup.entityId == null || !allowed.has(dup.entityId))) {
    throw new AppError('DUPLICATE', OUT_OF_SCOPE_CUI, [{ path: 'cui', message: OUT_OF_SCOPE_CUI }]);
  }
  if (dup && dup.id !== exceptId) {
    throw new AppError('DUPLICATE', `Ya existe un afiliado con el CUI ${formatCui(cui)}.`, [
      {
        path: 'cui',
        message: `Ya existe un afiliado con este CUI: ${dup.firstName} ${dup.firstSurname} (/contributors/${dup.id}).`,
      },
    ]);
  }
}

const OUT_OF_SCOPE_CUI = 'Este CUI no se puede registrar. Si cree que es un error, consulte con la administración.';

/** RENAP's verdict on a contributor's data, for the stored "last RENAP check". */
export function renapVerdict(outcome: RenapOutcome, data: Partial<ContributorData>): { result: string; warnings: string[] } {
  if (outcome.result === 'ENCONTRADO' && outcome.person) {
    const diff = compareWithRenap(data, outcome.person);
    const warnings = diff.length ? [`Los datos difieren de RENAP en: ${diff.map((f) => fieldLabels[f]).join(', ')}.`] : [];
    if (outcome.person.deathDate) warnings.push(`RENAP registra el fallecimiento el ${outcome.person.deathDate}.`);
    return { result: diff.length ? 'DIFIERE' : 'COINCIDE', warnings };
  }
  return {
    result: outcome.result === 'NO_ENCONTRADO' ? 'NO_ENCONTRADO' : 'SIN_RESPUESTA',
    warnings: outcome.warning ? [outcome.warning] : [],
  };
}

const fieldLabels: Record<string, string> = {
  firstName: 'primer nombre',
  secondName: 'segundo nombre',
  thirdName: 'tercer nombre',
  firstSurname: 'primer apellido',
  secondSurname: 'segundo apellido',
  birthDate: 'fecha de nacimiento',
  sex: 'sexo',
};

const values = <T extends Partial<ContributorData>>(d: T) => ({ ...d, nit: d.nit ?? null });

/**
 * Creates a contributor (CUI state PENDIENTE) and opens its CUI approval request; RENAP is consulted
 * and logged, and its silence is a warning, never a refusal. Callers: contributor-new CREATE.
 */
export async function createContributor(
  ctx: RequestContext,
  input: { adapter: RenapAdapter; data: z.output<typeof contributorInputSchema> },
) {
  const { db, actor } = ctx;
  const { data } = input;
  const allowed = await entityIdsInScope(ctx);
  if (allowed && data.entityId == null) {
    throw new AppError('VALIDATION', undefined, [{ path: 'entityId', message: 'Seleccione una entidad de su alcance.' }]);
  }
  await checkReferences(db, data, allowed);
  await duplicateCui(db, data.cui, allowed);
  const outcome = await lookupRenap({ db, adapter: input.adapter, actor, cui: data.cui, purpose: 'alta de afiliado' });
  const verdict = renapVerdict(outcome, data);
  const id = await db
    .transaction(async (tx) => {
      const [row] = await tx
        .insert(contributors)
        .values({
          ...values(data),
          searchName: searchNameOf(data),
          cuiState: 'PENDIENTE',
          renapCheckedAt: new Date(),
          renapResult: verdict.result,
          createdBy: actor.id,
        })
        .returning();
      const [req] = await tx
        .insert(cuiApprovalRequests)
        .values({ contributorId: row.id, kind: 'ALTA', proposedCui: row.cui, requestedBy: actor.id })
        .returning({ id: cuiApprovalRequests.id });
      const scopeEntityId = row.entityId;
      await ctx.audit({ action: 'CREATE', entityType: 'contributor', entityId: row.id, after: row, scopeEntityId }, tx);
      await ctx.audit(
        {
          action: 'CUI_REQUEST',
          entityType: 'cui_approval_request',
          entityId: req.id,
          after: { contributorId: row.id, kind: 'ALTA', proposedCui: row.cui },
          scopeEntityId,
        },
        tx,
      );
      await notifyCuiApprovers(tx, { requesterId: actor.id, kind: 'ALTA', cui: row.cui });
      return row.id;
    })
    .catch((err) => {
      // A concurrent registration of the same CUI won: a scoped user learns no more than duplicateCui says.
      throw (
        toAppError(err, {
          constraints: allowed ? { contributors_cui_key: { path: 'cui', message: OUT_OF_SCOPE_CUI } } : undefined,
        }) ?? err
      );
    });
  return { contributor: await loadOne(db, id), warnings: verdict.warnings };
}

/**
 * Updates a contributor. A different CUI is not applied: it opens a CAMBIO request that a second
 * person approves. Callers: contributors UPDATE, within scope.
 */
export async function updateContributor(
  ctx: RequestContext,
  input: { adapter: RenapAdapter; id: number; data: z.output<typeof contributorUpdateSchema> },
) {
  const { db, actor } = ctx;
  const { id } = input;
  const before = await loadInScope(ctx, id);
  const allowed = await entityIdsInScope(ctx);
  const { cui: newCui, ...fields } = input.data;
  // Without an entity the contributor would leave every scoped user's reach, the editor's included.
  if (allowed && fields.entityId === null) {
    throw new AppError('VALIDATION', undefined, [
      { path: 'entityId', message: 'Seleccione una entidad de su alcance: el afiliado no puede quedar sin entidad.' },
    ]);
  }
  await checkReferences(db, fields, allowed);
  const warnings: string[] = [];
  let approvalRequestId: number | null = null;
  const cuiChanges = !!newCui && newCui !== before.cui;
  if (cuiChanges) {
    await duplicateCui(db, newCui, allowed);
    const [open] = await db
      .select({ id: cuiApprovalRequests.id })
      .from(cuiApprovalRequests)
      .where(and(eq(cuiApprovalRequests.contributorId, id), eq(cuiApprovalRequests.state, 'PENDIENTE')));
    if (open) throw new AppError('CONFLICT', PENDING_CUI_REQUEST);
  }
  const renapCui = cuiChanges ? newCui : before.cui;
  const outcome = await lookupRenap({ db, adapter: input.adapter, actor, cui: renapCui, purpose: 'edición de afiliado' });
  const verdict = renapVerdict(outcome, fields);
  warnings.push(...verdict.warnings);
  await db
    .transaction(async (tx) => {
      const [row] = await tx
        .update(contributors)
        .set({
          ...values(fields),
          searchName: searchNameOf(fields),
          renapCheckedAt: new Date(),
          renapResult: verdict.result,
          updatedAt: new Date(),
        })
        .where(eq(contributors.id, id))
        .returning();
      // The row belongs to the entity after the change (the one whose users now reach the contributor).
      const scopeEntityId = row.entityId;
      await ctx.audit({ action: 'UPDATE', entityType: 'contributor', entityId: id, before, after: row, scopeEntityId }, tx);
      if (cuiChanges) {
        const [req] = await tx
          .insert(cuiApprovalRequests)
          .values({ contributorId: id, kind: 'CAMBIO', currentCui: before.cui, proposedCui: newCui, requestedBy: actor.id })
          .returning({ id: cuiApprovalRequests.id });
        approvalRequestId = req.id;
        await ctx.audit(
          {
            action: 'CUI_REQUEST',
            entityType: 'cui_approval_request',
            entityId: req.id,
            after: { contributorId: id, kind: 'CAMBIO', currentCui: before.cui, proposedCui: newCui },
            scopeEntityId,
          },
          tx,
        );
        await notifyCuiApprovers(tx, { requesterId: actor.id, kind: 'CAMBIO', cui: newCui });
      }
    })
    .catch((err) => {
      throw toAppError(err) ?? err;
    });
  if (cuiChanges) warnings.push('El cambio de CUI quedó pendiente de aprobación por otra persona.');
  return { contributor: await loadOne(db, id), warnings, approvalRequestId };
}

/** The contributor's change history from the audit log (its own rows and its CUI requests). */
export async function contributorHistory(ctx: RequestContext, input: { id: number } & ContributorHistoryQuery) {
  const { db } = ctx;
  const { id } = input;
  await loadInScope(ctx, id);
  const requestIds = db
    .select({ id: sql<string>`${cuiApprovalRequests.id}::text` })
    .from(cuiApprovalRequests)
    .where(eq(cuiApprovalRequests.contributorId, id));
  const cond = sql`((${auditLog.entityType} = 'contributor' and ${auditLog.entityId} = ${String(id)}) or (${auditLog.entityType} = 'cui_approval_request' and ${inArray(auditLog.entityId, requestIds)}))`;
  return auditHistoryPage(ctx, cond, input, hiddenInHistory);
}

const hiddenInHistory = new Set([
  'searchName',
  'updatedAt',
  'createdAt',
  'renapCheckedAt',
  'createdBy',
  'importId',
  'fullName',
  'typeName',
  'entityName',
  'municipalityName',
  'departmentName',
  'id',
]);

/** Overview: counts by state and type, pending approvals, recent changes. Callers: contributors READ. */
export async function contributorOverview(ctx: RequestContext): Promise<ContributorOverview> {
  const { db } = ctx;
  const where = ctx.inScope(contributors.entityId);
  const [byState, byType, [{ pending }], recent] = await Promise.all([
    db.select({ key: contributors.state, total: count() }).from(contributors).where(where).groupBy(contributors.state),
    db
      .select({ key: contributorTypes.name, total: count() })
      .from(contributors)
      .innerJoin(contributorTypes, eq(contributorTypes.id, contributors.typeId))
      .where(where)
      .groupBy(contributorTypes.name, contributorTypes.sortOrder)
      .orderBy(contributorTypes.sortOrder),
    db
      .select({ pending: count() })
      .from(cuiApprovalRequests)
      .innerJoin(contributors, eq(contributors.id, cuiApprovalRequests.contributorId))
      .where(and(eq(cuiApprovalRequests.state, 'PENDIENTE'), where)),
    baseQuery(db).where(where).orderBy(desc(contributors.updatedAt), desc(contributors.id)).limit(8),
  ]);
  const total = byState.reduce((s, r) => s + r.total, 0);
  return { total, byState, byType, pendingApprovals: pending, recent: recent.map(toContributor) };
}

/** The contributor types catalogue (active first by order). */
export async function listContributorTypes(db: Db) {
  return db
    .select({
      id: contributorTypes.id,
      code: contributorTypes.code,
      name: contributorTypes.name,
      isActive: contributorTypes.isActive,
    })
    .from(contributorTypes)
    .orderBy(contributorTypes.sortOrder, contributorTypes.name);
}

/** Options for the contributor form and filters: types, entities (in scope), municipalities, budget lines. */
export async function contributorOptions(ctx: RequestContext): Promise<ContributorOptions> {
  const { db } = ctx;
  const [types, entities, munis, lines] = await Promise.all([
    listContributorTypes(db),
    db
      .select({ id: municipalEntities.id, code: municipalEntities.code, name: municipalEntities.name })
      .from(municipalEntities)
      .where(and(eq(municipalEntities.isActive, true), ctx.inScope(municipalEntities.id)))
      .orderBy(municipalEntities.name),
    db
      .select({
        id: municipalities.id,
        code: municipalities.code,
        name: municipalities.name,
        departmentName: departments.name,
        departmentId: departments.id,
      })
      .from(municipalities)
      .innerJoin(departments, eq(departments.id, municipalities.departmentId))
      .orderBy(municipalities.code),
    db
      .select({ code: budgetLines.code, name: budgetLines.name })
      .from(budgetLines)
      .where(eq(budgetLines.isActive, true))
      .orderBy(budgetLines.code),
  ]);
  return { types: types.filter((t) => t.isActive), entities, municipalities: munis, budgetLines: lines };
}

/**
 * The choices the contributor form needs (types, entities, municipalities, budget lines), for whoever
 * may save the form: contributor-new CREATE or contributors UPDATE, so a clerk who cannot read the
 * catalogues still gets them. Entities are those of the broader scope of the two grants.
 */
export async function contributorFormOptions(ctx: RequestContext): Promise<ContributorOptions> {
  const grants: [Resource, 'CREATE' | 'UPDATE'][] = [
    ['contributor-new', 'CREATE'],
    ['contributors', 'UPDATE'],
  ];
  const held = grants
    .map(([resource, action]) => ({ resource, action, scope: ctx.scopeFor(resource, action) }))
    .filter((g): g is { resource: Resource; action: 'CREATE' | 'UPDATE'; scope: Scope } => !!g.scope);
  if (held.length === 0) throw new AppError('FORBIDDEN');
  if (ctx.user.mustChangePassword) throw new AppError('PASSWORD_CHANGE_REQUIRED');
  const broadest = held.reduce((a, b) => (scopeRank[b.scope] > scopeRank[a.scope] ? b : a));
  return contributorOptions(withPermission(ctx, broadest.resource, broadest.action));
}

/**
 * RENAP's data for the contributor form (to prefill or compare), with the municipality the CUI was
 * registered in. Callers: contributors READ.
 */
export async function lookupContributorRenap(
  ctx: RequestContext,
  input: { adapter: RenapAdapter; cui: string },
): Promise<ContributorRenapLookup> {
  const res = await lookupForScreen(ctx, input);
  return { ...res, municipalityId: await municipalityOfCui(ctx.db, input.cui) };
}

/** The municipality id a CUI was registered in (digits 10–13), to prefill the form. */
export async function municipalityOfCui(db: Db, cui: string): Promise<number | null> {
  const [m] = await db
    .select({ id: municipalities.id })
    .from(municipalities)
    .where(eq(municipalities.code, cuiMunicipalityCode(cui)));
  return m?.id ?? null;
}
