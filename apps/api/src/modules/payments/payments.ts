/**
 * Registering a payment against an owner's orders (interest first, then principal), with its 7-B receipt
 * and the idempotent replay of a repeated one; reversing a payment. Reading payments is in payment-reads.ts.
 */
import {
  AppError,
  allocatePayment,
  centsToDecimal,
  decimalToCents,
  detail,
  guatemalaToday,
  type Message,
  msg,
  orderBalance,
  type Payment,
  type PaymentCreate,
  type PaymentResult,
} from '@aporta/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.ts';
import { bankFileRows, paymentAllocations, paymentOrders, payments, receipts } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { isUniqueViolation } from '../../platform/db-errors.ts';
import { countMetric } from '../../platform/metrics.ts';
import { bankRefused, paymentBank } from './banks.ts';
import { notifyPaymentRegistered } from './mail-events.ts';
import { interestRates, lockOrders, orderPlanillaStateSql } from './orders.ts';
import { getPayment } from './payment-reads.ts';
import { rangeWarnings, takeReceiptNumber } from './receipt-numbers.ts';

// ─── Registering a payment ──────────────────────────────────────────────────────────────────────────

/** A payment to register: a person's (a bank of the catalogue) or a bank file row's (the file's bank as imported). */
export type PaymentInput = Omit<PaymentCreate, 'bankId'> & {
  /** The «Bancos» catalogue's bank; null only for a row of a bank file imported before the catalogue. */
  bankId?: number | null;
  /**
   * A bank file's row: the bank's name as the file recorded it at import time (with the file's `bankId`).
   * Absent: the catalogue's bank `bankId` or named by `bank`, which must be active.
   */
  bankName?: string;
  /** The bank file row this payment applies: linked to it (and moved to `state`) in the payment's transaction. */
  bankFileRow?: { id: number; state: 'CONCILIADA' | 'RESUELTA' };
};

/**
 * Finds a payment by its idempotency key or bank reference: a repeated submission. Only among the payments the
 * caller's scope reaches: another entity's payment is no repeat of theirs, and is never named or hinted at
 * (no oracle on references: docs/decisions.md, "A reference of another entity's record answers as unknown").
 * A repeat is answered with the first result only when it is the same payment; the same idempotency key sent
 * with another body (other orders, amount, date, bank, reference or office) is a client's mistake that would
 * otherwise be answered with another payment's receipt, and is refused (409).
 */
async function findRepeat(
  ctx: RequestContext,
  input: PaymentInput,
  bank: { id: number | null; name: string },
): Promise<number | null> {
  const [r] = await ctx.db
    .select({
      id: payments.id,
      idempotencyKey: payments.idempotencyKey,
      amount: payments.amount,
      payDate: payments.payDate,
      bank: payments.bank,
      bankId: payments.bankId,
      bankReference: payments.bankReference,
      office: payments.office,
      // Qualified by hand: drizzle writes a selected column unqualified, which the subquery would read as its own.
      orderIds: sql<string>`array_to_string(array(select a.order_id from ${paymentAllocations} a where a.payment_id = payments.id order by a.order_id), ',')`,
    })
    .from(payments)
    .where(
      and(
        sql`(${payments.idempotencyKey} = ${input.idempotencyKey} or ${payments.bankReference} = ${input.bankReference})`,
        ctx.inScope(payments.entityId),
      ),
    )
    .orderBy(payments.id)
    .limit(1);
  if (!r) return null;
  const sameBody =
    r.amount === decimalToCents(input.amount) &&
    r.payDate === input.payDate &&
    // The same bank: the catalogue's, or (a payment from before it) the same name.
    (r.bankId !== null ? r.bankId === bank.id : r.bank === bank.name || r.bank === input.bank) &&
    r.bankReference === input.bankReference &&
    r.office === input.office &&
    [...input.orderIds].sort((x, y) => x - y).join(',') === r.orderIds;
  if (r.idempotencyKey === input.idempotencyKey && !sameBody) {
    throw new AppError('CONFLICT', msg('payments.idempotencyKeyReusedWithOtherData'), [
      { path: 'idempotencyKey', ...detail(msg('payments.idempotencyKeyReusedWithOtherDataField')) },
    ]);
  }
  return r.id;
}

/**
 * Registers a payment against the orders it names (one owner), oldest due date first and interest
 * before principal, and issues its 7-B receipt, all in one transaction: nothing partial. A repeat (the
 * same idempotency key or bank reference) is answered with the first result, never counted twice —
 * also when both arrive at once (the unique index decides; the loser reads the winner's result).
 * A payment larger than the balances named is refused (docs/decisions.md).
 */
export async function registerPayment(ctx: RequestContext, input: PaymentInput): Promise<PaymentResult> {
  // The bank: the bank file's as it was imported, or one of the catalogue (never free text).
  const found = input.bankName !== undefined ? null : await paymentBank(ctx.db, input);
  const bank = input.bankName !== undefined ? { id: input.bankId ?? null, name: input.bankName } : found;
  if (!bank) throw bankRefused(!!(input.bankId || input.bank));
  const repeat = await findRepeat(ctx, input, bank);
  if (repeat) return { payment: await getPayment(ctx, { id: repeat }), replayed: true, warnings: [] };
  if (found && !found.isActive) throw bankRefused(true);
  const today = guatemalaToday();
  if (input.payDate > today) {
    throw new AppError('VALIDATION', msg('payments.payDateFuture'), [
      { path: 'payDate', ...detail(msg('payments.futureDateField')) },
    ]);
  }
  const amount = decimalToCents(input.amount);
  if (amount <= 0n)
    throw new AppError('VALIDATION', msg('payments.amountNotPositive'), [
      { path: 'amount', ...detail(msg('payments.amountNotPositiveField')) },
    ]);
  let warnings: Message[] = [];
  let id: number;
  try {
    id = await ctx.db.transaction(async (tx) => {
      const orders = await lockOrders(tx, input.orderIds);
      if (orders.length !== input.orderIds.length) throw missingOrder();
      // Scope: each order must be visible to the caller (a 404 as if absent otherwise).
      const visible = await tx
        .select({ id: paymentOrders.id })
        .from(paymentOrders)
        .where(and(inArray(paymentOrders.id, input.orderIds), ctx.inScope(paymentOrders.entityId)));
      if (visible.length !== orders.length) throw missingOrder();
      const owners = new Set(orders.map((x) => `${x.entityId ?? ''}/${x.entityId ? '' : (x.contributorId ?? '')}`));
      if (owners.size > 1) {
        throw new AppError('VALIDATION', msg('payments.ordersOfSeveralOwners'), [
          { path: 'orderIds', ...detail(msg('payments.ordersOfSeveralOwnersField')) },
        ]);
      }
      for (const x of orders) {
        if (x.state !== 'EMITIDA') {
          const reference = { reference: x.reference };
          const [refusal, field] =
            x.state === 'PAGADA'
              ? [msg('payments.orderPaidRefusesPayments', reference), msg('payments.orderPaidField', reference)]
              : x.state === 'CONVENIDA'
                ? [msg('payments.orderInAgreementRefusesPayments', reference), msg('payments.orderInAgreementField', reference)]
                : [msg('payments.orderVoidedRefusesPayments', reference), msg('payments.orderVoidedField', reference)];
          throw new AppError('CONFLICT', refusal, [{ path: 'orderIds', ...detail(field) }]);
        }
        if (input.payDate < x.issueDate) {
          throw new AppError(
            'VALIDATION',
            msg('payments.payDateBeforeIssue', { payDate: input.payDate, reference: x.reference }),
            [{ path: 'payDate', ...detail(msg('payments.payDateBeforeIssueField')) }],
          );
        }
        if (x.lastPaymentDate && input.payDate < x.lastPaymentDate) {
          throw new AppError(
            'VALIDATION',
            msg('payments.payDateBeforeLastPayment', { reference: x.reference, lastPaymentDate: x.lastPaymentDate }),
            [{ path: 'payDate', ...detail(msg('payments.payDateBeforeLastPaymentField')) }],
          );
        }
      }
      const rates = await interestRates(tx);
      const balances = new Map(orders.map((x) => [x.id, orderBalance(x, input.payDate, rates)]));
      const { allocations, excess } = allocatePayment(
        amount,
        orders.map((x) => ({
          orderId: x.id,
          dueDate: x.dueDate,
          interestDue: balances.get(x.id)!.interestDue,
          principalDue: balances.get(x.id)!.principalDue,
        })),
      );
      if (excess > 0n) {
        const total = amount - excess;
        throw new AppError(
          'VALIDATION',
          msg('payments.amountExceedsBalance', { amount, payDate: input.payDate, balance: total }),
          [{ path: 'amount', ...detail(msg('payments.amountExceedsBalanceField', { excess })) }],
        );
      }
      const first = orders[0];
      const [pay] = await tx
        .insert(payments)
        .values({
          entityId: first.entityId,
          contributorId: first.entityId ? null : first.contributorId,
          bankId: bank.id,
          bank: bank.name,
          payDate: input.payDate,
          bankReference: input.bankReference,
          idempotencyKey: input.idempotencyKey,
          amount,
          office: input.office,
          bankFileRowId: input.bankFileRow?.id ?? null,
          createdBy: ctx.actor.id,
        })
        .returning({ id: payments.id });
      // A bank file row and its payment are one step: a row never shows applied without its payment, nor
      // a payment exists for a row still waiting to be applied.
      if (input.bankFileRow) {
        const resolved = input.bankFileRow.state === 'RESUELTA';
        await tx
          .update(bankFileRows)
          .set({
            paymentId: pay.id,
            state: input.bankFileRow.state,
            message: null,
            ...(resolved ? { resolvedBy: ctx.actor.id, resolvedAt: new Date() } : {}),
          })
          .where(eq(bankFileRows.id, input.bankFileRow.id));
      }
      const planillaIds = new Set<number>();
      for (const x of orders) {
        const a = allocations.find((y) => y.orderId === x.id) ?? { orderId: x.id, interest: 0n, principal: 0n };
        const b = balances.get(x.id)!;
        await tx.insert(paymentAllocations).values({
          paymentId: pay.id,
          orderId: x.id,
          interest: a.interest,
          principal: a.principal,
          interestFixed: b.interestNew,
          prevAccruedTo: x.accruedTo,
          prevLastPaymentDate: x.lastPaymentDate,
        });
        const paidOff = a.interest === b.interestDue && a.principal === b.principalDue;
        await tx
          .update(paymentOrders)
          .set({
            principalPaid: x.principalPaid + a.principal,
            interestAccrued: x.interestAccrued + b.interestNew,
            interestPaid: x.interestPaid + a.interest,
            accruedTo: [input.payDate, x.accruedTo].sort()[1],
            lastPaymentDate: input.payDate,
            ...(paidOff ? { state: 'PAGADA' as const, paidAt: new Date() } : {}),
          })
          .where(eq(paymentOrders.id, x.id));
        if (paidOff && x.planillaId) planillaIds.add(x.planillaId);
      }
      for (const pid of planillaIds) await tx.execute(orderPlanillaStateSql(pid));
      const n = await takeReceiptNumber(tx, input.office);
      const [receipt] = await tx
        .insert(receipts)
        .values({
          rangeId: n.rangeId,
          series: n.series,
          number: n.number,
          paymentId: pay.id,
          amount,
          createdBy: ctx.actor.id,
        })
        .returning({ id: receipts.id });
      warnings = await rangeWarnings(tx, input.office, n.remaining, n.series);
      await ctx.audit(
        {
          action: 'CREATE',
          entityType: 'payment',
          entityId: pay.id,
          after: {
            monto: centsToDecimal(amount),
            banco: bank.name,
            fecha: input.payDate,
            referenciaBancaria: input.bankReference,
            recibo: `${n.series}-${n.number}`,
            ordenes: allocations.map((a) => ({
              orden: a.orderId,
              interes: centsToDecimal(a.interest),
              capital: centsToDecimal(a.principal),
            })),
          },
          scopeEntityId: first.entityId,
        },
        tx,
      );
      // The entity's payers hear of it with the receipt attached, in the payment's transaction (issue 29).
      await notifyPaymentRegistered(tx, {
        paymentId: pay.id,
        receiptId: receipt.id,
        receipt: `${n.series}-${n.number}`,
        entityId: first.entityId,
        amount,
        payDate: input.payDate,
        references: orders.map((x) => x.reference),
      });
      return pay.id;
    });
  } catch (err) {
    // Two submissions of the same payment at once: the second meets the first's unique key.
    if (isUniqueViolation(err, 'payments_idempotency_key') || isUniqueViolation(err, 'payments_bank_reference_key')) {
      const again = await findRepeat(ctx, input, bank);
      if (again) return { payment: await getPayment(ctx, { id: again }), replayed: true, warnings: [] };
      // Taken by a payment outside the caller's scope: a bank transaction is paid once across the institution, so
      // it is refused — saying only that the value is taken, never whose payment, entity or amount holds it.
      throw isUniqueViolation(err, 'payments_bank_reference_key')
        ? new AppError('DUPLICATE', msg('payments.bankReferenceTaken'), [
            { path: 'bankReference', ...detail(msg('payments.bankReferenceTakenField')) },
          ])
        : new AppError('DUPLICATE', msg('payments.idempotencyKeyTaken'), [
            { path: 'idempotencyKey', ...detail(msg('payments.idempotencyKeyTakenField')) },
          ]);
    }
    throw err;
  }
  // Committed: the payment and its receipt counted (platform/metrics.ts); a repeat returned above is not.
  countMetric('paymentsRegistered', { source: input.bankFileRow ? 'bank_file' : 'window' });
  countMetric('receiptsIssued', { kind: 'payment' });
  // The answer's warnings are texts (its contract): the Spanish of each message.
  return { payment: await getPayment(ctx, { id }), replayed: false, warnings: warnings.map((w) => w.text) };
}

const missingOrder = () =>
  new AppError('NOT_FOUND', msg('payments.orderMissing'), [{ path: 'orderIds', ...detail(msg('payments.orderMissingField')) }]);

/**
 * Reverses a payment with a reason: its receipt is voided (the number stays, with the reason) and each
 * order's balance is restored exactly (principal, interest paid and the interest the payment fixed). Only
 * an order's latest payment can be reversed — later ones first — so every balance stays the one a
 * sequence of payments gives.
 */
export async function reversePayment(ctx: RequestContext, input: { id: number; reason: string }): Promise<Payment> {
  await ctx.db.transaction(async (tx) => {
    const [pay] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.id, input.id), ctx.inScope(payments.entityId)))
      .for('update');
    if (!pay) throw new AppError('NOT_FOUND', msg('payments.paymentNotFound'));
    if (pay.state === 'REVERTIDO') throw new AppError('CONFLICT', msg('payments.paymentAlreadyReversed'));
    const allocs = await tx.select().from(paymentAllocations).where(eq(paymentAllocations.paymentId, pay.id));
    const orders = await lockOrders(
      tx,
      allocs.map((a) => a.orderId),
    );
    for (const a of allocs) {
      const [later] = rowsOf<{ id: number }>(
        await tx.execute(sql`select pa.payment_id as id from ${paymentAllocations} pa join ${payments} p on p.id = pa.payment_id
          where pa.order_id = ${a.orderId} and pa.payment_id > ${pay.id} and p.state = 'REGISTRADO' limit 1`),
      );
      if (later) {
        throw new AppError('CONFLICT', msg('payments.laterPaymentFirst', { paymentId: Number(later.id) }));
      }
      const x = orders.find((y) => y.id === a.orderId)!;
      if (x.state === 'ANULADA') throw new AppError('CONFLICT', msg('payments.orderVoided', { reference: x.reference }));
      if (x.state === 'CONVENIDA') {
        throw new AppError('CONFLICT', msg('payments.orderMovedToAgreement', { reference: x.reference }));
      }
      await tx
        .update(paymentOrders)
        .set({
          principalPaid: x.principalPaid - a.principal,
          interestPaid: x.interestPaid - a.interest,
          interestAccrued: x.interestAccrued - a.interestFixed,
          accruedTo: a.prevAccruedTo,
          lastPaymentDate: a.prevLastPaymentDate,
          state: 'EMITIDA',
          paidAt: null,
        })
        .where(eq(paymentOrders.id, x.id));
      if (x.planillaId) await tx.execute(orderPlanillaStateSql(x.planillaId));
    }
    const now = new Date();
    await tx
      .update(payments)
      .set({ state: 'REVERTIDO', reverseReason: input.reason, reversedBy: ctx.actor.id, reversedAt: now })
      .where(eq(payments.id, pay.id));
    await tx
      .update(receipts)
      .set({ state: 'ANULADO', voidReason: `Pago revertido: ${input.reason}`, voidedBy: ctx.actor.id, voidedAt: now })
      .where(and(eq(receipts.paymentId, pay.id), eq(receipts.state, 'EMITIDO')));
    await ctx.audit(
      {
        action: 'REVERSE',
        entityType: 'payment',
        entityId: pay.id,
        before: { estado: 'REGISTRADO' },
        after: { estado: 'REVERTIDO', motivo: input.reason },
        scopeEntityId: pay.entityId,
      },
      tx,
    );
  });
  return getPayment(ctx, { id: input.id });
}
