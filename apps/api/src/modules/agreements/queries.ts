// Reading payment agreements: the list within scope (and its export) and one agreement with its instalments
// as of a date.
import {
  type Agreement,
  type AgreementInstalment,
  type AgreementListItem,
  type AgreementListQuery,
  type AgreementOrder,
  AppError,
  agreementMachine,
  centsToDecimal,
  decimalToCents,
  guatemalaToday,
  msg,
  type RateFrom,
  toAvailable,
} from '@aporta/domain';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { municipalEntities, paymentAgreementOrders, paymentAgreements, paymentOrders } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { keysetBatches, keysetOf, listPage, type Page } from '../../platform/list.ts';
import { interestRates, orderAsOfSql } from '../payments/orders.ts';
import { settingsAt } from '../settings/service.ts';

export const a = paymentAgreements;
export const l = paymentAgreementOrders;
export const d = (s: string | null | undefined) => centsToDecimal(decimalToCents(s ?? '0'));

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
  if (!r) throw new AppError('NOT_FOUND', msg('agreements.notFound'));
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
