import {
  AppError,
  applyRate,
  type CollectionStats,
  centsToDecimal,
  decimalToCents,
  detail,
  formatPeriod,
  guatemalaToday,
  historyPlanillaStates,
  isFuturePeriod,
  msg,
  nextBusinessDay,
  orderDueDate,
  type PaymentOrder,
  periodOf,
  text,
  type VoluntaryOrderCreate,
  voluntaryMonthShares,
} from '@aporta/domain';
import { eq, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.ts';
import { contributors, paymentOrders, planillaLines, planillas } from '../../db/schema/index.ts';
import { type RequestContext, requireAllScope } from '../../platform/context.ts';
import { settingsAt } from '../settings/service.ts';
import { getOrder } from './order-views.ts';
import { insertOrder } from './orders.ts';

/** The salary limits and the rates a voluntary payment uses today. */
export async function voluntaryLimits(ctx: RequestContext) {
  const s = await settingsAt(ctx.db, guatemalaToday());
  return {
    minSalary: centsToDecimal(BigInt(s.values['voluntary.minSalary']) * 100n),
    maxSalary: centsToDecimal(BigInt(s.values['voluntary.maxSalary']) * 100n),
    employeeRate: s.values['contributions.employeeRate'],
    employerRate: s.values['contributions.employerRate'],
  };
}

/**
 * A voluntary payment order: a contributor with no employer pays both shares (employee and employer
 * rates in force for each month) for the months chosen, on the salary they declare within the limits of
 * settings. A month already declared by a planilla or covered by another live voluntary order is refused.
 * Due: the later of the usual due date of the last month and the next business day (months already past
 * do not start overdue). When paid, the months enter the contributor's history.
 */
export async function createVoluntaryOrder(ctx: RequestContext, input: VoluntaryOrderCreate): Promise<PaymentOrder> {
  // The contributor has no employer, so no entity scope reaches them: the central office issues these.
  requireAllScope(ctx, text('payments.voluntaryRequireAllScope'));
  const [c] = await ctx.db.select().from(contributors).where(eq(contributors.cui, input.cui));
  if (!c)
    throw new AppError('NOT_FOUND', msg('payments.contributorNotFoundByCui'), [
      { path: 'cui', ...detail(msg('payments.contributorNotFoundByCuiField')) },
    ]);
  if (c.state === 'FALLECIDO')
    throw new AppError('CONFLICT', msg('payments.contributorDeceased'), [
      { path: 'cui', ...detail(msg('payments.contributorDeceasedField')) },
    ]);
  if (c.entityId !== null) {
    throw new AppError('CONFLICT', msg('payments.contributorHasEmployer'), [
      { path: 'cui', ...detail(msg('payments.contributorHasEmployerField')) },
    ]);
  }
  const today = guatemalaToday();
  const periods = [...input.periods].sort();
  const future = periods.find((p) => isFuturePeriod(p, today));
  if (future)
    throw new AppError('VALIDATION', msg('payments.monthFuture', { period: future }), [
      { path: 'periods', ...detail(msg('payments.monthFutureField')) },
    ]);
  const salary = decimalToCents(input.salary);
  const s = await settingsAt(ctx.db, today);
  const min = BigInt(s.values['voluntary.minSalary']) * 100n;
  const max = BigInt(s.values['voluntary.maxSalary']) * 100n;
  if (salary < min || salary > max) {
    throw new AppError('VALIDATION', msg('payments.salaryOutOfLimits', { min, max }), [
      { path: 'salary', ...detail(msg('payments.salaryOutOfLimitsField')) },
    ]);
  }
  const taken = rowsOf<{ period: string }>(
    await ctx.db.execute(sql`
      select l.period from ${planillaLines} l join ${planillas} p on p.id = l.planilla_id
        where l.cui = ${c.cui} and p.state in ('APROBADA', 'PAGADA') and l.period = any(${`{${periods.join(',')}}`}::text[])
      union select unnest(periods) from ${paymentOrders} where contributor_id = ${c.id} and kind = 'VOLUNTARIO' and state <> 'ANULADA'
      intersect select unnest(${`{${periods.join(',')}}`}::text[])`),
  );
  if (taken.length) {
    const months = taken.map((t) => formatPeriod(t.period)).join(', ');
    // The months as the UI writes them (`04/2026, 05/2026`): the same in every language.
    throw new AppError('CONFLICT', msg('payments.monthsTaken', { months }), [
      { path: 'periods', ...detail(msg('payments.monthsTakenField', { months })) },
    ]);
  }
  let principal = 0n;
  for (const p of periods) {
    const r = await settingsAt(ctx.db, `${p}-01`);
    principal +=
      applyRate(salary, r.values['contributions.employeeRate']) + applyRate(salary, r.values['contributions.employerRate']);
  }
  const last = periods[periods.length - 1];
  const usual = orderDueDate(last, s.values['paymentOrders.dueDay'], s.values['calendar.holidays']);
  const soonest = nextBusinessDay(today, s.values['calendar.holidays']);
  const id = await ctx.db.transaction(async (tx) => {
    const row = await insertOrder(ctx, tx, {
      kind: 'VOLUNTARIO',
      contributorId: c.id,
      period: periods[0],
      periods,
      salary,
      principal,
      dueDate: [usual, soonest].sort()[1],
    });
    return row.id;
  });
  return getOrder(ctx, { id });
}

/** A month a voluntary order paid: its part of what was paid, and that part's employee and employer shares. */
export interface VoluntaryMonth {
  orderId: number;
  salary: string | null;
  amount: string;
  employeeAmount: string;
  employerAmount: string;
}

/** The months of a contributor paid: planillas whose orders are paid, and paid voluntary orders. */
export async function paidMonths(
  db: RequestContext['db'],
  cui: string,
): Promise<{ planilla: Set<number>; voluntary: Map<string, VoluntaryMonth> }> {
  const planillaPaid = rowsOf<{ id: number }>(
    await db.execute(sql`select distinct p.id from ${planillas} p join ${planillaLines} l on l.planilla_id = p.id
      where l.cui = ${cui} and p.state = 'PAGADA'`),
  );
  const rows = rowsOf<{ id: number; period: string; salary: string | null; principal: string }>(
    await db.execute(sql`select o.id, unnest(o.periods) as period, o.salary::text as salary, o.principal::text as principal
      from ${paymentOrders} o join ${contributors} c on c.id = o.contributor_id
      where c.cui = ${cui} and o.kind = 'VOLUNTARIO' and o.state = 'PAGADA'`),
  );
  const vol = new Map<number, { id: number; periods: string[]; salary: string | null; principal: string }>();
  for (const r of rows) {
    const v = vol.get(Number(r.id)) ?? { id: Number(r.id), periods: [], salary: r.salary, principal: r.principal };
    v.periods.push(r.period);
    vol.set(v.id, v);
  }
  // What was paid, spread over its months and shares with the shared allocation (domain
  // voluntaryMonthShares): they sum exactly to the order; a division that truncated lost cents.
  const voluntary = new Map<string, VoluntaryMonth>();
  for (const v of vol.values()) {
    const months = await Promise.all(
      [...v.periods].sort().map(async (period) => {
        const r = await settingsAt(db, `${period}-01`);
        return {
          period,
          employeeRate: r.values['contributions.employeeRate'],
          employerRate: r.values['contributions.employerRate'],
        };
      }),
    );
    for (const m of voluntaryMonthShares(decimalToCents(v.principal), months)) {
      voluntary.set(m.period, {
        orderId: v.id,
        salary: v.salary,
        amount: centsToDecimal(m.amount),
        employeeAmount: centsToDecimal(m.employee),
        employerAmount: centsToDecimal(m.employer),
      });
    }
  }
  return { planilla: new Set(planillaPaid.map((r) => Number(r.id))), voluntary };
}

export const paidHistoryStates = historyPlanillaStates;

// ─── Statistics ─────────────────────────────────────────────────────────────────────────────────────

/** Collection per month against what was declared, and overdue balance by region (principal unpaid). */
export async function collectionStats(ctx: RequestContext, q: { from?: string; to?: string }): Promise<CollectionStats> {
  const today = guatemalaToday();
  const to = q.to ?? periodOf(today);
  const from = q.from ?? `${Number(to.slice(0, 4)) - 1}${to.slice(4)}`;
  const scope = ctx.inScope(sql`entity_id`);
  const where = scope ? sql`and ${scope}` : sql``;
  const months = rowsOf<{ period: string; declared: string; ordered: string; collected: string }>(
    await ctx.db.execute(sql`
      with d as (select period, sum(total_employee + total_employer) as declared from ${planillas}
                 where state in ('APROBADA', 'PAGADA') and period between ${from} and ${to} ${where} group by period),
           o as (select period, coalesce(sum(principal) filter (where kind <> 'CONVENIO'), 0) as ordered, sum(principal_paid + interest_paid) as collected from ${paymentOrders}
                 where state <> 'ANULADA' and period between ${from} and ${to} ${where} group by period)
      select coalesce(d.period, o.period) as period, coalesce(d.declared, 0)::text as declared,
        coalesce(o.ordered, 0)::text as ordered, coalesce(o.collected, 0)::text as collected
      from d full join o on o.period = d.period order by 1`),
  );
  const regions = rowsOf<{ region_id: number | null; name: string | null; n: number; balance: string }>(
    await ctx.db.execute(sql`
      select r.id as region_id, r.name, count(*)::int as n, sum(o.principal - o.principal_paid)::text as balance
      from ${paymentOrders} o
        left join lateral (select region_id from entity_regions er where er.entity_id = o.entity_id order by region_id limit 1) er on true
        left join regions r on r.id = er.region_id
      where o.state = 'EMITIDA' and o.due_date < ${today}::date ${scope ? sql`and ${ctx.inScope(sql`o.entity_id`)}` : sql``}
      group by r.id, r.name order by sum(o.principal - o.principal_paid) desc`),
  );
  const d = (s: string) => centsToDecimal(decimalToCents(s));
  return {
    asOf: today,
    months: months.map((m) => ({ period: m.period, declared: d(m.declared), ordered: d(m.ordered), collected: d(m.collected) })),
    overdueByRegion: regions.map((r) => ({
      regionId: r.region_id === null ? null : Number(r.region_id),
      regionName: r.name ?? 'Sin región',
      orders: Number(r.n),
      balance: d(r.balance),
    })),
  };
}
