/**
 * The months a pension was not paid while suspended, flagged for payment when it is reactivated (after a
 * survival check, or a death review found wrong); the next payroll pays them as ATRASO lines.
 */
import { amountOn, laterDate, monthlyPayable, periodOf, periodsBetween } from '@aporta/domain';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { pensionAmounts, pensionOwedMonths, pensionPayrollLines, pensionPayrolls, pensions } from '../../db/schema/index.ts';

/**
 * Flags the months a pension was not paid while suspended (from the suspension's first month to the
 * reactivation's) for payment: every month without a line in a closed payroll, except the current
 * month while its payroll is not closed (that payroll pays it as usual). Amount: what the month would
 * have paid (the amount in force then, prorated at the pension's start and end).
 */
export async function flagOwedMonths(tx: Db, pensionId: number, suspensionId: number, fromDate: string, reactivatedOn: string) {
  const [p] = await tx.select().from(pensions).where(eq(pensions.id, pensionId));
  const amounts = await tx.select().from(pensionAmounts).where(eq(pensionAmounts.pensionId, pensionId));
  const current = periodOf(reactivatedOn);
  const [currentClosed] = await tx
    .select({ id: pensionPayrolls.id })
    .from(pensionPayrolls)
    .where(and(eq(pensionPayrolls.period, current), eq(pensionPayrolls.state, 'CERRADA')));
  const paid = new Set(
    (
      await tx
        .select({ period: pensionPayrollLines.forPeriod })
        .from(pensionPayrollLines)
        .innerJoin(pensionPayrolls, eq(pensionPayrolls.id, pensionPayrollLines.payrollId))
        .where(and(eq(pensionPayrollLines.pensionId, pensionId), eq(pensionPayrolls.state, 'CERRADA')))
    ).map((r) => r.period),
  );
  const already = new Set(
    (
      await tx
        .select({ period: pensionOwedMonths.period })
        .from(pensionOwedMonths)
        .where(eq(pensionOwedMonths.pensionId, pensionId))
    ).map((r) => r.period),
  );
  const rows = [];
  for (const period of periodsBetween(periodOf(fromDate), current)) {
    if (paid.has(period) || already.has(period)) continue;
    if (period === current && !currentClosed) continue;
    const firstDay = laterDate(`${period}-01`, p.startDate);
    const a = amountOn(amounts, firstDay);
    if (!a) continue;
    const due = monthlyPayable({ monthly: a.monthlyAmount, startDate: p.startDate, endDate: p.endDate }, period);
    if (due.days === 0) continue;
    rows.push({ pensionId, suspensionId, period, days: due.days, amount: due.cents });
  }
  if (rows.length) await tx.insert(pensionOwedMonths).values(rows);
  return rows;
}
