// A contributor's change history, the contributors' overview, and the choices and lookups of their forms.
import {
  AppError,
  type ContributorHistoryQuery,
  type ContributorOptions,
  type ContributorOverview,
  type ContributorRenapLookup,
  cuiMunicipalityCode,
  type Resource,
  type Scope,
  scopeRank,
} from '@aporta/domain';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
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
import { type RequestContext, withPermission } from '../../platform/context.ts';
import type { RenapAdapter } from '../renap/adapter.ts';
import { lookupForScreen } from '../renap/service.ts';

import { baseQuery, loadInScope, toContributor } from './queries.ts';

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
