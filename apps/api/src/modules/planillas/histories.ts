// The overview of a period and the histories over time: a contributor's, an entity's, the employees declared.
import {
  AppError,
  type ContributionHistory,
  type ContributionShare,
  contributionGaps,
  decimalToCents,
  type EntityContributionHistory,
  guatemalaToday,
  historyPlanillaStates,
  type ListQuery,
  msg,
  type PlanillaEmployee,
  type PlanillaOverview,
  periodOf,
  previousPeriod,
} from '@aporta/domain';
import { and, count, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.ts';
import { contributors, municipalEntities, paymentOrders, planillaLines, planillas } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { likePattern, pageOf } from '../../platform/list.ts';
import { paidMonths } from '../payments/voluntary.ts';
import { money } from './queries.ts';

/** `/planilla`: the period by state, the entities in scope that have not declared (omisos), totals and a trend. */
export async function planillaOverview(ctx: RequestContext, input: { period?: string }): Promise<PlanillaOverview> {
  const period = input.period ?? previousPeriod(periodOf(guatemalaToday()));
  const scope = ctx.inScope(planillas.entityId);
  const byState = await ctx.db
    .select({ state: planillas.state, count: count() })
    .from(planillas)
    .where(and(eq(planillas.period, period), scope))
    .groupBy(planillas.state);
  const totalsOf = async (per: string) => {
    const [t] = await ctx.db
      .select({
        salary: sql<string>`coalesce(sum(${planillas.totalSalary}), 0)::text`,
        employee: sql<string>`coalesce(sum(${planillas.totalEmployee}), 0)::text`,
        employer: sql<string>`coalesce(sum(${planillas.totalEmployer}), 0)::text`,
      })
      .from(planillas)
      .where(and(eq(planillas.period, per), scope, sql`${planillas.state} not in ('ANULADA', 'RECHAZADA')`));
    const d = (s: string) => money(decimalToCents(s));
    return { salary: d(t.salary), employee: d(t.employee), employer: d(t.employer) };
  };
  const entityScope = ctx.inScope(municipalEntities.id);
  const omisosRows = await ctx.db
    .select({
      entityId: municipalEntities.id,
      code: municipalEntities.code,
      name: municipalEntities.name,
      lastPeriod: sql<
        string | null
      >`(select max(p.period) from ${planillas} p where p.entity_id = ${municipalEntities.id} and p.state not in ('ANULADA', 'RECHAZADA', 'BORRADOR'))`,
    })
    .from(municipalEntities)
    .where(
      and(
        eq(municipalEntities.isActive, true),
        entityScope,
        sql`not exists (select 1 from ${planillas} p where p.entity_id = ${municipalEntities.id} and p.period = ${period}
              and p.state not in ('ANULADA', 'RECHAZADA', 'BORRADOR'))`,
      ),
    )
    .orderBy(municipalEntities.name)
    .limit(200);
  const [{ inScope }] = await ctx.db
    .select({ inScope: count() })
    .from(municipalEntities)
    .where(and(eq(municipalEntities.isActive, true), entityScope));
  const trend = rowsOf<{ period: string; employee: string; employer: string; n: number }>(
    await ctx.db.execute(sql`
      select period, coalesce(sum(total_employee), 0)::text as employee, coalesce(sum(total_employer), 0)::text as employer, count(*)::int as n
      from ${planillas} where period > ${periodsBack(period, 12)} and period <= ${period}
        and state not in ('ANULADA', 'RECHAZADA') ${scope ? sql`and ${scope}` : sql``}
      group by period order by period`),
  );
  const d = (s: string) => money(decimalToCents(s));
  const declared = byState
    .filter((s) => !['ANULADA', 'RECHAZADA', 'BORRADOR'].includes(s.state))
    .reduce((a, s) => a + s.count, 0);
  return {
    period,
    byState: byState.map((s) => ({ state: s.state, count: s.count })),
    entitiesInScope: inScope,
    declared,
    totals: await totalsOf(period),
    previousTotals: await totalsOf(previousPeriod(period)),
    omisos: omisosRows.map((o) => ({ ...o, lastPeriod: o.lastPeriod ?? null })),
    trend: trend.map((t) => ({ period: t.period, employee: d(t.employee), employer: d(t.employer), count: Number(t.n) })),
  };
}

function periodsBack(period: string, n: number) {
  let p = period;
  for (let i = 0; i < n; i++) p = previousPeriod(p);
  return p;
}

/**
 * A contributor's contributions month by month (approved or paid planillas, every entity in the
 * caller's scope), with the gaps between the first and the last month. Paid is null until payments exist.
 */
export async function contributorHistory(
  ctx: RequestContext,
  input: { cui: string; from?: string; to?: string },
): Promise<ContributionHistory> {
  const rows = await ctx.db
    .select({
      period: planillaLines.period,
      entityId: planillaLines.entityId,
      entityName: municipalEntities.name,
      planillaId: planillaLines.planillaId,
      planillaType: planillas.type,
      planillaState: planillas.state,
      salary: planillaLines.salary,
      employee: planillaLines.employeeAmount,
      employer: planillaLines.employerAmount,
    })
    .from(planillaLines)
    .innerJoin(planillas, eq(planillas.id, planillaLines.planillaId))
    .innerJoin(municipalEntities, eq(municipalEntities.id, planillaLines.entityId))
    .where(
      and(
        eq(planillaLines.cui, input.cui),
        input.from ? sql`${planillaLines.period} >= ${input.from}` : undefined,
        input.to ? sql`${planillaLines.period} <= ${input.to}` : undefined,
        inArray(planillas.state, [...historyPlanillaStates]),
        ctx.inScope(planillaLines.entityId),
      ),
    )
    .orderBy(planillaLines.period, planillaLines.planillaId);
  const [c] = await ctx.db
    .select({
      id: contributors.id,
      firstName: contributors.firstName,
      firstSurname: contributors.firstSurname,
      secondName: contributors.secondName,
      secondSurname: contributors.secondSurname,
    })
    .from(contributors)
    .where(eq(contributors.cui, input.cui));
  // Paid: the planilla's orders are paid (planilla PAGADA); voluntary months enter once their order is paid.
  const paid = await paidMonths(ctx.db, input.cui);
  const inSpan = (p: string) => (!input.from || p >= input.from) && (!input.to || p <= input.to);
  const voluntary = ctx.scope === 'ALL' ? [...paid.voluntary].filter(([p]) => inSpan(p)) : [];
  // Each share on its own (issue 28): the planilla's LABORAL order pays the employee share, its PATRONAL
  // order the employer share; a voluntary order pays both shares of its months.
  const orders = await shareOrders(
    ctx,
    [...new Set(rows.map((r) => r.planillaId))],
    [...new Set(voluntary.map(([, v]) => v.orderId))],
  );
  const shareOf = (planillaId: number, planillaPaid: boolean, kind: 'LABORAL' | 'PATRONAL'): ContributionShare => {
    const order = orders.planilla.get(`${planillaId}:${kind}`) ?? null;
    return { paid: planillaPaid || order?.state === 'PAGADA', order };
  };
  const voluntaryMonths = await Promise.all(
    voluntary.map(async ([period, v]) => {
      // What the order paid for the month (its shares sum exactly to the order, voluntaryMonthShares).
      const salary = v.salary ? decimalToCents(v.salary) : 0n;
      return {
        period,
        entityId: null,
        entityName: 'Pago voluntario',
        planillaId: null,
        planillaType: null,
        salary: v.salary ? money(salary) : null,
        employeeAmount: money(decimalToCents(v.employeeAmount)),
        employerAmount: money(decimalToCents(v.employerAmount)),
        paid: true,
        employeeShare: { paid: true, order: orders.voluntary.get(v.orderId) ?? null },
        employerShare: { paid: true, order: orders.voluntary.get(v.orderId) ?? null },
        gap: false,
      };
    }),
  );
  const gaps = contributionGaps(
    [...rows.map((r) => r.period), ...voluntary.map(([p]) => p)],
    input.from && input.to ? { from: input.from, to: input.to } : undefined,
  );
  const months = [
    ...rows.map((r) => {
      const planillaPaid = paid.planilla.has(r.planillaId) || r.planillaState === 'PAGADA';
      const employeeShare = shareOf(r.planillaId, planillaPaid, 'LABORAL');
      const employerShare = shareOf(r.planillaId, planillaPaid, 'PATRONAL');
      return {
        period: r.period,
        entityId: r.entityId,
        entityName: r.entityName,
        planillaId: r.planillaId,
        planillaType: r.planillaType,
        salary: r.salary == null ? null : money(r.salary),
        employeeAmount: money(r.employee),
        employerAmount: money(r.employer),
        paid: employeeShare.paid && employerShare.paid,
        employeeShare,
        employerShare,
        gap: false,
      };
    }),
    ...voluntaryMonths,
    ...gaps.map((g) => ({
      period: g,
      entityId: null,
      entityName: null,
      planillaId: null,
      planillaType: null,
      salary: null,
      employeeAmount: null,
      employerAmount: null,
      paid: null,
      employeeShare: null,
      employerShare: null,
      gap: true,
    })),
  ].sort((a, b) => a.period.localeCompare(b.period));
  return {
    cui: input.cui,
    contributorId: c?.id ?? null,
    fullName: c ? [c.firstName, c.secondName, c.firstSurname, c.secondSurname].filter(Boolean).join(' ') : null,
    months,
    gaps,
    totals: {
      employee: money(rows.reduce((s, r) => s + r.employee, 0n)),
      employer: money(rows.reduce((s, r) => s + r.employer, 0n)),
    },
  };
}

type ShareOrder = NonNullable<ContributionShare['order']>;

/**
 * The live (not void) payment orders that charge a contributor's months: each planilla's LABORAL and
 * PATRONAL order (keyed `planillaId:kind`) and the voluntary orders by id. Two statements at most.
 */
async function shareOrders(
  ctx: RequestContext,
  planillaIds: number[],
  voluntaryIds: number[],
): Promise<{ planilla: Map<string, ShareOrder>; voluntary: Map<number, ShareOrder> }> {
  const planilla = new Map<string, ShareOrder>();
  const voluntary = new Map<number, ShareOrder>();
  const columns = {
    id: paymentOrders.id,
    planillaId: paymentOrders.planillaId,
    kind: paymentOrders.kind,
    reference: paymentOrders.reference,
    state: paymentOrders.state,
  };
  const toOrder = (o: { id: number; reference: string; state: string }): ShareOrder | null =>
    o.state === 'EMITIDA' || o.state === 'PAGADA' || o.state === 'CONVENIDA'
      ? { id: o.id, reference: o.reference, state: o.state }
      : null;
  if (planillaIds.length) {
    const rows = await ctx.db
      .select(columns)
      .from(paymentOrders)
      .where(and(inArray(paymentOrders.planillaId, planillaIds), ne(paymentOrders.state, 'ANULADA')));
    for (const o of rows) {
      const order = toOrder(o);
      if (o.planillaId != null && order && (o.kind === 'LABORAL' || o.kind === 'PATRONAL')) {
        planilla.set(`${o.planillaId}:${o.kind}`, order);
      }
    }
  }
  if (voluntaryIds.length) {
    const rows = await ctx.db.select(columns).from(paymentOrders).where(inArray(paymentOrders.id, voluntaryIds));
    for (const o of rows) {
      const order = toOrder(o);
      if (order) voluntary.set(o.id, order);
    }
  }
  return { planilla, voluntary };
}

/** An entity's declared months (approved or paid planillas): employees, salaries, amounts, and the gaps. */
export async function entityHistory(
  ctx: RequestContext,
  input: { entityId: number; from?: string; to?: string },
): Promise<EntityContributionHistory> {
  const [ent] = await ctx.db
    .select({ id: municipalEntities.id, name: municipalEntities.name })
    .from(municipalEntities)
    .where(and(eq(municipalEntities.id, input.entityId), ctx.inScope(municipalEntities.id)));
  if (!ent) throw new AppError('NOT_FOUND', msg('platform.entityNotFound'));
  const rows = rowsOf<{
    period: string;
    n: number;
    employees: number;
    salary: string;
    employee: string;
    employer: string;
    paid: boolean;
    employee_paid: boolean;
    employer_paid: boolean;
  }>(
    await ctx.db.execute(sql`
      select period, count(*)::int as n, sum(line_count)::int as employees, sum(total_salary)::text as salary,
        sum(total_employee)::text as employee, sum(total_employer)::text as employer, bool_and(state = 'PAGADA') as paid,
        bool_and(state = 'PAGADA' or exists (select 1 from ${paymentOrders} o where o.planilla_id = ${planillas}.id
          and o.kind = 'LABORAL' and o.state = 'PAGADA')) as employee_paid,
        bool_and(state = 'PAGADA' or exists (select 1 from ${paymentOrders} o where o.planilla_id = ${planillas}.id
          and o.kind = 'PATRONAL' and o.state = 'PAGADA')) as employer_paid
      from ${planillas} where entity_id = ${input.entityId} and state in ('APROBADA', 'PAGADA')
        ${input.from ? sql`and period >= ${input.from}` : sql``} ${input.to ? sql`and period <= ${input.to}` : sql``}
      group by period order by period`),
  );
  const d = (s: string) => money(decimalToCents(s));
  const gaps = contributionGaps(
    rows.map((r) => r.period),
    input.from && input.to ? { from: input.from, to: input.to } : undefined,
  );
  const months = [
    ...rows.map((r) => ({
      period: r.period,
      planillas: Number(r.n),
      employees: Number(r.employees),
      salary: d(r.salary),
      employeeAmount: d(r.employee),
      employerAmount: d(r.employer),
      paid: Boolean(r.paid),
      employeePaid: Boolean(r.employee_paid),
      employerPaid: Boolean(r.employer_paid),
      gap: false,
    })),
    ...gaps.map((g) => ({
      period: g,
      planillas: 0,
      employees: 0,
      salary: '0.00',
      employeeAmount: '0.00',
      employerAmount: '0.00',
      paid: null,
      employeePaid: null,
      employerPaid: null,
      gap: true,
    })),
  ].sort((a, b) => a.period.localeCompare(b.period));
  return { entityId: ent.id, entityName: ent.name, months, gaps };
}

/** The employees declared by the entities in scope (or one entity, or one CUI across entities), over time. */
export async function findPlanillaEmployees(
  ctx: RequestContext,
  q: ListQuery & { entityId?: number; cui?: string },
): Promise<{ items: PlanillaEmployee[]; total: number }> {
  const where: SQL[] = [sql`p.state not in ('ANULADA', 'RECHAZADA')`];
  const scope = ctx.inScope(sql`l.entity_id`);
  if (scope) where.push(scope);
  if (q.entityId) where.push(sql`l.entity_id = ${q.entityId}`);
  if (q.cui) where.push(sql`l.cui = ${q.cui}`);
  if (q.q) {
    const digits = q.q.replace(/[\s-]/g, '');
    where.push(/^\d+$/.test(digits) ? sql`l.cui like ${`${digits}%`}` : sql`l.full_name ilike ${likePattern(q.q)}`);
  }
  const cond = sql.join(where, sql` and `);
  const { limit, offset } = pageOf(q);
  const rows = rowsOf<{
    cui: string;
    full_name: string;
    first: string;
    last: string;
    months: number;
    last_salary: string | null;
    entity_id: number;
    entity_name: string;
  }>(
    await ctx.db.execute(sql`
      select l.cui, l.entity_id, e.name as entity_name, min(l.period) as first, max(l.period) as last, count(distinct l.period)::int as months,
        (array_agg(l.full_name order by l.period desc))[1] as full_name,
        (array_agg(l.salary::text order by l.period desc))[1] as last_salary
      from ${planillaLines} l join ${planillas} p on p.id = l.planilla_id join ${municipalEntities} e on e.id = l.entity_id
      where ${cond}
      group by l.cui, l.entity_id, e.name
      order by max(l.period) desc, l.cui
      limit ${limit} offset ${offset}`),
  );
  const [{ n }] = rowsOf<{ n: number }>(
    await ctx.db.execute(sql`
      select count(*)::int as n from (select 1 from ${planillaLines} l join ${planillas} p on p.id = l.planilla_id
      where ${cond} group by l.cui, l.entity_id) x`),
  );
  return {
    items: rows.map((r) => ({
      cui: r.cui,
      fullName: r.full_name,
      firstPeriod: r.first,
      lastPeriod: r.last,
      months: Number(r.months),
      lastSalary: r.last_salary == null ? null : money(decimalToCents(r.last_salary)),
      entityId: Number(r.entity_id),
      entityName: r.entity_name,
    })),
    total: Number(n),
  };
}
