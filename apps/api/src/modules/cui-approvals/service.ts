import { AppError, type CurrentUser, contributorFullName, formatCui, type ListQuery, type Scope } from '@aporta/domain';
import { and, count, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { contributors, cuiApprovalRequests, users } from '../../db/schema/index.ts';
import { type Actor, writeAudit } from '../../platform/audit.ts';
import { orderBy, pageOf } from '../../platform/list.ts';
import { entityInScope } from '../../platform/scope.ts';
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
      },
      requestedByEmail: requester.email,
      decidedByEmail: decider.email,
    })
    .from(cuiApprovalRequests)
    .innerJoin(contributors, eq(contributors.id, cuiApprovalRequests.contributorId))
    .leftJoin(requester, eq(requester.id, cuiApprovalRequests.requestedBy))
    .leftJoin(decider, eq(decider.id, cuiApprovalRequests.decidedBy));

type Joined = Awaited<ReturnType<ReturnType<typeof baseQuery>['execute']>>[number];

const toApproval = ({ r, c, requestedByEmail, decidedByEmail }: Joined) => ({
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
});

const sortable = { id: cuiApprovalRequests.id, requestedAt: cuiApprovalRequests.requestedAt, state: cuiApprovalRequests.state };

/** Requests, newest first, within the caller's scope (by the contributor's entity). Callers: cui-approval READ. */
export async function findCuiApprovals(opts: {
  db: Db;
  user: CurrentUser;
  scope: Scope;
  query: ListQuery & { state?: 'PENDIENTE' | 'APROBADO' | 'RECHAZADO'; contributorId?: number };
}) {
  const { db, query } = opts;
  const where: (SQL | undefined)[] = [entityInScope(opts.user.id, opts.scope, contributors.entityId)];
  if (query.state) where.push(eq(cuiApprovalRequests.state, query.state));
  if (query.contributorId) where.push(eq(cuiApprovalRequests.contributorId, query.contributorId));
  if (query.q)
    where.push(
      sql`(${cuiApprovalRequests.proposedCui} like ${`${query.q.replace(/\D/g, '')}%`} or ${contributors.searchName} like ${`%${query.q.toUpperCase()}%`})`,
    );
  const cond = and(...where.filter((w): w is SQL => !!w));
  const { limit, offset } = pageOf(query);
  const [rows, [{ total }]] = await Promise.all([
    baseQuery(db)
      .where(cond)
      .orderBy(...orderBy(query.sort, sortable, '-requestedAt'))
      .limit(limit)
      .offset(offset),
    db
      .select({ total: count() })
      .from(cuiApprovalRequests)
      .innerJoin(contributors, eq(contributors.id, cuiApprovalRequests.contributorId))
      .where(cond),
  ]);
  return { items: rows.map(toApproval), total };
}

async function loadInScope(db: Db, user: CurrentUser, scope: Scope, id: number) {
  const [row] = await baseQuery(db)
    .where(and(eq(cuiApprovalRequests.id, id), entityInScope(user.id, scope, contributors.entityId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', 'La solicitud no existe o no está dentro de su alcance.');
  return toApproval(row);
}

export const getCuiApproval = (opts: { db: Db; user: CurrentUser; scope: Scope; id: number }) =>
  loadInScope(opts.db, opts.user, opts.scope, opts.id);

/** The request with RENAP's data for the proposed CUI (a logged lookup), for the side-by-side review. */
export async function reviewCuiApproval(opts: {
  db: Db;
  user: CurrentUser;
  actor: Actor;
  scope: Scope;
  adapter: RenapAdapter;
  id: number;
}) {
  const request = await loadInScope(opts.db, opts.user, opts.scope, opts.id);
  const renap = await lookupRenap({
    db: opts.db,
    adapter: opts.adapter,
    actor: opts.actor,
    cui: request.proposedCui,
    purpose: 'aprobación de CUI',
  });
  return { request, renap };
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
 * Approves or rejects a request. Maker-checker: the requester can never decide their own request;
 * a request decided already answers 409 (also when two checkers race: the update is conditional).
 * Approving an ALTA marks the CUI APROBADO; approving a CAMBIO applies the new CUI. Callers:
 * cui-approval APPROVE, within scope.
 * The requester is notified of the decision in the same transaction.
 */
export async function decideCuiApproval(opts: {
  db: Db;
  user: CurrentUser;
  actor: Actor;
  scope: Scope;
  id: number;
  data: { decision: 'APROBADO' | 'RECHAZADO'; reason?: string | null };
}) {
  const { db, actor, id } = opts;
  const current = await loadInScope(db, opts.user, opts.scope, id);
  if (current.requestedById !== null && current.requestedById === actor.id) {
    throw new AppError('FORBIDDEN', 'No puede aprobar ni rechazar su propia solicitud; debe hacerlo otra persona.');
  }
  if (current.state !== 'PENDIENTE') {
    throw new AppError('CONFLICT', `La solicitud ya fue ${current.state === 'APROBADO' ? 'aprobada' : 'rechazada'}.`);
  }
  const decision = opts.data.decision;
  const reason = opts.data.reason?.trim() || null;
  await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(cuiApprovalRequests)
      .set({ state: decision, decidedBy: actor.id, decidedAt: new Date(), reason })
      .where(and(eq(cuiApprovalRequests.id, id), eq(cuiApprovalRequests.state, 'PENDIENTE')))
      .returning();
    if (!updated) throw new AppError('CONFLICT', 'La solicitud ya fue resuelta por otra persona.');
    const [before] = await tx.select().from(contributors).where(eq(contributors.id, updated.contributorId)).for('update');
    let after = before;
    if (decision === 'APROBADO') {
      if (updated.kind === 'CAMBIO') {
        const [dup] = await tx
          .select({ id: contributors.id })
          .from(contributors)
          .where(eq(contributors.cui, updated.proposedCui));
        if (dup && dup.id !== before.id) {
          throw new AppError('DUPLICATE', `Ya existe otro afiliado con el CUI ${formatCui(updated.proposedCui)}.`, [
            { path: 'cui', message: `Ya existe otro afiliado con este CUI (/contributors/${dup.id}).` },
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
    const action = decision === 'APROBADO' ? 'CUI_APPROVE' : 'CUI_REJECT';
    await writeAudit(tx, actor, {
      action,
      entityType: 'cui_approval_request',
      entityId: id,
      before: { state: 'PENDIENTE' },
      after: {
        state: decision,
        reason,
        kind: updated.kind,
        proposedCui: updated.proposedCui,
      },
      scopeEntityId: before.entityId,
    });
    if (updated.requestedBy !== null) {
      await notifyUsers({
        db: tx,
        userIds: [updated.requestedBy],
        type: decision === 'APROBADO' ? 'success' : 'warning',
        title: `${updated.kind === 'ALTA' ? 'CUI' : 'Cambio de CUI'} ${formatCui(updated.proposedCui)} ${decision === 'APROBADO' ? 'aprobado' : 'rechazado'}`,
        body: reason ?? '',
        link: `/contributors/${updated.contributorId}`,
      });
    }
    if (after !== before) {
      await writeAudit(tx, actor, {
        action,
        entityType: 'contributor',
        entityId: before.id,
        before: { cui: before.cui, cuiState: before.cuiState },
        after: { cui: after.cui, cuiState: after.cuiState },
        scopeEntityId: before.entityId,
      });
    }
  });
  return loadInScope(db, opts.user, 'ALL', id);
}
