import {
  AppError,
  detail,
  editablePlanillaStates,
  guatemalaToday,
  isFuturePeriod,
  msg,
  type PlanillaType,
  planillaMachine,
  text,
} from '@aporta/domain';
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { planillas } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { registerConstraintRules } from '../../platform/db-errors.ts';

export function registerPlanillaConstraints() {
  registerConstraintRules({
    planillas_one_ordinary: { path: 'period', message: text('planillas.ordinaryTaken'), code: 'CONFLICT' },
    planillas_period_check: { path: 'period', message: text('planillas.periodInvalid') },
  });
}

/**
 * Whether the entity may declare a planilla of `type` for `period`: not a future period; one ordinary
 * per entity and period (the database enforces it too); a complementary one only after the ordinary is
 * approved. Throws 400 / 409 with the reason.
 */
export async function assertCanDeclare(db: Db, input: { entityId: number; period: string; type: PlanillaType }) {
  const { entityId, period, type } = input;
  if (isFuturePeriod(period, guatemalaToday())) {
    const message = msg('planillas.periodFuture', { period });
    throw new AppError('VALIDATION', message, [{ path: 'period', ...detail(message) }]);
  }
  const active = await db
    .select({ id: planillas.id, state: planillas.state })
    .from(planillas)
    .where(
      and(
        eq(planillas.entityId, entityId),
        eq(planillas.period, period),
        eq(planillas.type, 'ORDINARIA'),
        notInArray(planillas.state, ['ANULADA', 'RECHAZADA']),
      ),
    );
  if (type === 'ORDINARIA' && active.length) {
    throw new AppError('CONFLICT', msg('planillas.ordinaryTaken'), [
      { path: 'period', ...detail(msg('planillas.existingPlanilla', { id: active[0].id })) },
    ]);
  }
  if (type === 'COMPLEMENTARIA' && !active.some((p) => p.state === 'APROBADA' || p.state === 'PAGADA')) {
    const message = msg('planillas.complementaryWithoutApproved');
    throw new AppError('CONFLICT', message, [{ path: 'type', ...detail(message) }]);
  }
}

/**
 * Locks a planilla the caller may edit (planillas UPDATE in scope) and in an editable state; 404 when
 * outside the scope, 409 when its state no longer allows edits.
 */
export async function lockEditable(ctx: RequestContext, tx: Db, id: number) {
  const scope = ctx.scopeFor('planillas', 'UPDATE');
  if (!scope) throw new AppError('FORBIDDEN', msg('planillas.updateForbidden'));
  const inScope = scope === 'ALL' ? undefined : ctx.inScope(planillas.entityId);
  const [p] = await tx
    .select()
    .from(planillas)
    .where(and(eq(planillas.id, id), inScope))
    .for('update');
  if (!p) throw new AppError('NOT_FOUND', msg('planillas.notFound'));
  if (!editablePlanillaStates.includes(p.state)) {
    throw new AppError('CONFLICT', msg('planillas.notEditable', { state: planillaMachine.stateLabels[p.state] }));
  }
  return p;
}

/** The editable ordinary planilla of an entity and period, if any (an upload replaces its lines). */
export async function editableOrdinary(db: Db, entityId: number, period: string) {
  const [p] = await db
    .select({ id: planillas.id })
    .from(planillas)
    .where(
      and(
        eq(planillas.entityId, entityId),
        eq(planillas.period, period),
        eq(planillas.type, 'ORDINARIA'),
        inArray(planillas.state, [...editablePlanillaStates]),
      ),
    );
  return p?.id ?? null;
}
