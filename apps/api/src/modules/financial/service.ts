import {
  centsToDecimal,
  decimalToCents,
  formatAmount,
  formatDay,
  formatPeriod,
  guatemalaToday,
  orderStateLabels,
  periodOf,
  type Statement,
  solvencyOf,
} from '@aporta/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { paymentAgreements, planillas } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import type { ReportDefinition } from '../../platform/pdf.ts';
import { scopedEntityOr404 } from '../../platform/scope.ts';
import { getAgreement } from '../agreements/queries.ts';
import { interestRates, orderAsOfSql } from '../payments/orders.ts';

/**
 * The financial module (issue 14): account statement, arrears ranking, solvency certificates and their
 * public verification, collection dashboard. Everything is one set-based statement per part, scoped in SQL.
 * This file: an entity's account statement and the solvency facts it shares with the certificates
 * (certificates.ts); the arrears ranking and the dashboard are in reports.ts.
 */

/** A numeric read as text, written as the API's decimal (null as 0). */
export const d = (s: string | null | undefined) => centsToDecimal(decimalToCents(s ?? '0'));
const money = (s: string) => ({ cents: decimalToCents(s) });

// ─── Solvency facts ─────────────────────────────────────────────────────────────────────────────────

/** Overdue orders of the entity on `asOf` (any kind: an overdue instalment counts) and its agreement in force. */
export async function solvencyFacts(db: Db, entityId: number, asOf: string) {
  const rates = await interestRates(db);
  const x = orderAsOfSql(db, rates, asOf);
  const [r] = rowsOf<{ n: number; amount: string }>(
    await db.execute(sql`
      select count(*)::int as n, coalesce(sum(${x.balance}), 0)::text as amount
      from payment_orders o left join lateral ${x.history} on ${x.joinOn}
      where o.entity_id = ${entityId} and ${x.issued} and ${x.state} = 'EMITIDA' and o.due_date < ${asOf}::date`),
  );
  const [cur] = await db
    .select({ number: paymentAgreements.number })
    .from(paymentAgreements)
    .where(and(eq(paymentAgreements.entityId, entityId), eq(paymentAgreements.state, 'VIGENTE')));
  return solvencyOf({
    overdueOrders: Number(r.n),
    overdueAmount: decimalToCents(r.amount),
    currentAgreement: cur?.number ?? null,
  });
}

// ─── Statement ──────────────────────────────────────────────────────────────────────────────────────

/**
 * An entity's account statement as of a date: per period declared (approved planillas), ordered
 * (contribution orders; instalments are not new debt), paid (payments registered up to the date),
 * interest (paid up to the date plus due on it), what went into an agreement, and the balance; then its
 * agreements with their instalments, and whether it is "al día".
 */
export async function statement(ctx: RequestContext, input: { entityId: number; asOf?: string }): Promise<Statement> {
  const entity = await scopedEntityOr404(ctx, input.entityId);
  const asOf = input.asOf ?? guatemalaToday();
  const rates = await interestRates(ctx.db);
  // Every order as it stood on the date (orderAsOfSql): paid, interest and state from its history.
  const x = orderAsOfSql(ctx.db, rates, asOf);
  const rows = rowsOf<{
    period: string;
    declared: string;
    ordered: string;
    paid: string;
    interest: string;
    in_agreement: string;
    balance: string;
  }>(
    await ctx.db.execute(sql`
      with dcl as (
        select period, sum(total_employee + total_employer) as declared from ${planillas}
        where entity_id = ${entity.id} and state in ('APROBADA', 'PAGADA') and period <= ${periodOf(asOf)}
        group by period),
      ox as (
        select o.period, o.principal, ${x.state} as state, ${x.principalPaid} as principal_paid,
          ${x.interestPaid} as interest_paid, ${x.interestDue} as interest_due, ${x.balance} as balance
        from payment_orders o left join lateral ${x.history} on ${x.joinOn}
        where o.entity_id = ${entity.id} and o.kind <> 'CONVENIO' and ${x.issued}),
      ord as (
        select period, sum(principal) as ordered,
          sum(principal_paid + interest_paid) as paid,
          sum(interest_paid + interest_due) as interest,
          sum(case when state = 'CONVENIDA' then principal - principal_paid else 0 end) as in_agreement,
          sum(balance) as balance
        from ox where state <> 'ANULADA'
        group by period)
      select coalesce(dcl.period, ord.period) as period, coalesce(dcl.declared, 0)::text as declared,
        coalesce(ord.ordered, 0)::text as ordered, coalesce(ord.paid, 0)::text as paid,
        coalesce(ord.interest, 0)::text as interest, coalesce(ord.in_agreement, 0)::text as in_agreement,
        coalesce(ord.balance, 0)::text as balance
      from dcl full join ord on ord.period = dcl.period
      order by 1`),
  );
  const periods = rows.map((r) => ({
    period: r.period,
    declared: d(r.declared),
    ordered: d(r.ordered),
    paid: d(r.paid),
    interest: d(r.interest),
    inAgreement: d(r.in_agreement),
    balance: d(r.balance),
  }));
  const sum = (k: keyof (typeof periods)[number]) =>
    centsToDecimal(periods.reduce((s, p) => s + (k === 'period' ? 0n : decimalToCents(p[k])), 0n));
  const ags = await ctx.db
    .select({ id: paymentAgreements.id })
    .from(paymentAgreements)
    .where(and(eq(paymentAgreements.entityId, entity.id), sql`${paymentAgreements.agreementDate} <= ${asOf}::date`))
    .orderBy(desc(paymentAgreements.id));
  const agreements = [];
  for (const a of ags) {
    const full = await getAgreement(ctx, { id: a.id, asOf });
    agreements.push({
      id: full.id,
      number: full.number,
      state: full.state,
      agreementDate: full.agreementDate,
      debt: full.debt,
      paid: full.paid,
      balance: full.balance,
      instalments: full.instalments,
    });
  }
  const solvency = await solvencyFacts(ctx.db, entity.id, asOf);
  return {
    entityId: entity.id,
    entityName: entity.name,
    entityCode: entity.code,
    asOf,
    periods,
    totals: {
      declared: sum('declared'),
      ordered: sum('ordered'),
      paid: sum('paid'),
      interest: sum('interest'),
      inAgreement: sum('inAgreement'),
      balance: sum('balance'),
    },
    agreements,
    solvent: solvency.solvent,
    solvencyReason: solvency.reason.text,
  };
}

export function statementReport(s: Statement): ReportDefinition {
  return {
    kind: 'entity-statement',
    title: `Estado de cuenta · ${s.entityName}`,
    orientation: 'landscape',
    filters: [
      { label: 'Entidad', value: `${s.entityName} (${s.entityCode})` },
      { label: 'Al', value: formatDay(s.asOf) },
    ],
    tables: [
      {
        caption: 'Por período',
        headers: ['Período', 'Declarado', 'Ordenado', 'Pagado', 'Intereses', 'En convenio', 'Saldo'],
        rows: s.periods.map((p) => [
          formatPeriod(p.period),
          money(p.declared),
          money(p.ordered),
          money(p.paid),
          money(p.interest),
          money(p.inAgreement),
          money(p.balance),
        ]),
        totals: [
          'Total',
          money(s.totals.declared),
          money(s.totals.ordered),
          money(s.totals.paid),
          money(s.totals.interest),
          money(s.totals.inAgreement),
          money(s.totals.balance),
        ],
        numeric: [1, 2, 3, 4, 5, 6],
      },
      ...s.agreements.map((a) => ({
        caption: `Convenio ${a.number} (${formatDay(a.agreementDate)}) · deuda Q ${formatAmount(decimalToCents(a.debt))} · saldo Q ${formatAmount(decimalToCents(a.balance))}`,
        headers: ['Cuota', 'Vence', 'Monto', 'Pagado', 'Saldo', 'Estado'],
        rows: a.instalments.map((i) => [
          i.number === 0 ? 'Enganche' : String(i.number),
          formatDay(i.dueDate),
          money(i.amount),
          money(i.paid),
          money(i.balance),
          i.state === 'REEMPLAZADA' ? 'Reemplazada' : orderStateLabels[i.state],
        ]),
        numeric: [2, 3, 4],
      })),
    ],
    sections: [{ heading: 'Situación', paragraphs: [s.solvencyReason] }],
  };
}
