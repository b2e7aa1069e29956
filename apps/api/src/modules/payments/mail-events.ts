/**
 * The payments module's mails (issue 29): an order issued (its PDF attached) and a payment registered (its
 * 7-B receipt attached) reach the entity's own people who see its orders; the PDFs are produced when the
 * mail is sent, by the renderers registered here, with the code the download routes use.
 */
import { centsToDecimal, formatDay, formatMoney, formatPaymentReference, formatPeriod } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { municipalEntities, type paymentOrders } from '../../db/schema/index.ts';
import { systemContext } from '../../platform/context.ts';
import { registerMailAttachment } from '../../platform/mail.ts';
import { generateReportPdf, type ReportDefinition, verificationPagePath } from '../../platform/pdf.ts';
import { enqueueWebhook } from '../../platform/webhooks.ts';
import { entityUsersOf } from '../notifications/recipients.ts';
import { notifyUsers } from '../notifications/service.ts';
import { getOrder, orderReport } from './order-views.ts';
import { receiptDocument } from './receipts.ts';

type OrderRow = typeof paymentOrders.$inferSelect;

/** Who hears of an entity's orders and payments: its members who read its payment orders (those who pay). */
export const payersOf = (tx: Db, entityId: number) => entityUsersOf(tx, entityId, 'payment-orders', 'READ');

export async function entityNameOf(tx: Db, entityId: number): Promise<string> {
  const [e] = await tx.select({ name: municipalEntities.name }).from(municipalEntities).where(eq(municipalEntities.id, entityId));
  return e?.name ?? '';
}

/**
 * Registers the renderers of the PDFs the payments mails attach (idempotent): `payment-order` (the order as of
 * the day the mail is sent, as `GET /api/payment-orders/:id/pdf` gives it) and `receipt` (the 7-B receipt).
 * They run as the system; the verification link points at PUBLIC_URL (else the local server).
 */
export function registerPaymentMailAttachments(config: Pick<Config, 'APP_TITLE' | 'PUBLIC_URL' | 'PORT'>): void {
  const base = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  const pdf = async (db: Db, report: ReportDefinition, name: string) => {
    const doc = await generateReportPdf(systemContext(db), report, {
      fallbackInstitution: config.APP_TITLE,
      verifyUrl: (code) => `${base}${verificationPagePath(code)}`,
    });
    return { filename: `${name}.pdf`, contentType: 'application/pdf', content: doc.pdf };
  };
  registerMailAttachment('payment-order', async (db, id) => {
    const ord = await getOrder(systemContext(db), { id: Number(id) });
    return pdf(db, orderReport(ord), `orden-${ord.reference}`);
  });
  registerMailAttachment('receipt', async (db, id) => {
    const { report, name } = await receiptDocument(systemContext(db), { id: Number(id) });
    return pdf(db, report, name);
  });
}

/**
 * Tells the entity's payers of an order just issued, in the issuing transaction: the bell and a mail with the
 * order's PDF. An order of no entity (a voluntary contributor's) has no one to tell here.
 */
export async function notifyOrderIssued(tx: Db, order: OrderRow): Promise<void> {
  if (!order.entityId) return;
  const entity = await entityNameOf(tx, order.entityId);
  const reference = formatPaymentReference(order.reference);
  await notifyUsers({
    db: tx,
    userIds: await payersOf(tx, order.entityId),
    type: 'info',
    title: `Orden de pago ${reference} emitida`.slice(0, 200),
    body: `${entity}, período ${formatPeriod(order.period)}: ${formatMoney(order.principal)}, vence el ${formatDay(order.dueDate)}.`,
    link: `/ordenes-pago/${order.id}`,
    mail: {
      event: 'order.issued',
      params: { reference, entity, amount: order.principal, due: order.dueDate },
      attachments: [{ kind: 'render', renderer: 'payment-order', id: order.id }],
      dedupeKey: `order.issued:${order.id}`,
    },
  });
  // Issue 30: the entity's webhooks (ids, reference and amounts only).
  await enqueueWebhook(tx, 'order.issued', order.entityId, {
    record: order.id,
    data: {
      orderId: order.id,
      entityId: order.entityId,
      planillaId: order.planillaId ?? undefined,
      reference: order.reference,
      period: order.period,
      amount: centsToDecimal(order.principal),
      dueDate: order.dueDate,
    },
  });
}

/**
 * Tells the entity's payers of a payment registered to its orders, in the payment's transaction: the bell and
 * a mail with the 7-B receipt. A contributor's payment (no entity) has no one to tell here.
 */
export async function notifyPaymentRegistered(
  tx: Db,
  p: {
    paymentId: number;
    receiptId: number;
    receipt: string;
    entityId: number | null;
    amount: bigint;
    payDate: string;
    references: readonly string[];
  },
): Promise<void> {
  if (!p.entityId) return;
  const entity = await entityNameOf(tx, p.entityId);
  const reference = p.references.map(formatPaymentReference).join(', ');
  await notifyUsers({
    db: tx,
    userIds: await payersOf(tx, p.entityId),
    type: 'success',
    title: `Pago registrado: ${formatMoney(p.amount)} de ${entity}`.slice(0, 200),
    body: `Recibo ${p.receipt}; orden ${reference}.`.slice(0, 500),
    link: '/planilla/recibos-7b',
    mail: {
      event: 'payment.registered',
      params: { amount: p.amount, entity, reference, date: p.payDate, receipt: p.receipt },
      attachments: [{ kind: 'render', renderer: 'receipt', id: p.receiptId }],
      dedupeKey: `payment.registered:${p.paymentId}`,
    },
  });
  // Issue 30: the entity's webhooks (ids, references and the amount only).
  await enqueueWebhook(tx, 'payment.registered', p.entityId, {
    record: p.paymentId,
    data: {
      paymentId: p.paymentId,
      entityId: p.entityId,
      receipt: p.receipt,
      amount: centsToDecimal(p.amount),
      payDate: p.payDate,
      references: [...p.references],
    },
  });
}
