import {
  AppError,
  amountInWords,
  type Corte,
  centsToDecimal,
  decimalToCents,
  detail,
  formatDay,
  formatMoney,
  formatPaymentReference,
  formatPeriod,
  guatemalaToday,
  msg,
  orderKindLabels,
  type Payment,
  type Receipt,
  type ReceiptListQuery,
  type ReceiptRange,
  type ReceiptRangeCreate,
  rangeStateLabels,
  text,
} from '@aporta/domain';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.ts';
import { payments, receiptRanges, receipts } from '../../db/schema/index.ts';
import { type RequestContext, requireAllScope } from '../../platform/context.ts';
import { keysetBatches, keysetOf, listPage, type Page } from '../../platform/list.ts';
import { countMetric } from '../../platform/metrics.ts';
import type { ReportDefinition } from '../../platform/pdf.ts';
import { settingsAt } from '../settings/service.ts';
import { getPayment, selectReceipts, toReceipt } from './payment-reads.ts';
import { takeReceiptNumber } from './receipt-numbers.ts';

// ─── Ranges ─────────────────────────────────────────────────────────────────────────────────────────

async function warningThreshold(ctx: RequestContext) {
  return (await settingsAt(ctx.db, guatemalaToday())).values['receipts.rangeWarningRemaining'];
}

const toRange = (r: typeof receiptRanges.$inferSelect, threshold: number): ReceiptRange => {
  const remaining = r.state === 'ACTIVO' ? r.lastNumber - r.nextNumber + 1 : 0;
  return {
    id: r.id,
    office: r.office,
    series: r.series,
    firstNumber: r.firstNumber,
    lastNumber: r.lastNumber,
    nextNumber: r.nextNumber,
    used: r.nextNumber - r.firstNumber,
    remaining,
    authorizationRef: r.authorizationRef,
    authorizationDate: r.authorizationDate,
    state: r.state,
    runningOut: r.state === 'ACTIVO' && remaining <= threshold,
    createdAt: r.createdAt.toISOString(),
  };
};

/** Receipt ranges are the institution's forms, not an entity's: only an ALL grant manages or reads them. */
const requireRangesScope = (ctx: RequestContext) => requireAllScope(ctx, text('payments.rangesRequireAllScope'));

/**
 * Registers an authorised range. Two ranges of one series may not share a number: the check runs with
 * the table locked against other range writes, so two people registering at once cannot both pass it.
 */
export async function createRange(ctx: RequestContext, input: ReceiptRangeCreate): Promise<ReceiptRange> {
  requireRangesScope(ctx);
  if (input.authorizationDate > guatemalaToday()) {
    throw new AppError('VALIDATION', msg('payments.authorizationDateFuture'), [
      { path: 'authorizationDate', ...detail(msg('payments.futureDateField')) },
    ]);
  }
  const row = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`lock table ${receiptRanges} in share row exclusive mode`);
    const [overlap] = await tx
      .select()
      .from(receiptRanges)
      .where(
        sql`${receiptRanges.series} = ${input.series} and ${receiptRanges.firstNumber} <= ${input.lastNumber} and ${receiptRanges.lastNumber} >= ${input.firstNumber}`,
      )
      .limit(1);
    if (overlap) {
      throw new AppError(
        'CONFLICT',
        msg('payments.rangeOverlaps', {
          first: overlap.firstNumber,
          last: overlap.lastNumber,
          series: overlap.series,
          office: overlap.office,
        }),
        [{ path: 'firstNumber', ...detail(msg('payments.rangeOverlapsField')) }],
      );
    }
    const [r] = await tx
      .insert(receiptRanges)
      .values({ ...input, nextNumber: input.firstNumber, createdBy: ctx.actor.id })
      .returning();
    await ctx.audit({ action: 'CREATE', entityType: 'receipt-range', entityId: r.id, after: input }, tx);
    return r;
  });
  return toRange(row, await warningThreshold(ctx));
}

/** Voids a range not yet used (a mistaken registration); a range with receipts stays for the record. */
export async function voidRange(ctx: RequestContext, input: { id: number; reason: string }): Promise<ReceiptRange> {
  requireRangesScope(ctx);
  const row = await ctx.db.transaction(async (tx) => {
    const [r] = await tx.select().from(receiptRanges).where(eq(receiptRanges.id, input.id)).for('update');
    if (!r) throw new AppError('NOT_FOUND', msg('payments.rangeNotFound'));
    if (r.nextNumber !== r.firstNumber) throw new AppError('CONFLICT', msg('payments.rangeAlreadyUsed'));
    if (r.state === 'ANULADO') throw new AppError('CONFLICT', msg('payments.rangeAlreadyVoided'));
    const [u] = await tx.update(receiptRanges).set({ state: 'ANULADO' }).where(eq(receiptRanges.id, r.id)).returning();
    await ctx.audit(
      {
        action: 'UPDATE',
        entityType: 'receipt-range',
        entityId: r.id,
        before: { estado: r.state },
        after: { estado: 'ANULADO', motivo: input.reason },
      },
      tx,
    );
    return u;
  });
  return toRange(row, await warningThreshold(ctx));
}

export async function findRanges(
  ctx: RequestContext,
  q: { office?: string; state?: ReceiptRange['state'] } & Parameters<typeof listPage>[1]['query'],
) {
  requireRangesScope(ctx);
  const threshold = await warningThreshold(ctx);
  const where: SQL[] = [];
  if (q.office) where.push(eq(receiptRanges.office, q.office));
  if (q.state) where.push(eq(receiptRanges.state, q.state));
  const cond = and(...where);
  const page = await listPage(ctx.db, {
    query: q,
    sortable: { id: receiptRanges.id, series: receiptRanges.series, firstNumber: receiptRanges.firstNumber },
    defaultSort: '-id',
    rows: (c) =>
      ctx.db
        .select()
        .from(receiptRanges)
        .where(and(cond, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.id,
    count: () => ctx.db.select({ id: receiptRanges.id }).from(receiptRanges).where(cond),
  });
  return { ...page, items: page.items.map((r) => toRange(r, threshold)) };
}

/** Offices with an active range: where a payment can take its receipt. */
export async function activeOffices(ctx: RequestContext): Promise<{ office: string; remaining: number }[]> {
  const rows = rowsOf<{ office: string; remaining: number }>(
    await ctx.db.execute(sql`select office, sum(last_number - next_number + 1)::int as remaining from ${receiptRanges}
      where state = 'ACTIVO' group by office order by office`),
  );
  return rows.map((r) => ({ office: r.office, remaining: Number(r.remaining) }));
}

// ─── Receipts ───────────────────────────────────────────────────────────────────────────────────────

function receiptConditions(ctx: RequestContext, q: Partial<ReceiptListQuery>): SQL | undefined {
  const where: (SQL | undefined)[] = [ctx.inScope(payments.entityId)];
  if (q.rangeId) where.push(eq(receipts.rangeId, q.rangeId));
  if (q.state) where.push(eq(receipts.state, q.state));
  if (q.from) where.push(sql`${receipts.issuedAt} >= ${q.from}::date`);
  if (q.to) where.push(sql`${receipts.issuedAt} < ${q.to}::date + 1`);
  const text = q.q?.trim();
  if (text) {
    const n = /^\d{1,9}$/.test(text) ? Number(text) : null;
    where.push(n !== null ? eq(receipts.number, n) : sql`${receipts.series} = ${text.toUpperCase()}`);
  }
  return and(...where);
}

const receiptSortable = { id: receipts.id, number: receipts.number, issuedAt: receipts.issuedAt };

export async function findReceipts(ctx: RequestContext, q: ReceiptListQuery): Promise<Page<Receipt>> {
  const cond = receiptConditions(ctx, q);
  const page = await listPage(ctx.db, {
    query: q,
    sortable: receiptSortable,
    defaultSort: '-id',
    rows: (c) =>
      selectReceipts(ctx.db)
        .where(and(cond, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.r.id,
    count: () =>
      ctx.db.select({ id: receipts.id }).from(receipts).innerJoin(payments, eq(payments.id, receipts.paymentId)).where(cond),
  });
  return { ...page, items: page.items.map(toReceipt) };
}

export async function* receiptExportBatches(
  ctx: RequestContext,
  q: Omit<ReceiptListQuery, 'page' | 'pageSize' | 'after' | 'before'>,
) {
  const cond = receiptConditions(ctx, q);
  for await (const rows of keysetBatches(
    keysetOf(q.sort, receiptSortable, '-id'),
    (c) =>
      selectReceipts(ctx.db)
        .where(and(cond, c.after))
        .orderBy(...c.order)
        .limit(c.limit),
    (r) => r.r.id,
    500,
  )) {
    yield rows.map(toReceipt);
  }
}

export async function getReceipt(ctx: RequestContext, input: { id: number }): Promise<Receipt> {
  const [r] = await selectReceipts(ctx.db).where(and(eq(receipts.id, input.id), ctx.inScope(payments.entityId)));
  if (!r) throw new AppError('NOT_FOUND', msg('payments.receiptNotFound'));
  return toReceipt(r);
}

/** Voids a receipt (a spoilt form): the number stays, with reason, who and when; the payment stands. */
export async function voidReceipt(ctx: RequestContext, input: { id: number; reason: string }): Promise<Receipt> {
  await getReceipt(ctx, input);
  await ctx.db.transaction(async (tx) => {
    const [u] = await tx
      .update(receipts)
      .set({ state: 'ANULADO', voidReason: input.reason, voidedBy: ctx.actor.id, voidedAt: new Date() })
      .where(and(eq(receipts.id, input.id), eq(receipts.state, 'EMITIDO')))
      .returning();
    if (!u) throw new AppError('CONFLICT', msg('payments.receiptAlreadyVoided'));
    await ctx.audit(
      {
        action: 'VOID',
        entityType: 'receipt',
        entityId: u.id,
        after: { serie: u.series, numero: u.number, motivo: input.reason },
      },
      tx,
    );
  });
  return getReceipt(ctx, input);
}

/** A new receipt (the next number) for a registered payment whose receipt was voided. */
export async function reissueReceipt(ctx: RequestContext, input: { paymentId: number }) {
  const pay = await getPayment(ctx, { id: input.paymentId });
  if (pay.state !== 'REGISTRADO') throw new AppError('CONFLICT', msg('payments.paymentReversedHasNoReceipt'));
  if (pay.receipt?.state === 'EMITIDO') throw new AppError('CONFLICT', msg('payments.paymentHasReceipt'));
  await ctx.db.transaction(async (tx) => {
    const n = await takeReceiptNumber(tx, pay.office);
    const [r] = await tx
      .insert(receipts)
      .values({
        rangeId: n.rangeId,
        series: n.series,
        number: n.number,
        paymentId: pay.id,
        amount: decimalToCents(pay.amount),
        createdBy: ctx.actor.id,
      })
      .returning();
    await ctx.audit(
      { action: 'CREATE', entityType: 'receipt', entityId: r.id, after: { serie: r.series, numero: r.number, pago: pay.id } },
      tx,
    );
  });
  countMetric('receiptsIssued', { kind: 'reissue' });
  return getPayment(ctx, { id: input.paymentId });
}

/**
 * What a receipt says it was paid for, in words: the kinds of the orders it settles and their periods
 * (`Pago de cuota laboral y cuota patronal del período 10/2026, con intereses por mora`).
 */
export function receiptConcept(allocations: Payment['allocations']): string {
  const kinds = [...new Set(allocations.map((a) => orderKindLabels[a.kind].toLowerCase()))];
  const periods = [...new Set(allocations.map((a) => a.period))].sort().map(formatPeriod);
  const withInterest = allocations.some((a) => decimalToCents(a.interest) > 0n);
  const list = (xs: string[]) => (xs.length > 1 ? `${xs.slice(0, -1).join(', ')} y ${xs.at(-1)}` : (xs[0] ?? ''));
  const period = periods.length ? ` ${periods.length > 1 ? 'de los períodos' : 'del período'} ${list(periods)}` : '';
  return `Pago de ${list(kinds) || 'aportes'}${period}${withInterest ? ', con intereses por mora' : ''}`;
}

/**
 * The 7-B receipt as a document for paper: who paid (payer), the concept, the orders and periods it
 * settles, the amount in figures and in words (quetzales and centavos), and the signature and seal lines.
 */
export function receiptReport(r: Receipt, pay: Payment): ReportDefinition {
  const total = decimalToCents(r.amount);
  const references = [...new Set(pay.allocations.map((a) => formatPaymentReference(a.reference)))];
  const periods = [...new Set(pay.allocations.map((a) => a.period))].sort().map(formatPeriod);
  return {
    kind: 'receipt-7b',
    layout: 'document',
    title: `Recibo 7-B serie ${r.series} No. ${r.number}`,
    filters: [],
    fields: [
      { label: 'Recibido de', value: pay.entityName ?? pay.contributorName ?? '' },
      { label: 'Concepto', value: receiptConcept(pay.allocations) },
      { label: references.length > 1 ? 'Órdenes de pago' : 'Orden de pago', value: references.join(', ') },
      { label: periods.length > 1 ? 'Períodos' : 'Período', value: periods.join(', ') },
      { label: 'Fecha de pago', value: formatDay(pay.payDate) },
      { label: 'Banco', value: `${pay.bank} · ref. ${pay.bankReference}` },
      { label: 'Oficina emisora', value: r.office },
      ...(r.state === 'ANULADO' ? [{ label: 'Estado', value: `ANULADO: ${r.voidReason ?? ''}` }] : []),
    ],
    tables: [
      {
        headers: ['Orden', 'Concepto', 'Período', 'Intereses', 'Capital'],
        rows: pay.allocations.map((a) => [
          formatPaymentReference(a.reference),
          orderKindLabels[a.kind],
          formatPeriod(a.period),
          { cents: decimalToCents(a.interest) },
          { cents: decimalToCents(a.principal) },
        ]),
        // Each column's own sum (interest under Intereses, principal under Capital); the amount received is
        // said right below, in figures and in words.
        totals: [
          'Total',
          '',
          '',
          { cents: pay.allocations.reduce((s, a) => s + decimalToCents(a.interest), 0n) },
          { cents: pay.allocations.reduce((s, a) => s + decimalToCents(a.principal), 0n) },
        ],
        numeric: [3, 4],
        widths: ['auto', '*', 'auto', 'auto', 'auto'],
      },
    ],
    sections: [
      {
        emphasis: true,
        paragraphs: [`Total recibido: ${formatMoney(total)}`, `La cantidad de: ${amountInWords(total)}`],
      },
    ],
    signatures: {
      heading: 'Firma y sello',
      lines: [{ caption: 'Firma de quien recibe' }],
      seal: 'Sello de la institución',
    },
  };
}

/** A receipt as its PDF report (with its payment's allocations), with the file's name. Callers: receipts-7b READ. */
export async function receiptDocument(ctx: RequestContext, input: { id: number }) {
  const r = await getReceipt(ctx, input);
  const pay = await getPayment(ctx, { id: r.paymentId });
  return { report: receiptReport(r, pay), name: `recibo-${r.series}-${r.number}` };
}

// ─── Corte de formas ────────────────────────────────────────────────────────────────────────────────

/** Used, voided and remaining numbers of a range (within a date span of issue when given). */
export async function corteDeFormas(ctx: RequestContext, q: { rangeId: number; from?: string; to?: string }): Promise<Corte> {
  requireRangesScope(ctx);
  const [range] = await ctx.db.select().from(receiptRanges).where(eq(receiptRanges.id, q.rangeId));
  if (!range) throw new AppError('NOT_FOUND', msg('payments.rangeNotFound'));
  const span = and(
    eq(receipts.rangeId, range.id),
    q.from ? sql`${receipts.issuedAt} >= ${q.from}::date` : undefined,
    q.to ? sql`${receipts.issuedAt} < ${q.to}::date + 1` : undefined,
  );
  const [agg] = await ctx.db
    .select({
      used: sql<number>`count(*) filter (where ${receipts.state} = 'EMITIDO')::int`,
      voided: sql<number>`count(*) filter (where ${receipts.state} = 'ANULADO')::int`,
      first: sql<number | null>`min(${receipts.number})`,
      last: sql<number | null>`max(${receipts.number})`,
      amount: sql<string>`coalesce(sum(${receipts.amount}) filter (where ${receipts.state} = 'EMITIDO'), 0)::text`,
    })
    .from(receipts)
    .where(span);
  const voided = await ctx.db
    .select({ number: receipts.number, reason: receipts.voidReason, voidedAt: receipts.voidedAt })
    .from(receipts)
    .where(and(span, eq(receipts.state, 'ANULADO')))
    .orderBy(receipts.number)
    .limit(1000);
  const threshold = await warningThreshold(ctx);
  const r = toRange(range, threshold);
  return {
    range: r,
    from: q.from ?? null,
    to: q.to ?? null,
    used: Number(agg.used),
    voided: Number(agg.voided),
    remaining: range.state === 'ACTIVO' ? range.lastNumber - range.nextNumber + 1 : 0,
    firstNumber: agg.first == null ? null : Number(agg.first),
    lastNumber: agg.last == null ? null : Number(agg.last),
    amount: centsToDecimal(decimalToCents(agg.amount)),
    voidedNumbers: voided.map((v) => ({ number: v.number, reason: v.reason, voidedAt: v.voidedAt?.toISOString() ?? null })),
  };
}

export function corteReport(c: Corte): ReportDefinition {
  const r = c.range;
  return {
    kind: 'corte-formas-7b',
    title: `Corte de formas 7-B · serie ${r.series} (${r.firstNumber}–${r.lastNumber})`,
    filters: [
      { label: 'Oficina', value: r.office },
      { label: 'Autorización', value: `${r.authorizationRef} del ${formatDay(r.authorizationDate)}` },
      { label: 'Del', value: c.from ? formatDay(c.from) : 'inicio' },
      { label: 'Al', value: c.to ? formatDay(c.to) : 'hoy' },
      { label: 'Estado del rango', value: rangeStateLabels[r.state] },
    ],
    tables: [
      {
        caption: 'Resumen',
        headers: ['Usados', 'Anulados', 'Disponibles', 'Primer número', 'Último número', 'Monto de los vigentes'],
        rows: [[c.used, c.voided, c.remaining, c.firstNumber ?? '—', c.lastNumber ?? '—', { cents: decimalToCents(c.amount) }]],
        numeric: [0, 1, 2, 3, 4, 5],
        widths: ['*', '*', '*', '*', '*', '*'],
      },
      {
        caption: 'Números anulados',
        headers: ['Número', 'Motivo', 'Fecha'],
        rows: c.voidedNumbers.length
          ? c.voidedNumbers.map((v) => [v.number, v.reason ?? '', v.voidedAt ? formatDay(v.voidedAt.slice(0, 10)) : ''])
          : [['—', 'Ningún número anulado en el período', '']],
        widths: ['auto', '*', 'auto'],
      },
    ],
  };
}

/** The corte de formas as its report (PDF or xlsx), with the file's name. Callers: receipt-ranges-7b EXPORT. */
export async function corteDocument(ctx: RequestContext, q: { rangeId: number; from?: string; to?: string }) {
  const c = await corteDeFormas(ctx, q);
  return { report: corteReport(c), name: `corte-formas-${c.range.series}-${c.range.firstNumber}` };
}
