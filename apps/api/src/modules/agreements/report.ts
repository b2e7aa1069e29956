// The agreement's PDF for signature.
import {
  type Agreement,
  agreementStateLabels,
  type Cents,
  decimalToCents,
  formatDay,
  formatPaymentReference,
  formatPeriod,
  orderKindLabels,
} from '@aporta/domain';
import type { ReportDefinition } from '../../platform/pdf.ts';

/**
 * The agreement for signature: parties, debt, the orders consolidated, the schedule and the signature
 * lines. Laid out as a document (no filters heading); the signature block is never split from its lines.
 */
export function agreementReport(ag: Agreement): ReportDefinition {
  const m = (s: string) => ({ cents: decimalToCents(s) as Cents });
  const live = ag.instalments.filter((i) => i.state !== 'REEMPLAZADA');
  return {
    kind: 'payment-agreement',
    // A contract, not a list: its own data under the title (no "Filtros:"), money as `Q 1,234.50`.
    layout: 'document',
    title: `Convenio de pago ${ag.number}`,
    filters: [],
    fields: [
      { label: 'Entidad', value: `${ag.entityName} (${ag.entityCode})` },
      { label: 'Fecha del convenio', value: formatDay(ag.agreementDate) },
      { label: 'Estado', value: agreementStateLabels[ag.state] },
    ],
    tables: [
      {
        caption: 'Deuda convenida',
        headers: ['Capital', 'Intereses', 'Cargo administrativo', 'Total'],
        rows: [[m(ag.principal), m(ag.interest), m(ag.adminCharge), m(ag.debt)]],
        numeric: [0, 1, 2, 3],
        widths: ['*', '*', '*', '*'],
      },
      {
        caption: 'Órdenes que se convienen',
        headers: ['Referencia', 'Tipo', 'Período', 'Vencía', 'Capital', 'Intereses'],
        rows: ag.orders.map((o) => [
          formatPaymentReference(o.reference),
          orderKindLabels[o.kind as keyof typeof orderKindLabels] ?? o.kind,
          formatPeriod(o.period),
          formatDay(o.dueDate),
          m(o.principalDue),
          m(o.interestDue),
        ]),
        numeric: [4, 5],
      },
      {
        caption: 'Calendario de pagos',
        headers: ['Cuota', 'Vence', 'Referencia de pago', 'Monto'],
        rows: live.map((i) => [
          i.number === 0 ? 'Enganche' : String(i.number),
          formatDay(i.dueDate),
          formatPaymentReference(i.reference),
          m(i.amount),
        ]),
        totals: ['Total', '', '', { cents: live.reduce((sum, i) => sum + decimalToCents(i.amount), 0n) }],
        numeric: [3],
      },
    ],
    sections: [
      {
        heading: 'Condiciones',
        paragraphs: [
          'La entidad se obliga a pagar cada cuota en la fecha indicada con su referencia de pago. Una cuota no pagada a su vencimiento genera interés por mora a la tasa anual vigente, solo sobre su parte de capital: nunca sobre intereses ni sobre el cargo administrativo.',
          `Si se acumulan las cuotas vencidas que fija la normativa vigente, el convenio se declara incumplido y el saldo restante es exigible de inmediato.`,
        ],
      },
    ],
    // The heading and the captions stay on the page of their lines (platform/pdf.ts signatureContent).
    signatures: {
      heading: 'Firmas',
      lines: [{ caption: 'Representante legal de la entidad' }, { caption: 'Por la institución' }],
    },
  };
}
