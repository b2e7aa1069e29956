import {
  AppError,
  type Cents,
  centsToDecimal,
  decimalToCents,
  formatDay,
  formatPaymentReference,
  formatPeriod,
  guatemalaToday,
  type OrderKind,
  type OrderShownState,
  orderDueDate,
  orderKindLabels,
  orderStateLabels,
  overdueDays,
  type PaymentOrder,
  type PaymentOrderListQuery,
  type PaymentOrderTotals,
  paymentOrderMachine,
  paymentReference,
  type RateFrom,
  toAvailable,
} from '@aporta/domain';
import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import {
  contributors,
  municipalEntities,
  paymentAllocations,
  paymentOrders,
  payments,
  planillas,
  settingValues,
} from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { keysetBatches, keysetOf, listPage, type Page } from '../../platform/list.ts';
import type { ReportDefinition } from '../../platform/pdf.ts';
import { applyTransition } from '../../platform/transitions.ts';
import { settingsAt } from '../settings/service.ts';

// ─── Interest, set-based ─────────────────────────────────────────────────────────────────────────────

/** The annual interest rates with the day each took effect (live setting rows). */
export async function interestRates(db: Db): Promise<RateFrom[]> {
  const rows = await db
    .select({ from: settingValues.effectiveFrom, value: settingValues.value })
    .from(settingValues)
    .where(and(eq(settingValues.key, 'paymentOrders.annualInterestRate'), isNull(settingValues.cancelledAt)))
    .orderBy(asc(settingValues.effectiveFrom));
  return rows.map((r) => ({ from: r.from, rate: String(r.value) }));
}

/**
 * Simple interest on `base` (SQL money, quetzales) for the days after `start` up to and including `asOf`,
 * each day at the rate in force on it: `base × Σ(rate × days) / 36500`, rounded half-up to the cent ONCE —
 * the domain's interestBetween, set-based, so a list or a total of 100 000 orders is one statement. Rates
 * are inlined as a VALUES list (a handful). The rounding is exact integer arithmetic on the exact product
 * (`x` = base × Σ rate·days has at most six decimals; cents = x / 365, half-up = ⌊(2x + 365) / 730⌋):
 * numeric division would first round the quotient to a scale of its own and, at the column's limits,
 * round twice (docs/decisions.md).
 */
export function interestBetweenSql(rates: readonly RateFrom[], base: SQL, start: SQL, asOf: string | SQL): SQL {
  if (!rates.length) return sql`0::numeric`;
  const spans = rates.map((r, i) => sql`(${r.from}::date, ${rates[i + 1]?.from ?? '9999-12-31'}::date, ${r.rate}::numeric)`);
  return sql`coalesce((
    select div(2 * greatest(${base}, 0) * sum(r.rate * greatest(0, least(${asOf}::date + 1, r.t) - greatest(${start} + 1, r.f))) + 365, 730) * 0.01
    from (values ${sql.join(spans, sql`, `)}) as r(f, t, rate)), 0)`;
}

/** What an order owed on a date, from what it had paid and fixed by then (SQL over the order `o`). */
interface OrderFacts {
  state: SQL;
  principalPaid: SQL;
  interestPaid: SQL;
  interestFixed: SQL;
  accruedTo: SQL;
}

function amountsSql(rates: readonly RateFrom[], asOf: string | SQL, o: SQL, f: OrderFacts) {
  // What accrues: the unpaid principal share (an instalment's consolidated interest and charge never do).
  const base = sql`least(coalesce(${o}.principal_share, ${o}.principal), ${o}.principal - ${f.principalPaid})`;
  const since = sql`(case when ${f.state} = 'EMITIDA' and ${f.accruedTo} < ${asOf}::date then ${interestBetweenSql(rates, base, f.accruedTo, asOf)} else 0 end)`;
  // A voided order owes nothing; a consolidated one (CONVENIDA) owes it through its payment agreement.
  const owes = sql`${f.state} in ('EMITIDA', 'PAGADA')`;
  const interestDue = sql`(case when ${owes} then ${f.interestFixed} - ${f.interestPaid} + ${since} else 0 end)`;
  const balance = sql`(case when ${owes} then ${o}.principal - ${f.principalPaid} + ${interestDue} else 0 end)`;
  return { interestDue, balance };
}

/**
 * Interest due (fixed and unpaid + since) and balance of `o` as of `asOf` (a date, or a date column such as a
 * bank row's deposit date) from its current columns, as SQL numeric expressions.
 */
export function balanceSql(rates: readonly RateFrom[], asOf: string | SQL, o = sql.raw('o')) {
  return amountsSql(rates, asOf, o, {
    state: sql`${o}.state`,
    principalPaid: sql`${o}.principal_paid`,
    interestPaid: sql`${o}.interest_paid`,
    interestFixed: sql`${o}.interest_accrued`,
    accruedTo: sql`${o}.accrued_to`,
  });
}

/**
 * An order as it stood on `asOf`, recomputed from its history rather than read from its current columns:
 * the payments registered up to that day (their allocations to interest and principal, and the interest
 * each fixed; a reversed payment never happened), whether an agreement had consolidated or replaced it by
 * then, whether it had been voided by then, and the rates in force on each day. THE as-of computation of
 * the order list and its totals, the account statement, the arrears ranking and the agreements.
 *
 * Use: `left join lateral ${x.history} on ${x.joinOn}` after the order's FROM item (alias `o`), then the
 * expressions. From today on, the history is the order's own columns (no payment, voiding or agreement
 * is ever dated after today), so the lateral join is on false and never runs.
 */
export function orderAsOfSql(db: Db, rates: readonly RateFrom[], asOf: string, o = sql.raw('o'), today = guatemalaToday()) {
  const history = db
    .select({
      principalPaid: sql<string>`coalesce(sum(pa.principal), 0)`.as('h_principal_paid'),
      interestPaid: sql<string>`coalesce(sum(pa.interest), 0)`.as('h_interest_paid'),
      interestFixed: sql<string>`coalesce(sum(pa.interest_fixed), 0)`.as('h_interest_fixed'),
      lastPayDate: sql<string | null>`max(p.pay_date)`.as('h_last_pay_date'),
    })
    .from(sql`${paymentAllocations} pa join ${payments} p on p.id = pa.payment_id`)
    .where(sql`pa.order_id = ${o}.id and p.state = 'REGISTRADO' and p.pay_date <= ${asOf}::date`)
    .as('h');
  if (asOf >= today) {
    return {
      history,
      joinOn: sql`false`,
      issued: sql`${o}.issue_date <= ${asOf}::date`,
      state: sql`${o}.state`,
      ...balanceSql(rates, asOf, o),
      principalPaid: sql`${o}.principal_paid`,
      interestPaid: sql`${o}.interest_paid`,
    };
  }
  const day = (ts: SQL) => sql`(${ts} at time zone 'America/Guatemala')::date`;
  const state = sql`(case
    when ${o}.state = 'ANULADA' and coalesce(${day(sql`${o}.voided_at`)}, ${o}.issue_date) <= ${asOf}::date then 'ANULADA'
    when exists (select 1 from payment_agreement_orders x join payment_agreements ag on ag.id = x.agreement_id
      where x.order_id = ${o}.id and (
        (x.role = 'CONSOLIDADA' and ag.agreement_date <= ${asOf}::date and (x.released_at is null or ${day(sql`x.released_at`)} > ${asOf}::date))
        or (x.role = 'CUOTA' and ${day(sql`x.replaced_at`)} <= ${asOf}::date))) then 'CONVENIDA'
    when h.h_principal_paid >= ${o}.principal then 'PAGADA'
    else 'EMITIDA' end)`;
  const facts: OrderFacts = {
    state,
    principalPaid: sql`h.h_principal_paid`,
    interestPaid: sql`h.h_interest_paid`,
    interestFixed: sql`h.h_interest_fixed`,
    accruedTo: sql`greatest(${o}.due_date, h.h_last_pay_date)`,
  };
  return {
    history,
    joinOn: sql`true`,
    issued: sql`${o}.issue_date <= ${asOf}::date`,
    state,
    ...amountsSql(rates, asOf, o, facts),
    principalPaid: facts.principalPaid,
    interestPaid: facts.interestPaid,
  };
}

// ─── Issuing ────────────────────────────────────────────────────────────────────────────────────────

/** The next free sequence of an owner's orders of a kind and period (complementary planillas add more). */
async function nextSequence(
  tx: Db,
  owner: { entityId?: number | null; contributorId?: number | null },
  kind: OrderKind,
  period: string,
) {
  const [r] = rowsOf<{ n: number }>(
    await tx.execute(sql`select count(*)::int as n from ${paymentOrders}
      where kind = ${kind} and period = ${period}
        and ${owner.entityId ? sql`entity_id = ${owner.entityId}` : sql`contributor_id = ${owner.contributorId ?? 0} and entity_id is null`}`),
  );
  return Number(r.n) + 1;
}

export interface NewOrder {
  kind: OrderKind;
  entityId?: number | null;
  contributorId?: number | null;
  planillaId?: number | null;
  period: string;
  periods?: string[];
  salary?: Cents | null;
  principal: Cents;
  /** An agreement instalment: what of `principal` is principal and interest (the rest is the charge). */
  shares?: { principal: Cents; interest: Cents };
  dueDate?: string;
  /** Default today (the demo seed issues orders in the past). */
  issueDate?: string;
}

/** Inserts an order with its reference and due date (day of settings, next business day). */
export async function insertOrder(ctx: RequestContext, tx: Db, o: NewOrder): Promise<typeof paymentOrders.$inferSelect> {
  const today = o.issueDate ?? guatemalaToday();
  const s = await settingsAt(tx, today);
  const dueDate = o.dueDate ?? orderDueDate(o.period, s.values['paymentOrders.dueDay'], s.values['calendar.holidays']);
  const ownerId = o.entityId ?? o.contributorId;
  if (!ownerId) throw new Error('Una orden necesita entidad o afiliado.');
  const sequence = await nextSequence(tx, o, o.kind, o.period);
  const reference = paymentReference({ ownerId, period: o.period, kind: o.kind, sequence });
  const [row] = await tx
    .insert(paymentOrders)
    .values({
      kind: o.kind,
      entityId: o.entityId ?? null,
      contributorId: o.contributorId ?? null,
      planillaId: o.planillaId ?? null,
      period: o.period,
      periods: o.periods ?? [o.period],
      salary: o.salary ?? null,
      reference,
      issueDate: today,
      dueDate,
      principal: o.principal,
      principalShare: o.shares?.principal ?? null,
      interestShare: o.shares?.interest ?? null,
      accruedTo: dueDate,
      createdBy: ctx.actor.id,
    })
    .returning();
  await ctx.audit(
    {
      action: 'CREATE',
      entityType: 'payment-order',
      entityId: row.id,
      after: { tipo: o.kind, periodo: o.period, referencia: reference, capital: centsToDecimal(o.principal), vence: dueDate },
      scopeEntityId: o.entityId ?? null,
    },
    tx,
  );
  return row;
}

/**
 * Issues the two orders of an approved planilla (employee and employer contributions), in the
 * approval's transaction. A share of zero issues no order. Called by the planillas module on approval.
 */
export async function issuePlanillaOrders(
  ctx: RequestContext,
  tx: Db,
  p: { id: number; entityId: number; period: string; totalEmployee: Cents; totalEmployer: Cents },
): Promise<void> {
  for (const [kind, amount] of [
    ['LABORAL', p.totalEmployee],
    ['PATRONAL', p.totalEmployer],
  ] as const) {
    if (amount <= 0n) continue;
    await insertOrder(ctx, tx, { kind, entityId: p.entityId, planillaId: p.id, period: p.period, principal: amount });
  }
}

// ─── Reading ────────────────────────────────────────────────────────────────────────────────────────

const o = paymentOrders;

type AsOf = ReturnType<typeof orderAsOfSql>;

/** The list's filters; the state and the days overdue are those of `asOf` (x: the order as of that day). */
function listConditions(ctx: RequestContext, q: Partial<PaymentOrderListQuery>, asOf: string, x: AsOf): SQL | undefined {
  const where: (SQL | undefined)[] = [ctx.inScope(o.entityId), x.issued];
  if (q.entityId) where.push(eq(o.entityId, q.entityId));
  if (q.contributorId) where.push(eq(o.contributorId, q.contributorId));
  if (q.period) where.push(eq(o.period, q.period));
  if (q.kind) where.push(eq(o.kind, q.kind));
  if (q.state === 'VENCIDA') where.push(sql`${x.state} = 'EMITIDA' and ${o.dueDate} < ${asOf}::date`);
  else if (q.state === 'EMITIDA') where.push(sql`${x.state} = 'EMITIDA' and ${o.dueDate} >= ${asOf}::date`);
  else if (q.state) where.push(sql`${x.state} = ${q.state}`);
  if (q.minOverdueDays !== undefined) {
    where.push(sql`${x.state} = 'EMITIDA' and ${o.dueDate} <= ${asOf}::date - ${q.minOverdueDays}::int`);
  }
  const text = q.q?.trim();
  if (text) {
    const digits = text.replace(/[\s-]/g, '');
    where.push(
      /^\d{4,}$/.test(digits)
        ? sql`${o.reference} like ${`${digits}%`}`
        : sql`(${municipalEntities.name} ilike ${`%${text}%`} or ${contributors.searchName} ilike ${`%${text.toUpperCase()}%`})`,
    );
  }
  return and(...where);
}

const sortable = { id: o.id, dueDate: o.dueDate, period: o.period, principal: o.principal, issueDate: o.issueDate };

const ordersAlias = sql.raw('"payment_orders"');

/** The orders as of `asOf` (orderAsOfSql): the list, its export, one order. */
function asOfOf(db: Db, rates: RateFrom[], asOf: string): AsOf {
  return orderAsOfSql(db, rates, asOf, ordersAlias);
}

function selectOrders(db: Db, x: AsOf) {
  return db
    .select({
      o,
      entityName: municipalEntities.name,
      entityCode: municipalEntities.code,
      firstName: contributors.firstName,
      firstSurname: contributors.firstSurname,
      secondSurname: contributors.secondSurname,
      cui: contributors.cui,
      state: sql<string>`(${x.state})::text`,
      principalPaid: sql<string>`(${x.principalPaid})::text`,
      interestPaid: sql<string>`(${x.interestPaid})::text`,
      interestDue: sql<string>`(${x.interestDue})::text`,
      balance: sql<string>`(${x.balance})::text`,
    })
    .from(o)
    .leftJoin(municipalEntities, eq(municipalEntities.id, o.entityId))
    .leftJoin(contributors, eq(contributors.id, o.contributorId))
    .leftJoinLateral(x.history, x.joinOn);
}

type Row = Awaited<ReturnType<ReturnType<typeof selectOrders>['where']>>[number];

function toOrder(ctx: RequestContext | null, r: Row, asOf: string): PaymentOrder {
  const stored = r.state as PaymentOrder['state'];
  const state: OrderShownState = stored === 'EMITIDA' && r.o.dueDate < asOf ? 'VENCIDA' : stored;
  const transitions =
    ctx && r.o.state === 'EMITIDA' && ctx.scopeFor('payment-orders', 'DELETE')
      ? paymentOrderMachine.transitions.filter((t) => t.from.includes('EMITIDA')).map(toAvailable)
      : [];
  const principalPaid = decimalToCents(r.principalPaid);
  const interestPaid = decimalToCents(r.interestPaid);
  return {
    id: r.o.id,
    kind: r.o.kind,
    entityId: r.o.entityId,
    entityName: r.entityName,
    entityCode: r.entityCode,
    contributorId: r.o.contributorId,
    contributorName: r.firstName ? [r.firstName, r.firstSurname, r.secondSurname].filter(Boolean).join(' ') : null,
    contributorCui: r.cui,
    planillaId: r.o.planillaId,
    period: r.o.period,
    periods: r.o.periods,
    reference: r.o.reference,
    issueDate: r.o.issueDate,
    dueDate: r.o.dueDate,
    state,
    principal: centsToDecimal(r.o.principal),
    principalPaid: centsToDecimal(principalPaid),
    interestPaid: centsToDecimal(interestPaid),
    paid: centsToDecimal(principalPaid + interestPaid),
    interestDue: centsToDecimal(decimalToCents(r.interestDue)),
    balance: centsToDecimal(decimalToCents(r.balance)),
    overdueDays: stored === 'EMITIDA' ? overdueDays(r.o.dueDate, asOf) : 0,
    asOf,
    voidReason: stored === 'ANULADA' ? r.o.voidReason : null,
    transitions,
  };
}

export async function findOrders(ctx: RequestContext, q: PaymentOrderListQuery): Promise<Page<PaymentOrder>> {
  const asOf = q.asOf ?? guatemalaToday();
  const rates = await interestRates(ctx.db);
  const x = asOfOf(ctx.db, rates, asOf);
  const cond = listConditions(ctx, q, asOf, x);
  const page = await listPage(ctx.db, {
    query: q,
    sortable,
    defaultSort: '-id',
    rows: (c) =>
      selectOrders(ctx.db, x)
        .where(and(cond, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.o.id,
    count: () =>
      ctx.db
        .select({ id: o.id })
        .from(o)
        .leftJoin(municipalEntities, eq(municipalEntities.id, o.entityId))
        .leftJoin(contributors, eq(contributors.id, o.contributorId))
        .leftJoinLateral(x.history, x.joinOn)
        .where(cond),
  });
  return { ...page, items: page.items.map((r) => toOrder(ctx, r, asOf)) };
}

export async function* orderExportBatches(
  ctx: RequestContext,
  q: Omit<PaymentOrderListQuery, 'page' | 'pageSize' | 'after' | 'before'>,
) {
  const asOf = q.asOf ?? guatemalaToday();
  const rates = await interestRates(ctx.db);
  const x = asOfOf(ctx.db, rates, asOf);
  const cond = listConditions(ctx, q, asOf, x);
  const k = keysetOf(q.sort, sortable, '-id');
  for await (const rows of keysetBatches(
    k,
    (c) =>
      selectOrders(ctx.db, x)
        .where(and(cond, c.after))
        .orderBy(...c.order)
        .limit(c.limit),
    (r) => r.o.id,
    500,
  )) {
    yield rows.map((r) => toOrder(ctx, r, asOf));
  }
}

/** The list's totals (count, principal, paid, interest and balance as of the date), over every filtered row. */
export async function orderTotals(ctx: RequestContext, q: PaymentOrderListQuery): Promise<PaymentOrderTotals> {
  const asOf = q.asOf ?? guatemalaToday();
  const rates = await interestRates(ctx.db);
  const x = asOfOf(ctx.db, rates, asOf);
  const [r] = await ctx.db
    .select({
      n: sql<number>`count(*)::int`,
      principal: sql<string>`coalesce(sum(${o.principal}), 0)::text`,
      paid: sql<string>`coalesce(sum(${x.principalPaid} + ${x.interestPaid}), 0)::text`,
      interestDue: sql<string>`coalesce(sum(${x.interestDue}), 0)::text`,
      balance: sql<string>`coalesce(sum(${x.balance}), 0)::text`,
    })
    .from(o)
    .leftJoin(municipalEntities, eq(municipalEntities.id, o.entityId))
    .leftJoin(contributors, eq(contributors.id, o.contributorId))
    .leftJoinLateral(x.history, x.joinOn)
    .where(listConditions(ctx, q, asOf, x));
  const d = (s: string) => centsToDecimal(decimalToCents(s));
  return {
    count: Number(r.n),
    principal: d(r.principal),
    paid: d(r.paid),
    interestDue: d(r.interestDue),
    balance: d(r.balance),
    asOf,
  };
}

export async function getOrder(ctx: RequestContext, input: { id: number; asOf?: string }): Promise<PaymentOrder> {
  const asOf = input.asOf ?? guatemalaToday();
  const rates = await interestRates(ctx.db);
  const [r] = await selectOrders(ctx.db, asOfOf(ctx.db, rates, asOf)).where(and(eq(o.id, input.id), ctx.inScope(o.entityId)));
  if (!r) throw new AppError('NOT_FOUND', 'La orden de pago no existe o no está dentro de su alcance.');
  return toOrder(ctx, r, asOf);
}

/** Orders by id for a payment (locked, in id order so concurrent payments never deadlock). */
export async function lockOrders(tx: Db, ids: number[]) {
  return tx.select().from(o).where(inArray(o.id, ids)).orderBy(asc(o.id)).for('update');
}

export async function voidOrder(ctx: RequestContext, input: { id: number; reason: string }): Promise<PaymentOrder> {
  await ctx.db.transaction(async (tx) => {
    // Scope first: an order outside the caller's scope is absent (404), whatever its payments.
    const [cur] = await tx
      .select()
      .from(o)
      .where(and(eq(o.id, input.id), ctx.inScope(o.entityId)))
      .for('update');
    if (!cur) throw new AppError('NOT_FOUND', 'La orden de pago no existe o no está dentro de su alcance.');
    if (cur.principalPaid > 0n || cur.interestPaid > 0n) {
      throw new AppError('CONFLICT', 'La orden tiene pagos registrados: revierta los pagos antes de anularla.');
    }
    await applyTransition(ctx, {
      tx,
      machine: paymentOrderMachine,
      table: o,
      id: input.id,
      to: 'ANULADA',
      comment: input.reason,
      entityId: o.entityId,
      set: () => ({ voidReason: input.reason, voidedBy: ctx.actor.id, voidedAt: new Date() }),
    });
  });
  return getOrder(ctx, { id: input.id });
}

/** The order as a PDF: institution header, entity, period, concepts, amounts, due date, reference and its QR. */
export function orderReport(ord: PaymentOrder): ReportDefinition {
  const owner = ord.entityName
    ? `${ord.entityName} (${ord.entityCode})`
    : `${ord.contributorName ?? ''} · CUI ${ord.contributorCui ?? ''}`;
  const m = (s: string) => ({ cents: decimalToCents(s) });
  return {
    kind: 'payment-order',
    title: `Orden de pago ${formatPaymentReference(ord.reference)}`,
    filters: [
      { label: ord.entityName ? 'Entidad' : 'Afiliado', value: owner },
      { label: 'Período', value: ord.periods.map(formatPeriod).join(', ') },
      { label: 'Saldo al', value: formatDay(ord.asOf) },
    ],
    tables: [
      {
        headers: ['Concepto', 'Período', 'Monto'],
        rows: [[orderKindLabels[ord.kind], ord.periods.map(formatPeriod).join(', '), m(ord.principal)]],
        numeric: [2],
      },
      {
        caption: 'Estado de cuenta',
        headers: ['Capital', 'Intereses', 'Pagado', 'Saldo'],
        rows: [[m(ord.principal), m(ord.interestDue), m(ord.paid), m(ord.balance)]],
        numeric: [0, 1, 2, 3],
        widths: ['*', '*', '*', '*'],
      },
    ],
    sections: [
      {
        heading: 'Referencia de pago',
        qr: { value: ord.reference, caption: formatPaymentReference(ord.reference) },
        paragraphs: [
          `Emitida el ${formatDay(ord.issueDate)}. Vence el ${formatDay(ord.dueDate)}. Estado: ${orderStateLabels[ord.state]}.`,
          'Pague en el banco con la referencia de 19 dígitos (los dos últimos son dígitos verificadores ISO 7064 MOD 97-10). ' +
            'Después del vencimiento se cobra interés simple diario sobre el capital no pagado a la tasa anual vigente.',
        ],
      },
    ],
  };
}

export const orderPlanillaStateSql = (planillaId: number) => sql`
  update ${planillas} p set state = case
      when not exists (select 1 from ${paymentOrders} x where x.planilla_id = p.id and x.state = 'EMITIDA')
        and exists (select 1 from ${paymentOrders} x where x.planilla_id = p.id and x.state = 'PAGADA') then 'PAGADA'
      else 'APROBADA' end,
    updated_at = now()
  where p.id = ${planillaId} and p.state in ('APROBADA', 'PAGADA')
  returning p.id, p.state, p.entity_id`;
