// An entity's debt eligible for an agreement, the simulation of its terms, and creating the agreement.
import {
  type Agreement,
  type AgreementCreate,
  type AgreementDebtView,
  type AgreementOrder,
  type AgreementSimulation,
  AppError,
  agreementDebt,
  agreementNumber,
  agreementSchedule,
  type Cents,
  centsToDecimal,
  type DebtShares,
  decimalToCents,
  detail,
  guatemalaToday,
  minimumDownPayment,
  msg,
  orderBalance,
  type RateFrom,
  type SettingsAt,
  scheduleShares,
  settingsUsed,
  type TermsProblem,
  termsProblems,
  unpaidShares,
} from '@aporta/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { paymentOrders } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { scopedEntityOr404 } from '../../platform/scope.ts';
import { balanceSql, insertOrder, interestRates, lockOrders } from '../payments/orders.ts';
import { settingsAt } from '../settings/service.ts';
import { a, d, getAgreement, l } from './queries.ts';

/**
 * Payment agreements (issue 14): the debt of an entity's overdue orders as of today, the simulation of
 * terms within the limits in force, the agreement created in one transaction (its orders consolidated,
 * one CONVENIO order per line of the schedule), restructuring, voiding, the PDF for signature, and the
 * daily detection of default and completion. Rules: packages/domain/src/agreements.ts.
 */

const AGREEMENT_KEYS = [
  'agreements.adminChargeRate',
  'agreements.downPaymentRate',
  'agreements.maxInstalments',
  'paymentOrders.annualInterestRate',
  'calendar.holidays',
] as const;

export const limitsOf = (s: SettingsAt) => ({
  downPaymentRate: s.values['agreements.downPaymentRate'],
  maxInstalments: s.values['agreements.maxInstalments'],
  minDebt: BigInt(s.values['agreements.minDebt']) * 100n,
});

/**
 * The entity's overdue orders (EMITIDA, due before `asOf`), with what each owes as of `asOf` split in
 * principal, interest and charge: an instalment of an earlier agreement owes its unpaid shares as they
 * are (domain unpaidShares: its amount is paid interest first, then charge, then principal), so a new
 * agreement never turns interest or a charge into principal. The same split as `lockedBalances`.
 */
async function overdueOrdersOf(db: Db, entityId: number, asOf: string, rates: RateFrom[]) {
  const { interestDue } = balanceSql(rates, asOf, sql.raw('o'));
  return rowsOf<{
    id: number;
    reference: string;
    kind: string;
    period: string;
    due_date: string;
    principal_due: string;
    interest_due: string;
    charge_due: string;
  }>(
    await db.execute(sql`
      select s.id, s.reference, s.kind, s.period, s.due_date, s.principal_due::text,
        (s.interest_due + s.interest_part)::text as interest_due,
        (s.unpaid - s.principal_due - s.interest_part)::text as charge_due
      from (
        select o.id, o.reference, o.kind, o.period, o.due_date::text as due_date, o.principal - o.principal_paid as unpaid,
          least(coalesce(o.principal_share, o.principal), o.principal - o.principal_paid) as principal_due,
          greatest(coalesce(o.interest_share, 0) - o.principal_paid, 0) as interest_part,
          ${interestDue} as interest_due
        from ${paymentOrders} o
        where o.entity_id = ${entityId} and o.state = 'EMITIDA' and o.due_date < ${asOf}::date) s
      order by s.due_date, s.id`),
  ).map(
    (r): AgreementOrder => ({
      orderId: Number(r.id),
      reference: r.reference,
      kind: r.kind,
      period: r.period,
      dueDate: r.due_date,
      principalDue: d(r.principal_due),
      interestDue: d(r.interest_due),
      chargeDue: d(r.charge_due),
      balance: centsToDecimal(decimalToCents(r.principal_due) + decimalToCents(r.interest_due) + decimalToCents(r.charge_due)),
    }),
  );
}

async function currentAgreementId(db: Db, entityId: number): Promise<number | null> {
  const [cur] = await db
    .select({ id: a.id })
    .from(a)
    .where(and(eq(a.entityId, entityId), eq(a.state, 'VIGENTE')));
  return cur?.id ?? null;
}

function debtView(
  entity: { id: number; name: string },
  asOf: string,
  orders: AgreementOrder[],
  s: SettingsAt,
  current: number | null,
): AgreementDebtView & { cents: ReturnType<typeof agreementDebt> } {
  const cents = agreementDebt(
    orders.map((o) => ({
      principalDue: decimalToCents(o.principalDue),
      interestDue: decimalToCents(o.interestDue),
      chargeDue: decimalToCents(o.chargeDue),
    })),
    s.values['agreements.adminChargeRate'],
  );
  return {
    entityId: entity.id,
    entityName: entity.name,
    agreementDate: asOf,
    orders,
    principal: centsToDecimal(cents.principal),
    interest: centsToDecimal(cents.interest),
    adminCharge: centsToDecimal(cents.adminCharge),
    adminChargeRate: s.values['agreements.adminChargeRate'],
    debt: centsToDecimal(cents.debt),
    minDownPayment: centsToDecimal(minimumDownPayment(cents.debt, s.values['agreements.downPaymentRate'])),
    downPaymentRate: s.values['agreements.downPaymentRate'],
    maxInstalments: s.values['agreements.maxInstalments'],
    currentAgreementId: current,
    cents,
  };
}

/** What an agreement signed today would consolidate and owe: the entity's overdue orders and the limits in force. */
export async function agreementDebtOf(ctx: RequestContext, input: { entityId: number }): Promise<AgreementDebtView> {
  const entity = await scopedEntityOr404(ctx, input.entityId);
  const asOf = guatemalaToday();
  const [s, rates] = await Promise.all([settingsAt(ctx.db, asOf), interestRates(ctx.db)]);
  const orders = await overdueOrdersOf(ctx.db, entity.id, asOf, rates);
  const { cents: _c, ...view } = debtView(entity, asOf, orders, s, await currentAgreementId(ctx.db, entity.id));
  return view;
}

export const refuse = (problems: TermsProblem[]): never => {
  const [first] = problems;
  throw new AppError('VALIDATION', { key: first.key, params: first.params, text: first.message }, problems);
};

/** Picks the orders named (all overdue ones by default); an order named that is not overdue for the entity is refused. */
function pickOrders(all: AgreementOrder[], orderIds: number[] | undefined): AgreementOrder[] {
  if (!orderIds) return all;
  const byId = new Map(all.map((o) => [o.orderId, o]));
  const missing = orderIds.filter((id) => !byId.has(id));
  if (missing.length) {
    throw new AppError('CONFLICT', msg('agreements.orderNotOverdue', { orderId: missing[0] }), [
      { path: 'orderIds', ...detail(msg('agreements.ordersNotOverdue')) },
    ]);
  }
  return orderIds.map((id) => byId.get(id) as AgreementOrder);
}

/** The schedule the terms give, without creating anything; 400 naming the field when the terms are outside the limits. */
export async function simulateAgreement(ctx: RequestContext, input: AgreementCreate): Promise<AgreementSimulation> {
  const entity = await scopedEntityOr404(ctx, input.entityId);
  const asOf = guatemalaToday();
  const [s, rates] = await Promise.all([settingsAt(ctx.db, asOf), interestRates(ctx.db)]);
  const orders = pickOrders(await overdueOrdersOf(ctx.db, entity.id, asOf, rates), input.orderIds);
  const { cents, ...view } = debtView(entity, asOf, orders, s, await currentAgreementId(ctx.db, entity.id));
  const terms = {
    debt: cents.debt,
    downPayment: decimalToCents(input.downPayment),
    instalments: input.instalments,
    agreementDate: asOf,
    firstDueDate: input.firstDueDate,
  };
  const problems = termsProblems(terms, limitsOf(s));
  if (problems.length) refuse(problems);
  const schedule = agreementSchedule(terms, s.values['calendar.holidays']);
  return {
    debt: view,
    downPayment: input.downPayment,
    instalments: input.instalments,
    firstDueDate: input.firstDueDate,
    schedule: schedule.map((x) => ({ number: x.number, dueDate: x.dueDate, amount: centsToDecimal(x.amount) })),
    total: centsToDecimal(schedule.reduce((sum, x) => sum + x.amount, 0n)),
  };
}

/** Issues one CONVENIO order per line of the schedule and links it to the agreement. */
export async function issueSchedule(
  ctx: RequestContext,
  tx: Db,
  agreementId: number,
  entityId: number,
  schedule: ReturnType<typeof agreementSchedule>,
  debt: { principal: Cents; interest: Cents; adminCharge: Cents },
  scheduleNo: number,
  today: string,
) {
  // Each instalment carries its principal and interest shares: late interest accrues on the principal share only.
  const shares = scheduleShares(
    schedule.map((x) => x.amount),
    debt,
  );
  for (const [i, line] of schedule.entries()) {
    const order = await insertOrder(ctx, tx, {
      kind: 'CONVENIO',
      entityId,
      period: line.dueDate.slice(0, 7),
      principal: line.amount,
      shares: { principal: shares[i].principal, interest: shares[i].interest },
      dueDate: line.dueDate,
      issueDate: today,
    });
    await tx.insert(l).values({
      agreementId,
      orderId: order.id,
      role: 'CUOTA',
      schedule: scheduleNo,
      number: line.number,
      principalDue: line.amount,
      interestDue: 0n,
    });
  }
}

/** An instalment's shares of its amount (an order without them, from before they were kept: all principal). */
function instalmentShares(o: { principal: Cents; principalShare: Cents | null; interestShare: Cents | null }): DebtShares {
  const principal = o.principalShare ?? o.principal;
  const interest = o.interestShare ?? 0n;
  return { principal, interest, charge: o.principal - principal - interest };
}

/**
 * What locked orders owe as of `asOf` (the domain rule, so the debt is what the lists show), split as
 * overdueOrdersOf splits it: unpaid principal share, interest (the unpaid interest share and the late
 * interest due) and unpaid charge.
 */
export function lockedBalances(rows: Awaited<ReturnType<typeof lockOrders>>, asOf: string, rates: RateFrom[]) {
  return rows.map((r) => {
    const b = orderBalance(r, asOf, rates);
    const u = unpaidShares(instalmentShares(r), r.principalPaid);
    return {
      row: r,
      principalDue: u.principal,
      interestDue: u.interest + b.interestDue,
      chargeDue: u.charge,
      lateInterest: b.interestDue,
    };
  });
}

/**
 * Creates the agreement in one transaction: the overdue orders are locked and checked again (a second
 * agreement over the same orders, created at the same time, waits and then finds them consolidated: one
 * wins), consolidated (CONVENIDA, their history kept), and one CONVENIO order is issued per line.
 */
export async function createAgreement(ctx: RequestContext, input: AgreementCreate): Promise<Agreement> {
  const entity = await scopedEntityOr404(ctx, input.entityId);
  const today = guatemalaToday();
  const id = await ctx.db.transaction(async (tx) => {
    const [s, rates] = await Promise.all([settingsAt(tx, today), interestRates(tx)]);
    const current = await currentAgreementId(tx, entity.id);
    if (current) {
      throw new AppError('CONFLICT', msg('agreements.entityHasCurrent'));
    }
    const candidates = pickOrders(await overdueOrdersOf(tx, entity.id, today, rates), input.orderIds);
    if (!candidates.length) refuse([{ path: 'orderIds', ...detail(msg('agreements.noOverdueOrders')) }]);
    const locked = await lockOrders(
      tx,
      candidates.map((c) => c.orderId),
    );
    const gone = locked.find((r) => r.state !== 'EMITIDA' || r.entityId !== entity.id);
    if (gone || locked.length !== candidates.length) {
      throw new AppError(
        'CONFLICT',
        gone ? msg('agreements.orderTaken', { reference: gone.reference }) : msg('agreements.orderTakenUnnamed'),
      );
    }
    const balances = lockedBalances(locked, today, rates);
    const debt = agreementDebt(balances, s.values['agreements.adminChargeRate']);
    const terms = {
      debt: debt.debt,
      downPayment: decimalToCents(input.downPayment),
      instalments: input.instalments,
      agreementDate: today,
      firstDueDate: input.firstDueDate,
    };
    const problems = termsProblems(terms, limitsOf(s));
    if (problems.length) refuse(problems);
    const schedule = agreementSchedule(terms, s.values['calendar.holidays']);
    const [row] = await tx
      .insert(a)
      .values({
        number: `CP-TMP-${ctx.actor.id}-${Date.now()}-${Math.random()}`,
        entityId: entity.id,
        agreementDate: today,
        principal: debt.principal,
        interest: debt.interest,
        adminCharge: debt.adminCharge,
        debt: debt.debt,
        downPayment: terms.downPayment,
        instalmentCount: terms.instalments,
        settingsUsed: settingsUsed(s, [...AGREEMENT_KEYS, 'agreements.overdueInstalmentsForDefault']),
        createdBy: ctx.actor.id,
      })
      .returning({ id: a.id });
    const number = agreementNumber(today.slice(0, 4), row.id);
    await tx.update(a).set({ number }).where(eq(a.id, row.id));
    await tx.insert(l).values(
      balances.map((b) => ({
        agreementId: row.id,
        orderId: b.row.id,
        role: 'CONSOLIDADA' as const,
        principalDue: b.principalDue,
        interestDue: b.interestDue,
        chargeDue: b.chargeDue,
      })),
    );
    await tx
      .update(paymentOrders)
      .set({ state: 'CONVENIDA' })
      .where(
        and(
          inArray(
            paymentOrders.id,
            locked.map((r) => r.id),
          ),
          eq(paymentOrders.state, 'EMITIDA'),
        ),
      );
    await issueSchedule(ctx, tx, row.id, entity.id, schedule, debt, 0, today);
    await ctx.audit(
      {
        action: 'CREATE',
        entityType: 'payment-agreement',
        entityId: row.id,
        after: {
          numero: number,
          entidad: entity.name,
          deuda: centsToDecimal(debt.debt),
          enganche: centsToDecimal(terms.downPayment),
          cuotas: terms.instalments,
          ordenes: locked.map((r) => r.reference),
        },
        scopeEntityId: entity.id,
      },
      tx,
    );
    return row.id;
  });
  return getAgreement(ctx, { id });
}
