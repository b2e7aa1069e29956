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
  type Resource,
  type Scope,
  scopeRank,
} from '@aporta/domain';
import { and, count, desc, eq, getTableColumns, inArray, like, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import {
  auditLog,
  budgetLines,
  contributors,
  contributorTypes,
  cuiApprovalRequests,
  departments,
  municipalEntities,
  municipalities,
} from '../../db/schema/index.ts';
import { auditHistoryPage } from '../../platform/audit.ts';
import { entityIdsInScope, type RequestContext, withPermission } from '../../platform/context.ts';
import { registerConstraintRules, toAppError } from '../../platform/db-errors.ts';
import {
  EXPORT_CHUNK_ROWS,
  type KeysetChunk,
  keysetBatches,
  keysetOf,
  likePattern,
  orderBy,
  pageOf,
} from '../../platform/list.ts';
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

const selection = {
  ...getTableColumns(contributors),
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
 * WHERE of the list, the export and the reports. `q`: digits → exact CUI (13) or CUI prefix; text →
 * fuzzy name (trigram word similarity, or substring), accents and case ignored.
 */
export function contributorFilters(user: CurrentUser, scope: Scope, q: Partial<ContributorListQuery>): SQL | undefined {
  return filtersWithin(entityInScope(user.id, scope, contributors.entityId), q);
}

/** The filters of `q` within `inScope` (the caller's scope on contributors.entity_id; undefined for ALL). */
function filtersWithin(inScope: SQL | undefined, q: Partial<ContributorListQuery>): SQL | undefined {
  const where: (SQL | undefined)[] = [inScope];
  if (q.entityId) where.push(eq(contributors.entityId, q.entityId));
  if (q.municipalityId) where.push(eq(contributors.municipalityId, q.municipalityId));
  if (q.departmentId) where.push(eq(municipalities.departmentId, q.departmentId));
  if (q.typeId) where.push(eq(contributors.typeId, q.typeId));
  if (q.state) where.push(eq(contributors.state, q.state));
  if (q.cuiState) where.push(eq(contributors.cuiState, q.cuiState));
  const text = q.q?.trim();
  if (text) {
    const digits = normalizeCui(text);
    if (/^\d+$/.test(digits)) {
      where.push(digits.length === 13 ? eq(contributors.cui, digits) : like(contributors.cui, likePattern(digits, 'prefix')));
    } else {
      // Every word must appear, in any order: as a substring, or similar enough (a typo inside a word).
      for (const word of nameWords(text)) {
        where.push(sql`(${contributors.searchName} like ${likePattern(word)} or ${word} <% ${contributors.searchName})`);
      }
    }
  }
  const present = where.filter((w): w is SQL => !!w);
  return present.length ? and(...present) : undefined;
}

/**
 * The words a name search matches (each escaped for LIKE where used). Never empty for a non-blank
 * query: text with no word of two characters (`%`, `a`, `% _`) is searched as one piece, so the
 * WHERE and the rank ORDER BY always have a term (an empty rank was a 500).
 */
const nameWords = (q: string) => {
  const folded = foldName(q);
  const words = folded.split(' ').filter((w) => w.length >= 2);
  return words.length || !folded ? words : [folded];
};

/**
 * Runs a name search with pg_trgm's word-similarity threshold at 0.3 (default 0.6): one typo inside a
 * short word ("LUSIA" for "LUCIA") scores 0.33. Every word must match, and the best come first. SET LOCAL
 * needs the transaction and ends with it.
 */
async function withNameThreshold<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local pg_trgm.word_similarity_threshold = 0.3`);
    return fn(tx as unknown as Db);
  });
}

const isNameQuery = (q?: string) => !!q?.trim() && !/^[\d\s-]+$/.test(q.trim());

/** The paginated list. Callers: contributor-list READ (the list), contributors READ (the palette search). */
export async function findContributors(ctx: RequestContext, query: ContributorListQuery) {
  const where = filtersWithin(ctx.inScope(contributors.entityId), query);
  if (isNameQuery(query.q)) return withNameThreshold(ctx.db, (tx) => findPage(tx, where, query));
  return findPage(ctx.db, where, query);
}

async function findPage(db: Db, where: SQL | undefined, query: ContributorListQuery) {
  const { limit, offset } = pageOf(query);
  const order =
    !query.sort && isNameQuery(query.q)
      ? [
          sql`(${sql.join(
            nameWords(query.q!).map((w) => sql`word_similarity(${w}, ${contributors.searchName})`),
            sql` + `,
          )}) desc`,
          desc(contributors.id),
        ]
      : orderBy(query.sort, sortable, '-updatedAt');
  const [rows, [{ total }]] = await Promise.all([
    baseQuery(db)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset),
    db
      .select({ total: count() })
      .from(contributors)
      .leftJoin(municipalities, eq(municipalities.id, contributors.municipalityId))
      .where(where),
  ]);
  return { items: rows.map(toContributor), total };
}

/** How many contributors the filters select in the caller's scope (a background export's total). Callers: the export job. */
export async function countContributors(ctx: RequestContext, query: Partial<ContributorListQuery>) {
  const where = filtersWithin(ctx.inScope(contributors.entityId), query);
  const run = async (db: Db) =>
    (
      await db
        .select({ total: count() })
        .from(contributors)
        .leftJoin(municipalities, eq(municipalities.id, contributors.municipalityId))
        .where(where)
    )[0].total;
  return isNameQuery(query.q) ? withNameThreshold(ctx.db, run) : run(ctx.db);
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
    (c) => (isNameQuery(query.q) ? withNameThreshold(ctx.db, (tx) => chunk(tx, c)) : chunk(ctx.db, c)),
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
  return auditHistoryPage(db, cond, input, hiddenInHistory);
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
