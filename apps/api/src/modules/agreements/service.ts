import {
  type Agreement,
  type AgreementCreate,
  type AgreementDebtView,
  type AgreementInstalment,
  type AgreementListItem,
  type AgreementListQuery,
  type AgreementOrder,
  type AgreementRestructure,
  type AgreementSimulation,
  AppError,
  agreementDebt,
  agreementMachine,
  agreementNumber,
  agreementSchedule,
  agreementStateLabels,
  type Cents,
  centsToDecimal,
  type DebtShares,
  decimalToCents,
  formatDay,
  formatPaymentReference,
  formatPeriod,
  guatemalaToday,
  minimumDownPayment,
  orderBalance,
  orderKindLabels,
  type RateFrom,
  type SettingsAt,
  scheduleShares,
  settingsUsed,
  type TermsProblem,
  termsProblems,
  toAvailable,
  unpaidShares,
} from '@aporta/domain';
import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { municipalEntities, paymentAgreementOrders, paymentAgreements, paymentOrders } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { keysetBatches, keysetOf, listPage, type Page } from '../../platform/list.ts';
import type { ReportDefinition } from '../../platform/pdf.ts';
import { scopedEntityOr404 } from '../../platform/scope.ts';
import { applyTransition } from '../../platform/transitions.ts';
import { reviewersOf } from '../notifications/recipients.ts';
import { notifyUsers } from '../notifications/service.ts';
import { balanceSql, insertOrder, interestRates, lockOrders, orderAsOfSql } from '../payments/orders.ts';
import { settingsAt } from '../settings/service.ts';

/**
 * Payment agreements (issue 14): the debt of an entity's overdue orders as of today, the simulation of
 * terms within the limits in force, the agreement created in one transaction (its orders consolidated,
 * one CONVENIO order per line of the schedule), restructuring, voiding, the PDF for signature, and the
 * daily detection of default and completion. Rules: packages/domain/src/agreements.ts.
 */

const a = paymentAgreements;
const l = paymentAgreementOrders;
const d = (s: string | null | undefined) => centsToDecimal(decimalToCents(s ?? '0'));

const AGREEMENT_KEYS = [
  'agreements.adminChargeRate',
  'agreements.downPaymentRate',
  'agreements.maxInstalments',
  'paymentOrders.annualInterestRate',
  'calendar.holidays',
] as const;

const limitsOf = (s: SettingsAt) => ({
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

const refuse = (problems: TermsProblem[]): never => {
  throw new AppError('VALIDATION', problems[0].message, problems);
};

/** Picks the orders named (all overdue ones by default); an order named that is not overdue for the entity is refused. */
function pickOrders(all: AgreementOrder[], orderIds: number[] | undefined): AgreementOrder[] {
  if (!orderIds) return all;
  const byId = new Map(all.map((o) => [o.orderId, o]));
  const missing = orderIds.filter((id) => !byId.has(id));
  if (missing.length) {
    throw new AppError(
      'CONFLICT',
      `La orden ${missing[0]} no está vencida y pendiente para esta entidad (¿ya está en un convenio?).`,
      [{ path: 'orderIds', message: 'Órdenes que no están vencidas y pendientes.' }],
    );
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
async function issueSchedule(
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

/**
 * What locked orders owe as of `asOf` (the domain rule, so the debt is what the lists show), split as
 * overdueOrdersOf splits it: unpaid principal share, interest (the unpaid interest share and the late
 * interest due) and unpaid charge.
 */
function lockedBalances(rows: Awaited<ReturnType<typeof lockOrders>>, asOf: string, rates: RateFrom[]) {
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
      throw new AppError('CONFLICT', 'La entidad ya tiene un convenio vigente: reestructúrelo o espere a que termine.');
    }
    const candidates = pickOrders(await overdueOrdersOf(tx, entity.id, today, rates), input.orderIds);
    if (!candidates.length) refuse([{ path: 'orderIds', message: 'La entidad no tiene órdenes vencidas que convenir.' }]);
    const locked = await lockOrders(
      tx,
      candidates.map((c) => c.orderId),
    );
    const gone = locked.find((r) => r.state !== 'EMITIDA' || r.entityId !== entity.id);
    if (gone || locked.length !== candidates.length) {
      throw new AppError(
        'CONFLICT',
        `La orden ${gone?.reference ?? ''} ya no está pendiente: otro convenio o pago la tomó.`.trim(),
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

// ─── Reading ────────────────────────────────────────────────────────────────────────────────────────

/** Paid, balance and overdue instalments of the agreement as of `asOf`, each instalment as it stood then (orderAsOfSql). */
function aggregatesSql(db: Db, rates: RateFrom[], asOf: string) {
  const x = orderAsOfSql(db, rates, asOf);
  const from = sql`from ${l} y join ${paymentOrders} o on o.id = y.order_id left join lateral ${x.history} on ${x.joinOn}`;
  const live = sql`y.agreement_id = ${a.id} and y.role = 'CUOTA' and ${x.issued}`;
  return {
    paid: sql<string>`(select coalesce(sum(${x.principalPaid} + ${x.interestPaid}), 0) ${from} where ${live})::text`,
    balance: sql<string>`(select coalesce(sum(${x.balance}), 0) ${from} where ${live} and ${x.state} <> 'CONVENIDA')::text`,
    overdue: sql<number>`(select count(*) ${from} where ${live} and ${x.state} = 'EMITIDA' and o.due_date < ${asOf}::date)::int`,
  };
}

function selectAgreements(db: Db, rates: RateFrom[], asOf: string) {
  const agg = aggregatesSql(db, rates, asOf);
  return db
    .select({ a, entityName: municipalEntities.name, entityCode: municipalEntities.code, ...agg })
    .from(a)
    .innerJoin(municipalEntities, eq(municipalEntities.id, a.entityId));
}

type Row = Awaited<ReturnType<ReturnType<typeof selectAgreements>['where']>>[number];

function toItem(r: Row, asOf: string, maxRestructurings: number): AgreementListItem {
  return {
    id: r.a.id,
    number: r.a.number,
    entityId: r.a.entityId,
    entityName: r.entityName,
    entityCode: r.entityCode,
    agreementDate: r.a.agreementDate,
    state: r.a.state,
    principal: centsToDecimal(r.a.principal),
    interest: centsToDecimal(r.a.interest),
    adminCharge: centsToDecimal(r.a.adminCharge),
    debt: centsToDecimal(r.a.debt),
    downPayment: centsToDecimal(r.a.downPayment),
    instalmentCount: r.a.instalmentCount,
    paid: d(r.paid),
    balance: d(r.balance),
    overdueInstalments: Number(r.overdue),
    restructurings: r.a.restructurings,
    maxRestructurings,
    defaultedAt: r.a.defaultedOn,
    completedAt: r.a.completedOn,
    voidReason: r.a.voidReason,
    createdAt: r.a.createdAt.toISOString(),
    asOf,
  };
}

const sortable = { id: a.id, agreementDate: a.agreementDate, debt: a.debt };

function listWhere(ctx: RequestContext, q: Omit<AgreementListQuery, 'page' | 'pageSize' | 'after' | 'before'>): SQL | undefined {
  const where: (SQL | undefined)[] = [ctx.inScope(a.entityId)];
  if (q.entityId) where.push(eq(a.entityId, q.entityId));
  if (q.state) where.push(eq(a.state, q.state));
  const text = q.q?.trim();
  if (text) where.push(sql`(${a.number} ilike ${`%${text}%`} or ${municipalEntities.name} ilike ${`%${text}%`})`);
  return and(...where);
}

export async function findAgreements(ctx: RequestContext, q: AgreementListQuery): Promise<Page<AgreementListItem>> {
  const asOf = guatemalaToday();
  const [rates, s] = await Promise.all([interestRates(ctx.db), settingsAt(ctx.db, asOf)]);
  const cond = listWhere(ctx, q);
  const page = await listPage(ctx.db, {
    query: q,
    sortable,
    defaultSort: '-id',
    rows: (c) =>
      selectAgreements(ctx.db, rates, asOf)
        .where(and(cond, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.a.id,
    count: () =>
      ctx.db.select({ id: a.id }).from(a).innerJoin(municipalEntities, eq(municipalEntities.id, a.entityId)).where(cond),
  });
  const max = s.values['agreements.maxRestructurings'];
  return { ...page, items: page.items.map((r) => toItem(r, asOf, max)) };
}

export async function* agreementExportBatches(
  ctx: RequestContext,
  q: Omit<AgreementListQuery, 'page' | 'pageSize' | 'after' | 'before'>,
) {
  const asOf = guatemalaToday();
  const [rates, s] = await Promise.all([interestRates(ctx.db), settingsAt(ctx.db, asOf)]);
  const cond = listWhere(ctx, q);
  const k = keysetOf(q.sort, sortable, '-id');
  for await (const rows of keysetBatches(
    k,
    (c) =>
      selectAgreements(ctx.db, rates, asOf)
        .where(and(cond, c.after))
        .orderBy(...c.order)
        .limit(c.limit),
    (r) => r.a.id,
    500,
  )) {
    yield rows.map((r) => toItem(r, asOf, s.values['agreements.maxRestructurings']));
  }
}

export async function getAgreement(ctx: RequestContext, input: { id: number; asOf?: string }): Promise<Agreement> {
  const asOf = input.asOf ?? guatemalaToday();
  const [rates, s] = await Promise.all([interestRates(ctx.db), settingsAt(ctx.db, asOf)]);
  const [r] = await selectAgreements(ctx.db, rates, asOf).where(and(eq(a.id, input.id), ctx.inScope(a.entityId)));
  if (!r) throw new AppError('NOT_FOUND', 'El convenio no existe o no está dentro de su alcance.');
  const x = orderAsOfSql(ctx.db, rates, asOf);
  const links = rowsOf<{
    role: 'CONSOLIDADA' | 'CUOTA';
    schedule: number;
    number: number | null;
    principal_due: string;
    interest_due: string;
    charge_due: string;
    replaced: boolean;
    order_id: number;
    reference: string;
    kind: string;
    period: string;
    due_date: string;
    state: string;
    principal: string;
    paid: string;
    balance: string;
    now_interest: string;
  }>(
    await ctx.db.execute(sql`
      select y.role, y.schedule, y.number, y.principal_due::text, y.interest_due::text, y.charge_due::text, y.replaced_at is not null as replaced,
        o.id as order_id, o.reference, o.kind, o.period, o.due_date::text as due_date, (${x.state})::text as state, o.principal::text,
        (${x.principalPaid} + ${x.interestPaid})::text as paid, (${x.balance})::text as balance, (${x.interestDue})::text as now_interest
      from ${l} y join ${paymentOrders} o on o.id = y.order_id left join lateral ${x.history} on ${x.joinOn}
      where y.agreement_id = ${input.id} and y.released_at is null and (y.role = 'CONSOLIDADA' or ${x.issued})
      order by y.role, y.replaced_at is not null, y.schedule desc, y.number, o.due_date, o.id`),
  );
  const instalments: AgreementInstalment[] = links
    .filter((x) => x.role === 'CUOTA')
    .map((x) => ({
      number: Number(x.number ?? 0),
      orderId: Number(x.order_id),
      reference: x.reference,
      dueDate: x.due_date,
      amount: d(x.principal),
      paid: d(x.paid),
      balance: d(x.balance),
      state:
        x.state === 'CONVENIDA'
          ? 'REEMPLAZADA'
          : x.state === 'EMITIDA' && x.due_date < asOf
            ? 'VENCIDA'
            : (x.state as 'EMITIDA' | 'PAGADA' | 'ANULADA'),
    }));
  const orders: AgreementOrder[] = links
    .filter((x) => x.role === 'CONSOLIDADA')
    .map((x) => ({
      orderId: Number(x.order_id),
      reference: x.reference,
      kind: x.kind,
      period: x.period,
      dueDate: x.due_date,
      principalDue: d(x.principal_due),
      interestDue: d(x.interest_due),
      chargeDue: d(x.charge_due),
      balance: centsToDecimal(decimalToCents(x.principal_due) + decimalToCents(x.interest_due) + decimalToCents(x.charge_due)),
    }));
  const transitions =
    r.a.state === 'VIGENTE' && ctx.scopeFor('payment-agreements', 'DELETE')
      ? agreementMachine.transitions.filter((t) => !t.system && t.from.includes('VIGENTE')).map(toAvailable)
      : [];
  return { ...toItem(r, asOf, s.values['agreements.maxRestructurings']), instalments, orders, transitions };
}

// ─── Restructuring and voiding ──────────────────────────────────────────────────────────────────────

async function lockAgreement(ctx: RequestContext, tx: Db, id: number) {
  const [row] = await tx
    .select()
    .from(a)
    .where(and(eq(a.id, id), ctx.inScope(a.entityId)))
    .for('update');
  if (!row) throw new AppError('NOT_FOUND', 'El convenio no existe o no está dentro de su alcance.');
  return row;
}

/** An instalment's shares of its amount (an order without them, from before they were kept: all principal). */
function instalmentShares(o: { principal: Cents; principalShare: Cents | null; interestShare: Cents | null }): DebtShares {
  const principal = o.principalShare ?? o.principal;
  const interest = o.interestShare ?? 0n;
  return { principal, interest, charge: o.principal - principal - interest };
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
    if (row.state !== 'VIGENTE') {
      throw new AppError(
        'CONFLICT',
        `El convenio está ${agreementStateLabels[row.state].toLowerCase()}: solo se reestructura uno vigente.`,
      );
    }
    const [s, rates] = await Promise.all([settingsAt(tx, today), interestRates(tx)]);
    const max = s.values['agreements.maxRestructurings'];
    if (row.restructurings >= max) {
      throw new AppError('CONFLICT', `El convenio ya se reestructuró ${row.restructurings} veces: el límite vigente es ${max}.`);
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
    if (debt <= 0n) throw new AppError('CONFLICT', 'El convenio no tiene cuotas pendientes que reestructurar.');
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
      throw new AppError('CONFLICT', 'El convenio tiene pagos registrados: no puede anularse (revierta los pagos primero).');
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

// ─── Daily detection ────────────────────────────────────────────────────────────────────────────────

async function notifyAgreement(
  tx: Db,
  row: { id: number; number: string; entityId: number; createdBy: number | null },
  title: string,
  body: string,
) {
  const users = [...(row.createdBy ? [row.createdBy] : []), ...(await reviewersOf(tx, row.entityId))];
  await notifyUsers({
    db: tx,
    userIds: users,
    type: 'warning',
    title: title.slice(0, 200),
    body,
    link: `/planilla/convenios-pago/${row.id}`,
  });
}

/**
 * Agreements in force (`a`) that have, as of `asOf`, `limit` or more live instalments unpaid and overdue:
 * those the detection puts in default. Also the home queue's check that the detection is up to date.
 */
export const defaultCandidatesSql = (asOf: string, limit: number) => sql`a.state = 'VIGENTE' and (
  select count(*) from ${l} x join ${paymentOrders} o on o.id = x.order_id
  where x.agreement_id = a.id and x.role = 'CUOTA' and x.replaced_at is null
    and o.state = 'EMITIDA' and o.due_date < ${asOf}::date) >= ${limit}`;

/**
 * Default and completion as of `asOf` (idempotent): a current agreement with as many instalments overdue
 * as the limit in settings becomes INCUMPLIDO and its remaining instalments fall due that day; one whose
 * instalments are all paid becomes CUMPLIDO. Candidates are found set-based (one statement each over
 * every agreement); each change is its own short transaction (state history, audit, notification).
 */
export async function detectAgreements(
  ctx: RequestContext,
  asOf: string,
  progress?: (done: number, total: number) => Promise<void>,
): Promise<{ asOf: string; defaulted: number; completed: number }> {
  const s = await settingsAt(ctx.db, asOf);
  const limit = s.values['agreements.overdueInstalmentsForDefault'];
  const scope = ctx.inScope(sql`a.entity_id`);
  const scoped = scope ? sql`and ${scope}` : sql``;
  const defaults = rowsOf<{ id: number }>(
    await ctx.db.execute(sql`
      select a.id from ${a} a
      where ${defaultCandidatesSql(asOf, limit)} ${scoped}
      order by a.id`),
  ).map((r) => Number(r.id));
  const completions = rowsOf<{ id: number }>(
    await ctx.db.execute(sql`
      select a.id from ${a} a
      where a.state = 'VIGENTE' ${scoped}
        and not exists (select 1 from ${l} x join ${paymentOrders} o on o.id = x.order_id
          where x.agreement_id = a.id and x.role = 'CUOTA' and x.replaced_at is null and o.state = 'EMITIDA')
        and exists (select 1 from ${l} x join ${paymentOrders} o on o.id = x.order_id
          where x.agreement_id = a.id and x.role = 'CUOTA' and o.state = 'PAGADA')
      order by a.id`),
  ).map((r) => Number(r.id));
  const total = defaults.length + completions.length;
  let done = 0;
  for (const id of defaults) {
    await ctx.db.transaction(async (tx) => {
      const { row } = await applyTransition(ctx, {
        tx,
        machine: agreementMachine,
        table: a,
        id,
        to: 'INCUMPLIDO',
        expected: 'VIGENTE',
        comment: `Cuotas vencidas al ${formatDay(asOf)}: ${limit} o más.`,
        entityId: a.entityId,
        system: true,
        set: () => ({ defaultedOn: asOf, updatedAt: new Date() }),
      });
      // The remaining debt becomes due at once: the instalments not yet due fall due on `asOf`.
      await tx.execute(sql`
        update ${paymentOrders} o set due_date = ${asOf}::date, accrued_to = ${asOf}::date
        from ${l} x
        where x.order_id = o.id and x.agreement_id = ${id} and x.role = 'CUOTA' and x.replaced_at is null
          and o.state = 'EMITIDA' and o.due_date > ${asOf}::date`);
      await notifyAgreement(
        tx,
        row,
        `Convenio ${row.number} incumplido`,
        `Tiene ${limit} o más cuotas vencidas al ${formatDay(asOf)}: el saldo restante es exigible de inmediato.`,
      );
    });
    done += 1;
    if (progress && done % 50 === 0) await progress(done, total);
  }
  for (const id of completions) {
    await ctx.db.transaction(async (tx) => {
      const { row } = await applyTransition(ctx, {
        tx,
        machine: agreementMachine,
        table: a,
        id,
        to: 'CUMPLIDO',
        expected: 'VIGENTE',
        comment: 'Todas las cuotas pagadas.',
        entityId: a.entityId,
        system: true,
        set: () => ({ completedOn: asOf, updatedAt: new Date() }),
      });
      await notifyAgreement(tx, row, `Convenio ${row.number} cumplido`, 'Todas sus cuotas están pagadas.');
    });
    done += 1;
    if (progress && done % 50 === 0) await progress(done, total);
  }
  return { asOf, defaulted: defaults.length, completed: completions.length };
}

// ─── PDF ────────────────────────────────────────────────────────────────────────────────────────────

/** The agreement for signature: parties, debt, the orders consolidated, the schedule and the signature lines. */
export function agreementReport(ag: Agreement): ReportDefinition {
  const m = (s: string) => ({ cents: decimalToCents(s) as Cents });
  const live = ag.instalments.filter((i) => i.state !== 'REEMPLAZADA');
  return {
    kind: 'payment-agreement',
    title: `Convenio de pago ${ag.number}`,
    filters: [
      { label: 'Entidad', value: `${ag.entityName} (${ag.entityCode})` },
      { label: 'Fecha del convenio', value: formatDay(ag.agreementDate) },
      { label: 'Estado', value: agreementStateLabels[ag.state] },
    ],
    tables: [
      {
        caption: 'Deuda convenida',
        headers: ['Capital', 'Intereses', 'Cargo administrativo', 'Total'],
        rows: [[m(ag.principal), m(ag.interest), m(ag.adminCharge), m(ag.debt)]],
        numeric: [0, 1, 2, 3],
        widths: ['*', '*', '*', '*'],
      },
      {
        caption: 'Órdenes que se convienen',
        headers: ['Referencia', 'Tipo', 'Período', 'Vencía', 'Capital', 'Intereses'],
        rows: ag.orders.map((o) => [
          formatPaymentReference(o.reference),
          orderKindLabels[o.kind as keyof typeof orderKindLabels] ?? o.kind,
          formatPeriod(o.period),
          formatDay(o.dueDate),
          m(o.principalDue),
          m(o.interestDue),
        ]),
        numeric: [4, 5],
      },
      {
        caption: 'Calendario de pagos',
        headers: ['Cuota', 'Vence', 'Referencia de pago', 'Monto'],
        rows: live.map((i) => [
          i.number === 0 ? 'Enganche' : String(i.number),
          formatDay(i.dueDate),
          formatPaymentReference(i.reference),
          m(i.amount),
        ]),
        totals: ['Total', '', '', { cents: live.reduce((sum, i) => sum + decimalToCents(i.amount), 0n) }],
        numeric: [3],
      },
    ],
    sections: [
      {
        heading: 'Condiciones',
        paragraphs: [
          'La entidad se obliga a pagar cada cuota en la fecha indicada con su referencia de pago. Una cuota no pagada a su vencimiento genera interés por mora a la tasa anual vigente, solo sobre su parte de capital: nunca sobre intereses ni sobre el cargo administrativo.',
          `Si se acumulan las cuotas vencidas que fija la normativa vigente, el convenio se declara incumplido y el saldo restante es exigible de inmediato.`,
        ],
      },
      {
        heading: 'Firmas',
        paragraphs: [
          '\n\n______________________________\nRepresentante legal de la entidad',
          '\n\n______________________________\nPor la institución',
        ],
      },
    ],
  };
}
