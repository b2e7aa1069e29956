/** Reading payments: one payment with its allocations and receipt, the list and its export; the receipt rows they share with receipts.ts. */
import { AppError, type Cents, centsToDecimal, msg, type Payment, type PaymentListQuery, type Receipt } from '@aporta/domain';
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  contributors,
  municipalEntities,
  paymentAllocations,
  paymentOrders,
  payments,
  receiptRanges,
  receipts,
  users,
} from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { keysetBatches, keysetOf, listPage, type Page } from '../../platform/list.ts';

// ─── Reading ────────────────────────────────────────────────────────────────────────────────────────

const voider = users;

function selectReceipts(db: Db) {
  return db
    .select({
      r: receipts,
      office: receiptRanges.office,
      entityName: municipalEntities.name,
      firstName: contributors.firstName,
      firstSurname: contributors.firstSurname,
      voidedByEmail: voider.email,
    })
    .from(receipts)
    .innerJoin(receiptRanges, eq(receiptRanges.id, receipts.rangeId))
    .innerJoin(payments, eq(payments.id, receipts.paymentId))
    .leftJoin(municipalEntities, eq(municipalEntities.id, payments.entityId))
    .leftJoin(contributors, eq(contributors.id, payments.contributorId))
    .leftJoin(voider, eq(voider.id, receipts.voidedBy));
}
type ReceiptRow = Awaited<ReturnType<ReturnType<typeof selectReceipts>['where']>>[number];

export const toReceipt = (x: ReceiptRow): Receipt => ({
  id: x.r.id,
  rangeId: x.r.rangeId,
  office: x.office,
  series: x.r.series,
  number: x.r.number,
  paymentId: x.r.paymentId,
  entityName: x.entityName,
  contributorName: x.firstName ? `${x.firstName} ${x.firstSurname}` : null,
  amount: centsToDecimal(x.r.amount),
  issuedAt: x.r.issuedAt.toISOString(),
  state: x.r.state,
  voidReason: x.r.voidReason,
  voidedAt: x.r.voidedAt?.toISOString() ?? null,
  voidedByEmail: x.voidedByEmail,
});

export { selectReceipts };

function selectPayments(db: Db) {
  return db
    .select({
      p: payments,
      entityName: municipalEntities.name,
      firstName: contributors.firstName,
      firstSurname: contributors.firstSurname,
      createdByEmail: users.email,
    })
    .from(payments)
    .leftJoin(municipalEntities, eq(municipalEntities.id, payments.entityId))
    .leftJoin(contributors, eq(contributors.id, payments.contributorId))
    .leftJoin(users, eq(users.id, payments.createdBy));
}
type PaymentRow = Awaited<ReturnType<ReturnType<typeof selectPayments>['where']>>[number];

async function toPayments(db: Db, rows: PaymentRow[]): Promise<Payment[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.p.id);
  const allocs = await db
    .select({
      paymentId: paymentAllocations.paymentId,
      orderId: paymentAllocations.orderId,
      interest: paymentAllocations.interest,
      principal: paymentAllocations.principal,
      reference: paymentOrders.reference,
      kind: paymentOrders.kind,
      period: paymentOrders.period,
    })
    .from(paymentAllocations)
    .innerJoin(paymentOrders, eq(paymentOrders.id, paymentAllocations.orderId))
    .where(inArray(paymentAllocations.paymentId, ids))
    .orderBy(paymentAllocations.id);
  const recs = await selectReceipts(db).where(inArray(receipts.paymentId, ids)).orderBy(desc(receipts.id));
  return rows.map((r) => {
    const rec =
      recs.find((x) => x.r.paymentId === r.p.id && x.r.state === 'EMITIDO') ?? recs.find((x) => x.r.paymentId === r.p.id);
    return {
      id: r.p.id,
      entityId: r.p.entityId,
      entityName: r.entityName,
      contributorId: r.p.contributorId,
      contributorName: r.firstName ? `${r.firstName} ${r.firstSurname}` : null,
      bankId: r.p.bankId,
      bank: r.p.bank,
      payDate: r.p.payDate,
      bankReference: r.p.bankReference,
      amount: centsToDecimal(r.p.amount),
      office: r.p.office,
      state: r.p.state,
      reverseReason: r.p.reverseReason,
      createdAt: r.p.createdAt.toISOString(),
      createdByEmail: r.createdByEmail,
      allocations: allocs
        .filter((a) => a.paymentId === r.p.id)
        .map((a) => ({
          orderId: a.orderId,
          reference: a.reference,
          kind: a.kind,
          period: a.period,
          interest: centsToDecimal(a.interest),
          principal: centsToDecimal(a.principal),
        })),
      receipt: rec ? toReceipt(rec) : null,
    };
  });
}

export async function getPayment(ctx: RequestContext, input: { id: number }): Promise<Payment> {
  const rows = await selectPayments(ctx.db).where(and(eq(payments.id, input.id), ctx.inScope(payments.entityId)));
  if (!rows.length) throw new AppError('NOT_FOUND', msg('payments.paymentNotFound'));
  return (await toPayments(ctx.db, rows))[0];
}

function paymentConditions(ctx: RequestContext, q: Partial<PaymentListQuery>): SQL | undefined {
  const where: (SQL | undefined)[] = [ctx.inScope(payments.entityId)];
  if (q.entityId) where.push(eq(payments.entityId, q.entityId));
  if (q.contributorId) where.push(eq(payments.contributorId, q.contributorId));
  if (q.state) where.push(eq(payments.state, q.state));
  if (q.from) where.push(sql`${payments.payDate} >= ${q.from}`);
  if (q.to) where.push(sql`${payments.payDate} <= ${q.to}`);
  const text = q.q?.trim();
  if (text) where.push(sql`(${payments.bankReference} ilike ${`%${text}%`} or ${municipalEntities.name} ilike ${`%${text}%`})`);
  return and(...where);
}

const paymentSortable = { id: payments.id, payDate: payments.payDate, amount: payments.amount };

export async function findPayments(ctx: RequestContext, q: PaymentListQuery): Promise<Page<Payment>> {
  const cond = paymentConditions(ctx, q);
  const page = await listPage(ctx.db, {
    query: q,
    sortable: paymentSortable,
    defaultSort: '-id',
    rows: (c) =>
      selectPayments(ctx.db)
        .where(and(cond, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.p.id,
    count: () =>
      ctx.db
        .select({ id: payments.id })
        .from(payments)
        .leftJoin(municipalEntities, eq(municipalEntities.id, payments.entityId))
        .where(cond),
  });
  return { ...page, items: await toPayments(ctx.db, page.items) };
}

export async function* paymentExportBatches(
  ctx: RequestContext,
  q: Omit<PaymentListQuery, 'page' | 'pageSize' | 'after' | 'before'>,
) {
  const cond = paymentConditions(ctx, q);
  const k = keysetOf(q.sort, paymentSortable, '-id');
  for await (const rows of keysetBatches(
    k,
    (c) =>
      selectPayments(ctx.db)
        .where(and(cond, c.after))
        .orderBy(...c.order)
        .limit(c.limit),
    (r) => r.p.id,
    500,
  )) {
    yield await toPayments(ctx.db, rows);
  }
}

export const sumCents = (xs: Cents[]) => xs.reduce((s, x) => s + x, 0n);
