import {
  AppError,
  type Arrears,
  type ArrearsQuery,
  type ArrearsRow,
  addDays,
  centsToDecimal,
  type Dashboard,
  decimalToCents,
  formatAmount,
  formatDay,
  formatPeriod,
  guatemalaToday,
  periodOf,
  periodsBetween,
  type SolvencyCertificate,
  type SolvencyStatus,
  type SolvencyVerification,
  type Statement,
  solvencyOf,
} from '@aporta/domain';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { paymentAgreements, planillas, solvencyCertificates } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import {
  formatVerificationCode,
  newVerificationCode,
  normalizeVerificationCode,
  type ReportDefinition,
} from '../../platform/pdf.ts';
import { scopedEntityOr404 } from '../../platform/scope.ts';
import { getAgreement } from '../agreements/queries.ts';
import { interestRates, orderAsOfSql } from '../payments/orders.ts';
import { settingsAt } from '../settings/service.ts';

/**
 * The financial module (issue 14): account statement, arrears ranking, solvency certificates and their
 * public verification, collection dashboard. Everything is one set-based statement per part, scoped in SQL.
 */

const d = (s: string | null | undefined) => centsToDecimal(decimalToCents(s ?? '0'));
const money = (s: string) => ({ cents: decimalToCents(s) });

// ─── Solvency facts ─────────────────────────────────────────────────────────────────────────────────

/** Overdue orders of the entity on `asOf` (any kind: an overdue instalment counts) and its agreement in force. */
async function solvencyFacts(db: Db, entityId: number, asOf: string) {
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
    overdueAmount: formatAmount(decimalToCents(r.amount)),
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
    solvencyReason: solvency.reason,
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
          i.state,
        ]),
        numeric: [2, 3, 4],
      })),
    ],
    sections: [{ heading: 'Situación', paragraphs: [s.solvencyReason] }],
  };
}

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

// ─── Solvency certificates ──────────────────────────────────────────────────────────────────────────

type CertificateRow = typeof solvencyCertificates.$inferSelect;
type CertificateState = { status: SolvencyStatus; statusReason: string | null };

/**
 * Whether what each certificate rests on still holds, read now (docs/decisions.md, "A certificate
 * verifies against what it rests on"): the agreement in force when it was issued (the entity's one
 * VIGENTE agreement of that day) later declared in default or annulled; or orders that existed and were
 * settled when it was issued — due before the issue date — owed again (a payment reversed, an agreement
 * undone). One statement for the whole list. The reason of each certificate that no longer holds.
 */
async function voidReasons(db: Db, certs: CertificateRow[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (!certs.length) return out;
  const ids = certs.map((c) => c.id);
  const rows = rowsOf<{
    id: number;
    issued_on: string;
    agreement_number: string | null;
    agreement_state: string | null;
    agreement_ended: string | null;
    reopened: number;
  }>(
    await db.execute(sql`
      select c.id, c.issued_on::text as issued_on, a.number as agreement_number, a.state as agreement_state,
             a.ended::text as agreement_ended,
             (select count(*)::int from payment_orders o
               where o.entity_id = c.entity_id and o.state = 'EMITIDA' and o.due_date < c.issued_on
                 and o.created_at <= c.created_at) as reopened
        from solvency_certificates c
        left join lateral (
          select pa.number, pa.state,
                 coalesce(pa.defaulted_on, (pa.voided_at at time zone 'America/Guatemala')::date) as ended
            from payment_agreements pa
           where pa.entity_id = c.entity_id and pa.agreement_date <= c.issued_on
             and ((pa.state = 'INCUMPLIDO' and pa.defaulted_on >= c.issued_on)
               or (pa.state = 'ANULADO' and (pa.voided_at at time zone 'America/Guatemala')::date >= c.issued_on))
           order by pa.id desc
           limit 1
        ) a on true
       where c.id in (${sql.join(
         ids.map((id) => sql`${id}`),
         sql`, `,
       )})`),
  );
  for (const r of rows) {
    if (r.agreement_number) {
      const what = r.agreement_state === 'INCUMPLIDO' ? 'fue declarado incumplido' : 'fue anulado';
      const when = r.agreement_ended ? ` el ${formatDay(r.agreement_ended)}` : '';
      out.set(Number(r.id), `El convenio de pago ${r.agreement_number} en que se basa ${what}${when}.`);
    } else if (Number(r.reopened) > 0) {
      const n = Number(r.reopened);
      out.set(
        Number(r.id),
        `Se basa en pagos que ya no están en firme: ${n === 1 ? 'una orden vencida' : `${n} órdenes vencidas`} antes del ${formatDay(r.issued_on)} ${n === 1 ? 'vuelve a estar pendiente' : 'vuelven a estar pendientes'} de pago.`,
      );
    }
  }
  return out;
}

function certState(c: CertificateRow, today: string, voided: Map<number, string>): CertificateState {
  if (c.revokedAt) return { status: 'REVOCADA', statusReason: 'La institución revocó la constancia.' };
  const reason = voided.get(c.id);
  if (reason) return { status: 'SIN_EFECTO', statusReason: reason };
  if (c.validUntil < today) return { status: 'VENCIDA', statusReason: null };
  return { status: 'VIGENTE', statusReason: null };
}

async function toCertificates(db: Db, rows: CertificateRow[]): Promise<SolvencyCertificate[]> {
  const today = guatemalaToday();
  const voided = await voidReasons(db, rows);
  return rows.map((r) => toCertificate(r, certState(r, today, voided)));
}

function toCertificate(c: CertificateRow, state: CertificateState): SolvencyCertificate {
  return {
    id: c.id,
    code: formatVerificationCode(c.code),
    entityId: c.entityId,
    entityName: c.entityName,
    entityCode: c.entityCode,
    issuedOn: c.issuedOn,
    validUntil: c.validUntil,
    basis: c.basis,
    ...state,
  };
}

/** Issues a certificate to an entity that is "al día" today; refused (409) with the reason otherwise. */
export async function issueCertificate(ctx: RequestContext, input: { entityId: number }): Promise<SolvencyCertificate> {
  const entity = await scopedEntityOr404(ctx, input.entityId);
  const today = guatemalaToday();
  const solvency = await solvencyFacts(ctx.db, entity.id, today);
  if (!solvency.solvent) throw new AppError('CONFLICT', solvency.reason);
  const s = await settingsAt(ctx.db, today);
  const row = await ctx.db.transaction(async (tx) => {
    const [c] = await tx
      .insert(solvencyCertificates)
      .values({
        code: newVerificationCode(),
        entityId: entity.id,
        entityName: entity.name,
        entityCode: entity.code,
        issuedOn: today,
        validUntil: addDays(today, s.values['agreements.solvencyValidityDays']),
        basis: solvency.reason,
        createdBy: ctx.actor.id,
      })
      .returning();
    await ctx.audit(
      {
        action: 'CREATE',
        entityType: 'solvency-certificate',
        entityId: c.id,
        after: { entidad: entity.name, vigenteHasta: c.validUntil, motivo: solvency.reason },
        scopeEntityId: entity.id,
      },
      tx,
    );
    return c;
  });
  return toCertificate(row, { status: 'VIGENTE', statusReason: null });
}

export async function findCertificates(ctx: RequestContext, q: { entityId?: number }): Promise<{ items: SolvencyCertificate[] }> {
  const rows = await ctx.db
    .select()
    .from(solvencyCertificates)
    .where(
      and(ctx.inScope(solvencyCertificates.entityId), q.entityId ? eq(solvencyCertificates.entityId, q.entityId) : undefined),
    )
    .orderBy(desc(solvencyCertificates.id))
    .limit(200);
  return { items: await toCertificates(ctx.db, rows) };
}

export async function getCertificate(ctx: RequestContext, input: { id: number }): Promise<SolvencyCertificate> {
  const [row] = await ctx.db
    .select()
    .from(solvencyCertificates)
    .where(and(eq(solvencyCertificates.id, input.id), ctx.inScope(solvencyCertificates.entityId)));
  if (!row) throw new AppError('NOT_FOUND', 'La constancia no existe o no está dentro de su alcance.');
  return (await toCertificates(ctx.db, [row]))[0];
}

/**
 * Public: whether a code belongs to a certificate and whether it is still valid, computed now from what
 * it rests on (`voidReasons`). A forged code answers 404 saying only that; a genuine one tells what the
 * certificate itself prints (entity, dates), its status and, when it no longer holds, why.
 */
export async function verifyCertificate(db: Db, input: { code: string }): Promise<SolvencyVerification> {
  const unknown = new AppError('NOT_FOUND', 'No existe ninguna constancia de solvencia con ese código.');
  const code = normalizeVerificationCode(input.code);
  if (!code) throw unknown;
  const [c] = await db.select().from(solvencyCertificates).where(eq(solvencyCertificates.code, code));
  if (!c) throw unknown;
  const state = certState(c, guatemalaToday(), await voidReasons(db, [c]));
  return {
    code: formatVerificationCode(c.code),
    entityName: c.entityName,
    entityCode: c.entityCode,
    issuedOn: c.issuedOn,
    validUntil: c.validUntil,
    ...state,
  };
}

export function certificateReport(c: SolvencyCertificate, verifyUrl: string): ReportDefinition {
  return {
    kind: 'solvency-certificate',
    title: 'Constancia de solvencia',
    filters: [
      { label: 'Entidad', value: `${c.entityName} (${c.entityCode})` },
      { label: 'Emitida', value: formatDay(c.issuedOn) },
    ],
    tables: [],
    sections: [
      {
        heading: `Código de la constancia: ${c.code}`,
        qr: { value: verifyUrl, caption: `Verifique en ${verifyUrl}` },
        paragraphs: [
          `Se hace constar que ${c.entityName} (${c.entityCode}) se encuentra al día en el pago de sus cuotas al ${formatDay(c.issuedOn)}.`,
          c.basis,
          `Esta constancia es válida hasta el ${formatDay(c.validUntil)}. Su autenticidad y vigencia se verifican con el código anterior en la página de verificación de constancias.`,
        ],
      },
    ],
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
