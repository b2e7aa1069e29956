import {
  type Arrears,
  type ArrearsQuery,
  type ArrearsRow,
  centsToDecimal,
  type Dashboard,
  decimalToCents,
  guatemalaToday,
  periodOf,
  periodsBetween,
} from '@aporta/domain';
import { type SQL, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.ts';
import type { RequestContext } from '../../platform/context.ts';
import { interestRates, orderAsOfSql } from '../payments/orders.ts';
import { d } from './service.ts';

/**
 * The collection reports of the financial module: the arrears ranking (the delegates' collection list)
 * and the collection dashboard, each one set-based statement over the rows in scope.
 */

// ─── Arrears ranking ────────────────────────────────────────────────────────────────────────────────

/**
 * Entities by overdue amount (unpaid principal plus interest as of the date) with its age buckets
 * (1–30, 31–90, 91–180, > 180 days past due), by region: the delegates' collection list. One grouped
 * statement over the overdue orders in scope.
 */
export async function arrearsRanking(ctx: RequestContext, q: ArrearsQuery): Promise<Arrears> {
  const asOf = q.asOf ?? guatemalaToday();
  const rates = await interestRates(ctx.db);
  // The orders as they stood on the date (orderAsOfSql): one paid since still owed then, with its interest.
  const x = orderAsOfSql(ctx.db, rates, asOf);
  const where: SQL[] = [sql`${x.issued} and ${x.state} = 'EMITIDA' and o.due_date < ${asOf}::date and o.entity_id is not null`];
  const scope = ctx.inScope(sql`o.entity_id`);
  if (scope) where.push(scope);
  if (q.regionId) {
    where.push(sql`exists (select 1 from entity_regions er where er.entity_id = o.entity_id and er.region_id = ${q.regionId})`);
  }
  if (q.q)
    where.push(sql`exists (select 1 from municipal_entities me where me.id = o.entity_id and me.name ilike ${`%${q.q}%`})`);
  const rows = rowsOf<{
    entity_id: number;
    name: string;
    code: string;
    region: string | null;
    n: number;
    oldest: string;
    d1: string;
    d31: string;
    d91: string;
    d181: string;
    total: string;
    case_id: number | null;
  }>(
    await ctx.db.execute(sql`
      with x as (
        select o.entity_id, ${asOf}::date - o.due_date as days, ${x.balance} as amt, o.due_date
        from payment_orders o left join lateral ${x.history} on ${x.joinOn}
        where ${sql.join(where, sql` and `)}),
      g as (
        select entity_id, count(*)::int as n, min(due_date)::text as oldest,
          coalesce(sum(amt) filter (where days <= 30), 0) as d1,
          coalesce(sum(amt) filter (where days between 31 and 90), 0) as d31,
          coalesce(sum(amt) filter (where days between 91 and 180), 0) as d91,
          coalesce(sum(amt) filter (where days > 180), 0) as d181,
          sum(amt) as total
        from x group by entity_id)
      select g.entity_id, e.name, e.code, r.name as region, g.n, g.oldest, g.d1::text, g.d31::text, g.d91::text,
        g.d181::text, g.total::text,
        (select c.id from legal_cases c where c.entity_id = g.entity_id and c.state <> 'CERRADO' order by c.id desc limit 1) as case_id
      from g join municipal_entities e on e.id = g.entity_id
        left join lateral (select region_id from entity_regions er where er.entity_id = g.entity_id order by region_id limit 1) er on true
        left join regions r on r.id = er.region_id
      order by g.total desc, g.entity_id
      limit ${q.limit ?? 5000}`),
  );
  const items: ArrearsRow[] = rows.map((r, i) => ({
    rank: i + 1,
    entityId: Number(r.entity_id),
    entityName: r.name,
    entityCode: r.code,
    regionName: r.region ?? 'Sin región',
    orders: Number(r.n),
    oldestDueDate: r.oldest,
    d1_30: d(r.d1),
    d31_90: d(r.d31),
    d91_180: d(r.d91),
    d181: d(r.d181),
    total: d(r.total),
    legalCaseId: r.case_id == null ? null : Number(r.case_id),
  }));
  const tot = (k: 'd1_30' | 'd31_90' | 'd91_180' | 'd181' | 'total') =>
    centsToDecimal(items.reduce((s, x) => s + decimalToCents(x[k]), 0n));
  return {
    asOf,
    items,
    totals: {
      entities: items.length,
      d1_30: tot('d1_30'),
      d31_90: tot('d31_90'),
      d91_180: tot('d91_180'),
      d181: tot('d181'),
      total: tot('total'),
    },
  };
}

// ─── Dashboard ──────────────────────────────────────────────────────────────────────────────────────

/** Collected per month (and how much of it through agreements), agreements by state, arrears and what is in agreements. */
export async function dashboard(ctx: RequestContext, q: { from?: string; to?: string }): Promise<Dashboard> {
  const today = guatemalaToday();
  const to = q.to ?? periodOf(today);
  const from = q.from ?? periodsBetween(`${Number(to.slice(0, 4)) - 1}${to.slice(4)}`, to)[1] ?? to;
  const scopeP = ctx.inScope(sql`p.entity_id`);
  const scopeA = ctx.inScope(sql`a.entity_id`);
  const scopeO = ctx.inScope(sql`o.entity_id`);
  const and_ = (s: SQL | undefined) => (s ? sql`and ${s}` : sql``);
  const months = rowsOf<{ month: string; collected: string; agreements: string }>(
    await ctx.db.execute(sql`
      select to_char(p.pay_date, 'YYYY-MM') as month, sum(pa.principal + pa.interest)::text as collected,
        coalesce(sum(pa.principal + pa.interest) filter (where o.kind = 'CONVENIO'), 0)::text as agreements
      from payments p join payment_allocations pa on pa.payment_id = p.id join payment_orders o on o.id = pa.order_id
      where p.state = 'REGISTRADO' and p.entity_id is not null
        and p.pay_date >= ${`${from}-01`}::date and p.pay_date < (${`${to}-01`}::date + interval '1 month') ${and_(scopeP)}
      group by 1 order by 1`),
  );
  const byMonth = new Map(months.map((m) => [m.month, m]));
  const ags = rowsOf<{ state: Dashboard['agreements'][number]['state']; n: number; debt: string }>(
    await ctx.db.execute(sql`
      select a.state, count(*)::int as n, sum(a.debt)::text as debt from payment_agreements a
      where true ${and_(scopeA)} group by a.state order by a.state`),
  );
  const [open] = rowsOf<{ overdue: string; in_agreements: string }>(
    await ctx.db.execute(sql`
      select coalesce(sum(o.principal - o.principal_paid) filter (where o.due_date < ${today}::date), 0)::text as overdue,
        coalesce(sum(o.principal - o.principal_paid) filter (where o.kind = 'CONVENIO'), 0)::text as in_agreements
      from payment_orders o where o.state = 'EMITIDA' and o.entity_id is not null ${and_(scopeO)}`),
  );
  return {
    from,
    to,
    months: periodsBetween(from, to).map((m) => ({
      month: m,
      collected: d(byMonth.get(m)?.collected),
      throughAgreements: d(byMonth.get(m)?.agreements),
    })),
    agreements: ags.map((a) => ({ state: a.state, count: Number(a.n), debt: d(a.debt) })),
    overdue: d(open.overdue),
    inAgreements: d(open.in_agreements),
  };
}
