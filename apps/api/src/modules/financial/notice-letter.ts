import {
  type Cents,
  decimalToCents,
  formatAmount,
  formatDay,
  formatPaymentReference,
  formatPeriod,
  formatRate,
  type OrderKind,
  orderKindLabels,
} from '@aporta/domain';
import { asc, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { banks } from '../../db/schema/index.ts';
import type { ReportDefinition } from '../../platform/pdf.ts';
import { interestRates, orderAsOfSql } from '../payments/orders.ts';
import { settingsAt } from '../settings/service.ts';

/**
 * The arrears notice letter (issue 29): an entity's debt as of a day, order by order, with principal
 * and interest (the arrears ranking's own definition, `orderAsOfSql`: the same orders and amounts the
 * ranking adds up for that day), how to pay, the payment agreement it may sign instead, and the
 * signature block. A document of the PDF facility (layout `document`), in Spanish like every document.
 */

export interface DebtLine {
  orderId: number;
  kind: OrderKind;
  period: string;
  reference: string;
  dueDate: string;
  principal: Cents;
  interest: Cents;
  balance: Cents;
}

/**
 * The entity's overdue orders as they stood on `asOf` with what each owed then (unpaid principal and
 * interest), oldest first — exactly the rows the arrears ranking adds up for the entity on that day.
 */
export async function debtByOrder(db: Db, entityId: number, asOf: string): Promise<{ lines: DebtLine[]; total: Cents }> {
  const rates = await interestRates(db);
  const x = orderAsOfSql(db, rates, asOf);
  const rows = rowsOf<{
    id: number;
    kind: OrderKind;
    period: string;
    reference: string;
    due_date: string;
    interest: string;
    balance: string;
  }>(
    await db.execute(sql`
      select o.id, o.kind, o.period, o.reference, o.due_date::text as due_date,
        (${x.interestDue})::text as interest, (${x.balance})::text as balance
      from payment_orders o left join lateral ${x.history} on ${x.joinOn}
      where o.entity_id = ${entityId} and ${x.issued} and ${x.state} = 'EMITIDA' and o.due_date < ${asOf}::date
      order by o.due_date, o.id`),
  );
  const lines = rows.map((r) => {
    const balance = decimalToCents(r.balance);
    const interest = decimalToCents(r.interest);
    return {
      orderId: Number(r.id),
      kind: r.kind,
      period: r.period,
      reference: r.reference,
      dueDate: r.due_date,
      principal: balance - interest,
      interest,
      balance,
    };
  });
  return { lines, total: lines.reduce((s, l) => s + l.balance, 0n) };
}

/** What the letter says about paying: the banks that receive payments, and the agreement's terms on `day`. */
export async function paymentTerms(db: Db, day: string) {
  const bankNames = await db.select({ name: banks.name }).from(banks).where(eq(banks.isActive, true)).orderBy(asc(banks.name));
  const s = (await settingsAt(db, day)).values;
  return {
    banks: bankNames.map((b) => b.name),
    downPaymentRate: formatRate(s['agreements.downPaymentRate']),
    maxInstalments: s['agreements.maxInstalments'],
  };
}

const q = (c: Cents) => `Q ${formatAmount(c)}`;

export function noticeLetter(input: {
  entity: { name: string; code: string; address: string | null };
  asOf: string;
  issuedOn: string;
  noticeId: number;
  debt: { lines: DebtLine[]; total: Cents };
  terms: Awaited<ReturnType<typeof paymentTerms>>;
}): ReportDefinition {
  const { entity, asOf, debt, terms } = input;
  const principal = debt.lines.reduce((s, l) => s + l.principal, 0n);
  const interest = debt.lines.reduce((s, l) => s + l.interest, 0n);
  const n = debt.lines.length;
  const orders = n === 1 ? 'una orden de pago vencida' : `${n.toLocaleString('en-US')} órdenes de pago vencidas`;
  const where = terms.banks.length ? `en cualquiera de estos bancos: ${terms.banks.join(', ')}` : 'en los bancos del sistema';
  return {
    kind: 'arrears-notice',
    layout: 'document',
    title: 'Aviso de cobro por mora',
    filters: [],
    fields: [
      { label: 'Entidad', value: `${entity.name} (${entity.code})` },
      ...(entity.address ? [{ label: 'Dirección', value: entity.address }] : []),
      { label: 'Aviso', value: noticeNumber(input.noticeId) },
      { label: 'Fecha del aviso', value: formatDay(input.issuedOn) },
      { label: 'Deuda al', value: formatDay(asOf) },
      { label: 'Monto adeudado', value: q(debt.total) },
    ],
    tables: [
      {
        caption: `Órdenes vencidas al ${formatDay(asOf)}`,
        headers: ['Orden', 'Período', 'Referencia de pago', 'Venció', 'Capital', 'Intereses', 'Total'],
        rows: debt.lines.map((l) => [
          orderKindLabels[l.kind] ?? l.kind,
          formatPeriod(l.period),
          formatPaymentReference(l.reference),
          formatDay(l.dueDate),
          { cents: l.principal },
          { cents: l.interest },
          { cents: l.balance },
        ]),
        totals: ['Total', '', '', '', { cents: principal }, { cents: interest }, { cents: debt.total }],
        numeric: [4, 5, 6],
      },
    ],
    sections: [
      {
        heading: `Señores de ${entity.name}:`,
        paragraphs: [
          `Le informamos que al ${formatDay(asOf)} su entidad adeuda a esta institución ${q(debt.total)} por ${orders}, detalladas arriba: ${q(principal)} de capital y ${q(interest)} de intereses por mora. Le requerimos ponerse al día a la brevedad.`,
        ],
      },
      {
        heading: 'Cómo pagar',
        paragraphs: [
          `Cada orden se paga con su referencia de pago ${where}, o en las cajas de la institución. Los intereses por mora siguen corriendo hasta el día del pago y se calculan a esa fecha.`,
        ],
      },
      {
        heading: 'Convenio de pago',
        paragraphs: [
          `Si la entidad no puede pagar la totalidad, puede suscribir un convenio de pago: un enganche de al menos ${terms.downPaymentRate} de la deuda y el resto en hasta ${terms.maxInstalments.toLocaleString('en-US')} cuotas mensuales. Para suscribirlo, comuníquese con la Sección de Cobros de la institución.`,
          'Si ya realizó el pago, le rogamos hacer caso omiso de este aviso.',
          'Atentamente,',
        ],
        signatures: { lines: [{ caption: 'Sección de Cobros' }], seal: 'Sello de la institución' },
      },
    ],
  };
}

/** The notice's number as printed and listed: `AM-000123`. */
export const noticeNumber = (id: number) => `AM-${String(id).padStart(6, '0')}`;
