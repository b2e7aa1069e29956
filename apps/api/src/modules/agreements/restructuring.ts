// Changing an agreement in force: restructuring its unpaid instalments, or voiding it.
import {
  type Agreement,
  type AgreementRestructure,
  type AgreementState,
  AppError,
  agreementMachine,
  agreementSchedule,
  centsToDecimal,
  decimalToCents,
  guatemalaToday,
  type MessageKey,
  msg,
  termsProblems,
} from '@aporta/domain';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { paymentOrders } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { applyTransition } from '../../platform/transitions.ts';
import { interestRates, lockOrders } from '../payments/orders.ts';
import { settingsAt } from '../settings/service.ts';
import { issueSchedule, limitsOf, lockedBalances, refuse } from './creation.ts';
import { a, getAgreement, l } from './queries.ts';

/** Why an agreement in another state than VIGENTE is not restructured, by its state. */
const notCurrent = {
  CUMPLIDO: 'agreements.restructureCompleted',
  INCUMPLIDO: 'agreements.restructureDefaulted',
  ANULADO: 'agreements.restructureVoided',
} as const satisfies Record<Exclude<AgreementState, 'VIGENTE'>, MessageKey>;

async function lockAgreement(ctx: RequestContext, tx: Db, id: number) {
  const [row] = await tx
    .select()
    .from(a)
    .where(and(eq(a.id, id), ctx.inScope(a.entityId)))
    .for('update');
  if (!row) throw new AppError('NOT_FOUND', msg('agreements.notFound'));
  return row;
}

/** The live instalment orders of an agreement (not replaced), locked. */
async function liveInstalments(tx: Db, agreementId: number) {
  const ids = await tx
    .select({ id: l.orderId })
    .from(l)
    .where(and(eq(l.agreementId, agreementId), eq(l.role, 'CUOTA'), isNull(l.replacedAt)));
  return ids.length
    ? lockOrders(
        tx,
        ids.map((x) => x.id),
      )
    : [];
}

/**
 * A restructuring of a current agreement (at most the number in settings): what its unpaid instalments
 * owe today (principal and interest) becomes the debt of a new schedule, within the same limits; the
 * replaced instalments are kept (CONVENIDA, marked replaced), the paid ones stay as they are.
 */
export async function restructureAgreement(
  ctx: RequestContext,
  input: { id: number } & AgreementRestructure,
): Promise<Agreement> {
  const today = guatemalaToday();
  await ctx.db.transaction(async (tx) => {
    const row = await lockAgreement(ctx, tx, input.id);
    if (row.state !== 'VIGENTE') throw new AppError('CONFLICT', msg(notCurrent[row.state]));
    const [s, rates] = await Promise.all([settingsAt(tx, today), interestRates(tx)]);
    const max = s.values['agreements.maxRestructurings'];
    if (row.restructurings >= max) {
      throw new AppError('CONFLICT', msg('agreements.restructureLimitReached', { count: row.restructurings, max }));
    }
    const open = (await liveInstalments(tx, row.id)).filter((o) => o.state === 'EMITIDA');
    const balances = lockedBalances(open, today, rates);
    // What the unpaid instalments owe, each kind kept as it is (no anatocism): their unpaid principal
    // shares stay principal; their unpaid interest shares and the late interest due stay interest.
    const parts = { principal: 0n, interest: 0n, adminCharge: 0n };
    for (const b of balances) {
      parts.principal += b.principalDue;
      parts.interest += b.interestDue;
      parts.adminCharge += b.chargeDue;
    }
    const debt = parts.principal + parts.interest + parts.adminCharge;
    const terms = {
      debt,
      downPayment: decimalToCents(input.downPayment),
      instalments: input.instalments,
      agreementDate: today,
      firstDueDate: input.firstDueDate,
    };
    const problems = termsProblems(terms, limitsOf(s));
    if (debt <= 0n) throw new AppError('CONFLICT', msg('agreements.nothingToRestructure'));
    if (problems.length) refuse(problems);
    const schedule = agreementSchedule(terms, s.values['calendar.holidays']);
    const now = new Date();
    const ids = open.map((o) => o.id);
    await tx.update(paymentOrders).set({ state: 'CONVENIDA' }).where(inArray(paymentOrders.id, ids));
    await tx
      .update(l)
      .set({ replacedAt: now })
      .where(and(eq(l.agreementId, row.id), inArray(l.orderId, ids)));
    for (const b of balances) {
      await tx
        .update(l)
        .set({ interestDue: b.lateInterest })
        .where(and(eq(l.agreementId, row.id), eq(l.orderId, b.row.id)));
    }
    const scheduleNo = row.restructurings + 1;
    await issueSchedule(ctx, tx, row.id, row.entityId, schedule, parts, scheduleNo, today);
    await tx.update(a).set({ restructurings: scheduleNo, updatedAt: now }).where(eq(a.id, row.id));
    await ctx.audit(
      {
        action: 'AGREEMENT_RESTRUCTURE',
        entityType: 'payment-agreement',
        entityId: row.id,
        after: {
          reestructuracion: scheduleNo,
          saldo: centsToDecimal(debt),
          enganche: centsToDecimal(terms.downPayment),
          cuotas: terms.instalments,
        },
        scopeEntityId: row.entityId,
      },
      tx,
    );
  });
  return getAgreement(ctx, { id: input.id });
}

/**
 * Voids a current agreement on which nothing was paid: its instalment orders are voided and the orders
 * it consolidated return to the arrears as they were (their interest keeps running from where it stood).
 */
export async function voidAgreement(ctx: RequestContext, input: { id: number; reason: string }): Promise<Agreement> {
  await ctx.db.transaction(async (tx) => {
    const row = await lockAgreement(ctx, tx, input.id);
    const instalments = await tx
      .select({ id: paymentOrders.id, paid: sql<string>`(${paymentOrders.principalPaid} + ${paymentOrders.interestPaid})::text` })
      .from(l)
      .innerJoin(paymentOrders, eq(paymentOrders.id, l.orderId))
      .where(and(eq(l.agreementId, row.id), eq(l.role, 'CUOTA')));
    if (instalments.some((x) => decimalToCents(x.paid) > 0n)) {
      throw new AppError('CONFLICT', msg('agreements.voidWithPayments'));
    }
    await applyTransition(ctx, {
      tx,
      machine: agreementMachine,
      table: a,
      id: row.id,
      to: 'ANULADO',
      comment: input.reason,
      entityId: a.entityId,
      set: () => ({ voidReason: input.reason, voidedBy: ctx.actor.id, voidedAt: new Date(), updatedAt: new Date() }),
    });
    const now = new Date();
    if (instalments.length) {
      await tx
        .update(paymentOrders)
        .set({
          state: 'ANULADA',
          voidReason: `Convenio ${row.number} anulado: ${input.reason}`,
          voidedBy: ctx.actor.id,
          voidedAt: now,
        })
        .where(
          inArray(
            paymentOrders.id,
            instalments.map((x) => x.id),
          ),
        );
    }
    const released = await tx
      .update(l)
      .set({ releasedAt: now })
      .where(and(eq(l.agreementId, row.id), eq(l.role, 'CONSOLIDADA'), isNull(l.releasedAt)))
      .returning({ orderId: l.orderId });
    if (released.length) {
      await tx
        .update(paymentOrders)
        .set({ state: 'EMITIDA' })
        .where(
          and(
            inArray(
              paymentOrders.id,
              released.map((x) => x.orderId),
            ),
            eq(paymentOrders.state, 'CONVENIDA'),
          ),
        );
    }
  });
  return getAgreement(ctx, { id: input.id });
}
