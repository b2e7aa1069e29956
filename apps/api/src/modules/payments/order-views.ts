/**
 * Orders as the screens see them, as of a date (orderAsOfSql): the list, its totals and export, one order
 * and its PDF; voiding an order, answered as seen.
 */
import {
  AppError,
  centsToDecimal,
  decimalToCents,
  formatCui,
  formatDay,
  formatMoney,
  formatPaymentReference,
  formatPeriod,
  guatemalaToday,
  msg,
  type OrderShownState,
  orderKindLabels,
  orderShownState,
  orderStateLabels,
  type orderStates,
  overdueDays,
  type PaymentOrder,
  type PaymentOrderListQuery,
  type PaymentOrderTotals,
  paymentOrderMachine,
  type RateFrom,
  toAvailable,
} from '@aporta/domain';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { contributors, municipalEntities, paymentOrders } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { keysetBatches, keysetOf, listPage, type Page } from '../../platform/list.ts';
import type { ReportDefinition } from '../../platform/pdf.ts';
import { applyTransition } from '../../platform/transitions.ts';
import { interestRates, orderAsOfSql } from './orders.ts';

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
  else if (q.state === 'EMITIDA' || q.state === 'PAGADA_PARCIAL') {
    // Not yet due: partly paid when something was paid by `asOf` (orderShownState).
    const paid = sql`(${x.principalPaid} + ${x.interestPaid}) ${sql.raw(q.state === 'EMITIDA' ? '=' : '>')} 0`;
    where.push(sql`${x.state} = 'EMITIDA' and ${o.dueDate} >= ${asOf}::date and ${paid}`);
  } else if (q.state) where.push(sql`${x.state} = ${q.state}`);
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
  const stored = r.state as (typeof orderStates)[number];
  const transitions =
    ctx && r.o.state === 'EMITIDA' && ctx.scopeFor('payment-orders', 'DELETE')
      ? paymentOrderMachine.transitions.filter((t) => t.from.includes('EMITIDA')).map(toAvailable)
      : [];
  const principalPaid = decimalToCents(r.principalPaid);
  const interestPaid = decimalToCents(r.interestPaid);
  const interestDue = decimalToCents(r.interestDue);
  const balance = decimalToCents(r.balance);
  const state: OrderShownState = orderShownState(stored, r.o.dueDate, principalPaid + interestPaid, asOf);
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
    dueBasis: r.o.dueBasis,
    state,
    principal: centsToDecimal(r.o.principal),
    // Adds up (orderStatement): principal + interestAccrued − principalPaid − interestPaid = balance while it
    // is owed; voided or moved into an agreement, nothing is owed here (balance and principalDue 0).
    interestAccrued: centsToDecimal(interestPaid + interestDue),
    principalPaid: centsToDecimal(principalPaid),
    interestPaid: centsToDecimal(interestPaid),
    paid: centsToDecimal(principalPaid + interestPaid),
    principalDue: centsToDecimal(balance - interestDue),
    interestDue: centsToDecimal(interestDue),
    balance: centsToDecimal(balance),
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
      interestAccrued: sql<string>`coalesce(sum(${x.interestPaid} + ${x.interestDue}), 0)::text`,
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
    interestAccrued: d(r.interestAccrued),
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
  if (!r) throw new AppError('NOT_FOUND', msg('payments.orderNotFound'));
  return toOrder(ctx, r, asOf);
}

export async function voidOrder(ctx: RequestContext, input: { id: number; reason: string }): Promise<PaymentOrder> {
  await ctx.db.transaction(async (tx) => {
    // Scope first: an order outside the caller's scope is absent (404), whatever its payments.
    const [cur] = await tx
      .select()
      .from(o)
      .where(and(eq(o.id, input.id), ctx.inScope(o.entityId)))
      .for('update');
    if (!cur) throw new AppError('NOT_FOUND', msg('payments.orderNotFound'));
    if (cur.principalPaid > 0n || cur.interestPaid > 0n) {
      throw new AppError('CONFLICT', msg('payments.orderHasPayments'));
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

/** An order as of a date as its PDF report, with the file's name. Callers: payment-orders READ. */
export async function orderDocument(ctx: RequestContext, input: { id: number; asOf?: string }) {
  const o = await getOrder(ctx, input);
  return { report: orderReport(o), name: `orden-${o.reference}` };
}

/**
 * The order as a PDF document (no filters heading: its own data under the title): entity, concept,
 * period, dates, the account statement with money as `Q 1,234.50`, the reference grouped and its QR.
 */
export function orderReport(ord: PaymentOrder): ReportDefinition {
  const owner = ord.entityName
    ? `${ord.entityName} (${ord.entityCode})`
    : `${ord.contributorName ?? ''} · CUI ${ord.contributorCui ? formatCui(ord.contributorCui) : ''}`;
  const m = (s: string) => ({ cents: decimalToCents(s) });
  const sum = (a: string, b: string) => centsToDecimal(decimalToCents(a) + decimalToCents(b));
  const periods = ord.periods.map(formatPeriod).join(', ');
  return {
    kind: 'payment-order',
    title: `Orden de pago ${formatPaymentReference(ord.reference)}`,
    layout: 'document',
    filters: [],
    fields: [
      { label: ord.entityName ? 'Entidad' : 'Afiliado', value: owner },
      { label: 'Concepto', value: orderKindLabels[ord.kind] },
      { label: ord.periods.length > 1 ? 'Períodos' : 'Período', value: periods },
      { label: 'Emitida el', value: formatDay(ord.issueDate) },
      { label: 'Vence el', value: formatDay(ord.dueDate) },
      { label: 'Estado', value: orderStateLabels[ord.state] },
      { label: 'Saldo al', value: formatDay(ord.asOf) },
    ],
    tables: [
      {
        headers: ['Concepto', 'Período', 'Monto'],
        rows: [[orderKindLabels[ord.kind], periods, m(ord.principal)]],
        numeric: [2],
      },
      {
        // Adds up on paper as on screen: capital + intereses causados − pagos = saldo.
        caption: 'Estado de cuenta',
        headers: ['Concepto', 'Capital', 'Intereses', 'Total'],
        rows: [
          ['Causado', m(ord.principal), m(ord.interestAccrued), m(sum(ord.principal, ord.interestAccrued))],
          ['Pagado', m(ord.principalPaid), m(ord.interestPaid), m(ord.paid)],
          ['Saldo', m(ord.principalDue), m(ord.interestDue), m(ord.balance)],
        ],
        numeric: [1, 2, 3],
        widths: ['*', '*', '*', '*'],
      },
    ],
    sections: [
      {
        heading: 'Referencia de pago',
        qr: { value: ord.reference, caption: formatPaymentReference(ord.reference) },
        paragraphs: [
          `Saldo a pagar al ${formatDay(ord.asOf)}: ${formatMoney(decimalToCents(ord.balance))}.`,
          'Pague en el banco con la referencia de 19 dígitos (los dos últimos son dígitos verificadores ISO 7064 MOD 97-10). ' +
            'Después del vencimiento se cobra interés simple diario sobre el capital no pagado a la tasa anual vigente.',
        ],
      },
    ],
  };
}
