// Registering and correcting contributors: references and duplicate checks, the RENAP verdict, a CUI change
// left for approval.
import {
  AppError,
  type ContributorData,
  compareWithRenap,
  type contributorInputSchema,
  contributorSearchName,
  type contributorUpdateSchema,
  detail,
  type ErrorDetail,
  formatCui,
  type Message,
  msg,
  type RenapComparedField,
  text,
  textWith,
} from '@aporta/domain';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import {
  budgetLines,
  contributors,
  contributorTypes,
  cuiApprovalRequests,
  municipalEntities,
  municipalities,
} from '../../db/schema/index.ts';
import { entityIdsInScope, type RequestContext } from '../../platform/context.ts';
import { registerConstraintRules, toAppError } from '../../platform/db-errors.ts';
import { notifyCuiApprovers } from '../cui-approvals/service.ts';
import type { RenapAdapter } from '../renap/adapter.ts';
import { lookupRenap, type RenapOutcome } from '../renap/service.ts';

import { loadInScope, loadOne } from './queries.ts';

const PENDING_CUI_REQUEST = msg('contributors.pendingCuiRequest');
/** A CUI another entity's contributor holds: refused without naming it (same words in the bulk upload). */
const OUT_OF_SCOPE_CUI = msg('contributors.cuiOutOfScope');

// Constraint rules carry the catalogue's fixed texts; the error handler finds their keys.
registerConstraintRules({
  cui_approval_requests_one_open: { path: 'cui', message: PENDING_CUI_REQUEST.text, code: 'CONFLICT' },
  contributors_cui_key: { path: 'cui', message: text('contributors.cuiTaken') },
});

const searchNameOf = contributorSearchName;

async function checkReferences(db: Db, data: Partial<ContributorData>, allowed: Set<number> | null) {
  const details: ErrorDetail[] = [];
  const refuse = (path: string, m: Message) => details.push({ path, ...detail(m) });
  const exists = async (table: 'type' | 'entity' | 'municipality' | 'budgetLine') => {
    if (table === 'type' && data.typeId != null) {
      const [r] = await db
        .select({ id: contributorTypes.id, isActive: contributorTypes.isActive })
        .from(contributorTypes)
        .where(eq(contributorTypes.id, data.typeId));
      if (!r?.isActive) refuse('typeId', msg('contributors.typeNotFound'));
    }
    if (table === 'entity' && data.entityId != null) {
      const [r] = await db
        .select({ id: municipalEntities.id })
        .from(municipalEntities)
        .where(eq(municipalEntities.id, data.entityId));
      if (!r) refuse('entityId', msg('contributors.entityNotFound'));
      else if (allowed && !allowed.has(r.id)) refuse('entityId', msg('contributors.entityOutOfScope'));
    }
    if (table === 'municipality' && data.municipalityId != null) {
      const [r] = await db
        .select({ id: municipalities.id })
        .from(municipalities)
        .where(eq(municipalities.id, data.municipalityId));
      if (!r) refuse('municipalityId', msg('contributors.municipalityNotFound'));
    }
    if (table === 'budgetLine' && data.budgetLineCode) {
      const [r] = await db.select({ code: budgetLines.code }).from(budgetLines).where(eq(budgetLines.code, data.budgetLineCode));
      if (!r) refuse('budgetLineCode', msg('contributors.budgetLineNotFound'));
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
    throw new AppError('DUPLICATE', OUT_OF_SCOPE_CUI, [{ path: 'cui', ...detail(OUT_OF_SCOPE_CUI) }]);
  }
  if (dup && dup.id !== exceptId) {
    throw new AppError('DUPLICATE', msg('contributors.cuiTakenBy', { cui: formatCui(cui) }), [
      {
        path: 'cui',
        ...detail(msg('contributors.cuiTakenByNamed', { name: `${dup.firstName} ${dup.firstSurname}`, id: dup.id })),
      },
    ]);
  }
}

/**
 * RENAP's verdict on a contributor's data, for the stored "last RENAP check". The warnings are the
 * catalogue's texts (the save answer carries them as text: contributorSaveResponseSchema).
 */
export function renapVerdict(outcome: RenapOutcome, data: Partial<ContributorData>): { result: string; warnings: string[] } {
  if (outcome.result === 'ENCONTRADO' && outcome.person) {
    const diff = compareWithRenap(data, outcome.person);
    const warnings = diff.length
      ? [textWith('contributors.renapDiffers', { fields: diff.map((f) => fieldLabels[f]).join(', ') })]
      : [];
    if (outcome.person.deathDate) warnings.push(textWith('contributors.renapDeath', { date: outcome.person.deathDate }));
    return { result: diff.length ? 'DIFIERE' : 'COINCIDE', warnings };
  }
  return {
    result: outcome.result === 'NO_ENCONTRADO' ? 'NO_ENCONTRADO' : 'SIN_RESPUESTA',
    warnings: outcome.warning ? [outcome.warning.text] : [],
  };
}

/** How the RENAP warning names the fields that differ (values of a message: Spanish, as the warning is). */
const fieldLabels: Record<RenapComparedField, string> = {
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
    throw new AppError('VALIDATION', undefined, [{ path: 'entityId', ...detail(msg('contributors.entityRequired')) }]);
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
          constraints: allowed ? { contributors_cui_key: { path: 'cui', message: OUT_OF_SCOPE_CUI.text } } : undefined,
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
    throw new AppError('VALIDATION', undefined, [{ path: 'entityId', ...detail(msg('contributors.entityCannotBeRemoved')) }]);
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
  if (cuiChanges) warnings.push(text('contributors.cuiChangePending'));
  return { contributor: await loadOne(db, id), warnings, approvalRequestId };
}
