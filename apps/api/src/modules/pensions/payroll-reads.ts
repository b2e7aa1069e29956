/**
 * Reading the monthly pension payrolls: the list, one payroll and its lines, a pension's payments, the
 * bank file and the PDF summary. Generating and closing a payroll is in payroll.ts.
 */
import {
  AppError,
  centsToDecimal,
  decimalToCents,
  formatPeriod,
  msg,
  type PayrollException,
  type PayrollLine,
  payrollLineKindLabels,
  pensionTypeLabels,
  pensionTypes,
} from '@aporta/domain';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.ts';
import { pensionPayrollExceptions, pensionPayrollLines, pensionPayrolls, pensions } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { keysetBatches, keysetOf, pageOf } from '../../platform/list.ts';
import type { ReportDefinition } from '../../platform/pdf.ts';
import { requireAll, toPayroll } from './payroll.ts';

/** The payrolls, newest first. Callers: passive-classes READ (scope ALL). */
export async function findPayrolls(ctx: RequestContext, query: { page: number; pageSize: number }) {
  requireAll(ctx);
  const { limit, offset } = pageOf(query);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(pensionPayrolls).orderBy(desc(pensionPayrolls.period)).limit(limit).offset(offset),
    ctx.db.select({ total: count() }).from(pensionPayrolls),
  ]);
  return { items: rows.map(toPayroll), total };
}

async function payrollOf(ctx: RequestContext, period: string) {
  requireAll(ctx);
  const [p] = await ctx.db.select().from(pensionPayrolls).where(eq(pensionPayrolls.period, period));
  if (!p) throw new AppError('NOT_FOUND', msg('pensions.payrollNotFound', { period }));
  return p;
}

export async function getPayroll(ctx: RequestContext, input: { period: string }) {
  return toPayroll(await payrollOf(ctx, input.period));
}

const toLine = (l: typeof pensionPayrollLines.$inferSelect): PayrollLine => ({
  id: l.id,
  pensionId: l.pensionId,
  cui: l.cui,
  fullName: l.fullName,
  type: l.type,
  kind: l.kind,
  forPeriod: l.forPeriod,
  days: l.days,
  amount: centsToDecimal(l.amount),
  bankAccount: l.bankAccount,
});

/** A page of what a payroll excluded or flagged, with the reason. Callers: passive-classes READ (scope ALL). */
export async function payrollExceptions(
  ctx: RequestContext,
  input: { period: string; page: number; pageSize: number; kind?: 'EXCLUIDA' | 'OBSERVADA' },
): Promise<{ items: PayrollException[]; total: number }> {
  const p = await payrollOf(ctx, input.period);
  const { limit, offset } = pageOf(input);
  const where = and(
    eq(pensionPayrollExceptions.payrollId, p.id),
    input.kind ? eq(pensionPayrollExceptions.kind, input.kind) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(pensionPayrollExceptions)
      .where(where)
      // By reason within each kind, so the few RENAP deaths head the excluded ahead of the many overdue
      // survival checks (the reasons sort FALLECIMIENTO, MANUAL, SUPERVIVENCIA), then by name.
      .orderBy(
        pensionPayrollExceptions.kind,
        pensionPayrollExceptions.reason,
        pensionPayrollExceptions.fullName,
        pensionPayrollExceptions.id,
      )
      .limit(limit)
      .offset(offset),
    ctx.db.select({ total: count() }).from(pensionPayrollExceptions).where(where),
  ]);
  return {
    total,
    items: rows.map((r) => {
      const m = (msg as (k: string, p: Record<string, string | number>) => ReturnType<typeof msg>)(r.messageKey, r.messageParams);
      return {
        id: r.id,
        pensionId: r.pensionId,
        cui: r.cui,
        fullName: r.fullName,
        type: r.type,
        kind: r.kind,
        reason: r.reason,
        message: m.text,
        key: m.key,
        ...(m.params ? { params: m.params } : {}),
      };
    }),
  };
}

/** A page of a payroll's lines. Callers: passive-classes READ (scope ALL). */
export async function payrollLines(
  ctx: RequestContext,
  input: { period: string; page: number; pageSize: number; kind?: 'MENSUAL' | 'ATRASO'; pensionId?: number; q?: string },
) {
  const p = await payrollOf(ctx, input.period);
  const where = and(
    eq(pensionPayrollLines.payrollId, p.id),
    input.kind ? eq(pensionPayrollLines.kind, input.kind) : undefined,
    input.pensionId ? eq(pensionPayrollLines.pensionId, input.pensionId) : undefined,
    input.q?.trim()
      ? sql`(${pensionPayrollLines.cui} like ${`${input.q.trim()}%`} or upper(${pensionPayrollLines.fullName}) like upper(${`%${input.q.trim()}%`}))`
      : undefined,
  );
  const { limit, offset } = pageOf(input);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(pensionPayrollLines).where(where).orderBy(pensionPayrollLines.id).limit(limit).offset(offset),
    ctx.db.select({ total: count() }).from(pensionPayrollLines).where(where),
  ]);
  return { items: rows.map(toLine), total };
}

/** Payroll lines of one pension (its payments), within scope. Callers: passive-classes READ. */
export async function paymentsOfPension(ctx: RequestContext, pensionId: number) {
  const rows = await ctx.db
    .select({ l: pensionPayrollLines, period: pensionPayrolls.period, state: pensionPayrolls.state })
    .from(pensionPayrollLines)
    .innerJoin(pensionPayrolls, eq(pensionPayrolls.id, pensionPayrollLines.payrollId))
    .innerJoin(pensions, eq(pensions.id, pensionPayrollLines.pensionId))
    .where(and(eq(pensionPayrollLines.pensionId, pensionId), ctx.inScope(pensions.entityId)))
    .orderBy(desc(pensionPayrolls.period), pensionPayrollLines.id)
    .limit(240);
  return { items: rows.map((r) => ({ ...toLine(r.l), payrollPeriod: r.period, payrollState: r.state })), total: rows.length };
}

/** The bank file's rows (every line, in id order) in keyset chunks. */
export async function bankFileBatches(ctx: RequestContext, period: string) {
  const p = await payrollOf(ctx, period);
  const keyset = keysetOf('id', { id: pensionPayrollLines.id }, 'id');
  return keysetBatches(
    keyset,
    async (c) =>
      ctx.db
        .select()
        .from(pensionPayrollLines)
        .where(and(eq(pensionPayrollLines.payrollId, p.id), c.after))
        .orderBy(...c.order)
        .limit(c.limit),
    (r) => r.id,
    5000,
  );
}

export const bankFileColumns = (period: string) => [
  { header: 'Cuenta', value: (l: typeof pensionPayrollLines.$inferSelect) => l.bankAccount },
  { header: 'CUI', value: (l: typeof pensionPayrollLines.$inferSelect) => l.cui },
  { header: 'Nombre', value: (l: typeof pensionPayrollLines.$inferSelect) => l.fullName },
  { header: 'Monto', value: (l: typeof pensionPayrollLines.$inferSelect) => centsToDecimal(l.amount), money: true },
  {
    header: 'Referencia',
    value: (l: typeof pensionPayrollLines.$inferSelect) =>
      `PEN-${period}-${l.pensionId}-${l.kind === 'ATRASO' ? `A${l.forPeriod}` : 'M'}`,
  },
];

/** The PDF summary: totals by pension type and by kind of line, recomputed from the lines. */
export async function payrollSummary(ctx: RequestContext, period: string): Promise<ReportDefinition> {
  const p = await payrollOf(ctx, period);
  const rows = rowsOf<{ type: string; kind: string; n: number; total: string }>(
    await ctx.db.execute(sql`
      select type, kind, count(*)::int as n, sum(amount)::text as total
        from ${pensionPayrollLines} where payroll_id = ${p.id} group by type, kind`),
  );
  const byType = pensionTypes.map((t) => {
    const mine = rows.filter((r) => r.type === t);
    const sum = (k?: string) => mine.filter((r) => !k || r.kind === k).reduce((s, r) => s + decimalToCents(r.total), 0n);
    return [
      pensionTypeLabels[t],
      mine.reduce((s, r) => s + r.n, 0),
      { cents: sum('MENSUAL') },
      { cents: sum('ATRASO') },
      { cents: sum() },
    ] as const;
  });
  const grand = rows.reduce((s, r) => s + decimalToCents(r.total), 0n);
  const owed = rows.filter((r) => r.kind === 'ATRASO').reduce((s, r) => s + decimalToCents(r.total), 0n);
  return {
    kind: 'pension-payroll',
    title: `Planilla de pensiones de ${formatPeriod(period)}`,
    filters: [
      { label: 'Período', value: formatPeriod(period) },
      { label: 'Estado', value: p.state === 'CERRADA' ? 'Cerrada' : 'Borrador' },
      { label: 'Pensiones suspendidas excluidas', value: String(p.excludedSuspended) },
    ],
    tables: [
      {
        caption: 'Totales por tipo de pensión',
        headers: ['Tipo', 'Líneas', payrollLineKindLabels.MENSUAL, payrollLineKindLabels.ATRASO, 'Total'],
        rows: byType.map((r) => [...r]),
        totals: ['Total', rows.reduce((s, r) => s + r.n, 0), { cents: grand - owed }, { cents: owed }, { cents: grand }],
        numeric: [1, 2, 3, 4],
      },
    ],
  };
}
