/**
 * Orders' money and issuing: the set-based interest SQL (an order as of any date, its balance), issuing
 * orders with their reference and due date, locking them for a payment, and the planilla state they settle.
 * Orders as the screens read them are in order-views.ts.
 */
import {
  type Cents,
  centsToDecimal,
  type DueBasis,
  guatemalaToday,
  type OrderKind,
  orderDueDate,
  paymentReference,
  planillaOrderDue,
  type RateFrom,
} from '@aporta/domain';
import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { paymentAllocations, paymentOrders, payments, planillas, settingValues } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
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
  /** Why it falls due on `dueDate` (default LEGAL). */
  dueBasis?: DueBasis;
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
      dueBasis: o.dueBasis ?? 'LEGAL',
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
      after: {
        tipo: o.kind,
        periodo: o.period,
        referencia: reference,
        capital: centsToDecimal(o.principal),
        vence: dueDate,
        ...(o.dueBasis === 'AFTER_REVIEW' ? { venceTrasRevision: true } : {}),
      },
      scopeEntityId: o.entityId ?? null,
    },
    tx,
  );
  return row;
}

/**
 * Issues the two orders of an approved planilla (employee and employer contributions), in the
 * approval's transaction. A share of zero issues no order. Called by the planillas module on approval.
 * Their due date is `planillaOrderDue` with the settings in force on the approval day (today): the legal
 * date, or — a planilla last submitted by the legal date and approved after it — N business days after
 * the approval (DOMAIN "Interest, further"). Answers the orders issued (the caller tells the entity). `submittedAt` is the latest submission (a planilla returned
 * for corrections counts from when it was sent again); null: never submitted here, the legal date.
 */
export async function issuePlanillaOrders(
  ctx: RequestContext,
  tx: Db,
  p: { id: number; entityId: number; period: string; totalEmployee: Cents; totalEmployer: Cents; submittedAt: Date | null },
): Promise<(typeof paymentOrders.$inferSelect)[]> {
  const approvedOn = guatemalaToday();
  const s = await settingsAt(tx, approvedOn);
  const due = planillaOrderDue({
    period: p.period,
    submittedOn: p.submittedAt ? guatemalaToday(p.submittedAt) : null,
    approvedOn,
    dueDay: s.values['paymentOrders.dueDay'],
    businessDaysAfterApproval: s.values['paymentOrders.businessDaysAfterLateApproval'],
    calendar: s.values['calendar.holidays'],
  });
  const issued: (typeof paymentOrders.$inferSelect)[] = [];
  for (const [kind, amount] of [
    ['LABORAL', p.totalEmployee],
    ['PATRONAL', p.totalEmployer],
  ] as const) {
    if (amount <= 0n) continue;
    issued.push(
      await insertOrder(ctx, tx, {
        kind,
        entityId: p.entityId,
        planillaId: p.id,
        period: p.period,
        principal: amount,
        dueDate: due.dueDate,
        dueBasis: due.basis,
        issueDate: approvedOn,
      }),
    );
  }
  return issued;
}

/** Orders by id for a payment (locked, in id order so concurrent payments never deadlock). */
export async function lockOrders(tx: Db, ids: number[]) {
  return tx.select().from(paymentOrders).where(inArray(paymentOrders.id, ids)).orderBy(asc(paymentOrders.id)).for('update');
}

export const orderPlanillaStateSql = (planillaId: number) => sql`
  update ${planillas} p set state = case
      when not exists (select 1 from ${paymentOrders} x where x.planilla_id = p.id and x.state = 'EMITIDA')
        and exists (select 1 from ${paymentOrders} x where x.planilla_id = p.id and x.state = 'PAGADA') then 'PAGADA'
      else 'APROBADA' end,
    updated_at = now()
  where p.id = ${planillaId} and p.state in ('APROBADA', 'PAGADA')
  returning p.id, p.state, p.entity_id`;
