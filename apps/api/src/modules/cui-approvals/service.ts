import {
  AppError,
  type CuiApproval,
  type CuiDecision,
  type CuiState,
  contributorFullName,
  cuiApprovalMachine,
  detail,
  formatCui,
  type ListQuery,
  msg,
} from '@aporta/domain';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { contributors, cuiApprovalRequests, users } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { listPage, type Page } from '../../platform/list.ts';
import { type MakerSpec, makersOf, makersSql, withColumns } from '../../platform/maker-checker.ts';
import { applyTransition, availableTransitions, findTransitionHistory } from '../../platform/transitions.ts';
import { findUserIdsWithPermission } from '../auth/service.ts';
import { notifyUsers } from '../notifications/service.ts';
import type { RenapAdapter } from '../renap/adapter.ts';
import { lookupRenap } from '../renap/service.ts';

const requester = alias(users, 'requester');
const decider = alias(users, 'decider');

const baseQuery = (db: Db) =>
  db
    .select({
      r: cuiApprovalRequests,
      c: {
        firstName: contributors.firstName,
        secondName: contributors.secondName,
        thirdName: contributors.thirdName,
        firstSurname: contributors.firstSurname,
        secondSurname: contributors.secondSurname,
        marriedSurname: contributors.marriedSurname,
        entityId: contributors.entityId,
      },
      requestedByEmail: requester.email,
      decidedByEmail: decider.email,
    })
    .from(cuiApprovalRequests)
    .innerJoin(contributors, eq(contributors.id, cuiApprovalRequests.contributorId))
    .leftJoin(requester, eq(requester.id, cuiApprovalRequests.requestedBy))
    .leftJoin(decider, eq(decider.id, cuiApprovalRequests.decidedBy));

type Joined = Awaited<ReturnType<ReturnType<typeof baseQuery>['execute']>>[number];

/** Who made a CUI request, for maker-checker: whoever asked for it or proposed its CUI (its trail). */
const requestMakers: MakerSpec = { entityType: 'cui_approval_request', actions: ['CUI_REQUEST'] };

/** The rows as the API answers them, each with the transitions the current user may take on it. */
async function toApprovals(ctx: RequestContext, rows: Joined[]): Promise<CuiApproval[]> {
  const makers = await makersOf(
    ctx.db,
    requestMakers,
    rows.map(({ r }) => r.id),
  );
  const allowed = await availableTransitions(
    ctx,
    cuiApprovalMachine,
    rows.map(({ r, c }) => ({
      id: r.id,
      state: r.state,
      entityId: c.entityId,
      makerId: r.requestedBy,
      makerIds: withColumns(makers.get(r.id)),
    })),
  );
  return rows.map(({ r, c, requestedByEmail, decidedByEmail }) => ({
    id: r.id,
    contributorId: r.contributorId,
    contributorName: contributorFullName(c),
    kind: r.kind,
    currentCui: r.currentCui,
    proposedCui: r.proposedCui,
    state: r.state,
    requestedById: r.requestedBy,
    requestedByEmail,
    requestedAt: r.requestedAt.toISOString(),
    decidedById: r.decidedBy,
    decidedByEmail,
    decidedAt: r.decidedAt?.toISOString() ?? null,
    reason: r.reason,
    transitions: allowed.get(r.id) ?? [],
  }));
}

const sortable = { id: cuiApprovalRequests.id, requestedAt: cuiApprovalRequests.requestedAt, state: cuiApprovalRequests.state };

/** Requests, newest first, within the route's scope (by the contributor's entity). Callers: cui-approval READ. */
export async function findCuiApprovals(
  ctx: RequestContext,
  query: ListQuery & { state?: CuiState; contributorId?: number },
): Promise<Page<CuiApproval>> {
  const { db } = ctx;
  const where: (SQL | undefined)[] = [ctx.inScope(contributors.entityId)];
  if (query.state) where.push(eq(cuiApprovalRequests.state, query.state));
  if (query.contributorId) where.push(eq(cuiApprovalRequests.contributorId, query.contributorId));
  if (query.q)
    where.push(
      sql`(${cuiApprovalRequests.proposedCui} like ${`${query.q.replace(/\D/g, '')}%`} or ${contributors.searchName} like ${`%${query.q.toUpperCase()}%`})`,
    );
  const cond = and(...where.filter((w): w is SQL => !!w));
  const page = await listPage(db, {
    query,
    sortable,
    defaultSort: '-requestedAt',
    rows: (c) =>
      baseQuery(db)
        .where(and(cond, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (row) => row.r.id,
    count: () =>
      db
        .select({ id: cuiApprovalRequests.id })
        .from(cuiApprovalRequests)
        .innerJoin(contributors, eq(contributors.id, cuiApprovalRequests.contributorId))
        .where(cond),
  });
  return { ...page, items: await toApprovals(ctx, page.items) };
}

async function loadInScope(ctx: RequestContext, id: number): Promise<CuiApproval> {
  const [row] = await baseQuery(ctx.db)
    .where(and(eq(cuiApprovalRequests.id, id), ctx.inScope(contributors.entityId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', msg('contributors.cuiRequestNotFound'));
  return (await toApprovals(ctx, [row]))[0];
}

/** One request within the route's scope, with the transitions the user may take. Callers: cui-approval READ. */
export const getCuiApproval = (ctx: RequestContext, input: { id: number }) => loadInScope(ctx, input.id);

/** Who decided what and when on one request, oldest first. Callers: cui-approval READ, within scope. */
export async function findCuiApprovalHistory(ctx: RequestContext, input: { id: number }) {
  await loadInScope(ctx, input.id);
  return findTransitionHistory(ctx.db, cuiApprovalMachine, input.id);
}

/**
 * The request with RENAP's data for the proposed CUI (a logged lookup), for the side-by-side review.
 * Callers: cui-approval APPROVE, within scope.
 */
export async function reviewCuiApproval(ctx: RequestContext, input: { id: number; adapter: RenapAdapter }) {
  const request = await loadInScope(ctx, input.id);
  const renap = await lookupRenap({
    db: ctx.db,
    adapter: input.adapter,
    actor: ctx.actor,
    cui: request.proposedCui,
    purpose: 'aprobación de CUI',
  });
  return { request, renap: { ...renap, warning: renap.warning?.text ?? null } };
}

/**
 * Tells every user who may approve CUIs (except the requester, who never may) that a request waits.
 * Call inside the transaction that opens the request, so a rollback sends nothing.
 */
export async function notifyCuiApprovers(tx: Db, opts: { requesterId: number | null; kind: 'ALTA' | 'CAMBIO'; cui: string }) {
  const approvers = await findUserIdsWithPermission(tx, 'cui-approval', 'APPROVE');
  await notifyUsers({
    db: tx,
    userIds: approvers.filter((id) => id !== opts.requesterId),
    type: 'info',
    title: opts.kind === 'ALTA' ? 'Nuevo afiliado pendiente de aprobación de CUI' : 'Cambio de CUI pendiente de aprobación',
    body: `CUI ${formatCui(opts.cui)}`,
    link: '/contributors/cui-approval',
  });
}

/**
 * Approves or rejects a request through the CUI machine (packages/domain: cuiApprovalMachine):
 * maker-checker — the requester never decides their own request; a decided request, or one decided
 * by someone else meanwhile, answers 409. Approving an ALTA marks the CUI APROBADO; approving a
 * CAMBIO applies the new CUI; rejecting an ALTA marks it RECHAZADO. The requester is notified in the
 * same transaction. Callers: cui-approval APPROVE, within scope.
 */
export async function decideCuiApproval(ctx: RequestContext, input: { id: number; data: CuiDecision }) {
  const { id } = input;
  const { to, comment, expected } = input.data;
  await ctx.db.transaction(async (tx) => {
    const applied = await applyTransition(ctx, {
      tx,
      machine: cuiApprovalMachine,
      table: cuiApprovalRequests,
      id,
      to,
      comment,
      expected,
      entityId: sql`(select ${contributors.entityId} from ${contributors} where ${contributors.id} = ${cuiApprovalRequests.contributorId})`,
      makerId: cuiApprovalRequests.requestedBy,
      makers: makersSql(requestMakers, cuiApprovalRequests.id),
      set: (step) => ({ decidedBy: ctx.actor.id, decidedAt: new Date(), reason: step.comment }),
      auditAfter: (row) => ({ kind: row.kind, proposedCui: row.proposedCui }),
    });
    const updated = applied.row;
    const reason = applied.comment;
    const approved = to === 'APROBADO';
    const [before] = await tx.select().from(contributors).where(eq(contributors.id, updated.contributorId)).for('update');
    let after = before;
    if (approved) {
      if (updated.kind === 'CAMBIO') {
        const [dup] = await tx
          .select({ id: contributors.id })
          .from(contributors)
          .where(eq(contributors.cui, updated.proposedCui));
        if (dup && dup.id !== before.id) {
          throw new AppError('DUPLICATE', msg('contributors.otherHasCui', { cui: formatCui(updated.proposedCui) }), [
            { path: 'cui', ...detail(msg('contributors.otherHasCuiLinked', { id: dup.id })) },
          ]);
        }
      }
      [after] = await tx
        .update(contributors)
        .set({ cui: updated.proposedCui, cuiState: 'APROBADO', updatedAt: new Date() })
        .where(eq(contributors.id, before.id))
        .returning();
    } else if (updated.kind === 'ALTA') {
      [after] = await tx
        .update(contributors)
        .set({ cuiState: 'RECHAZADO', updatedAt: new Date() })
        .where(eq(contributors.id, before.id))
        .returning();
    }
    if (updated.requestedBy !== null) {
      await notifyUsers({
        db: tx,
        userIds: [updated.requestedBy],
        type: approved ? 'success' : 'warning',
        title: `${updated.kind === 'ALTA' ? 'CUI' : 'Cambio de CUI'} ${formatCui(updated.proposedCui)} ${approved ? 'aprobado' : 'rechazado'}`,
        body: reason ?? '',
        link: `/contributors/${updated.contributorId}`,
      });
    }
    if (after !== before) {
      await ctx.audit(
        {
          action: applied.transition.key,
          entityType: 'contributor',
          entityId: before.id,
          before: { cui: before.cui, cuiState: before.cuiState },
          after: { cui: after.cui, cuiState: after.cuiState },
          scopeEntityId: before.entityId,
        },
        tx,
      );
    }
  });
  return loadInScope(ctx, id);
}
