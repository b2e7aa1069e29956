/** The numbers of 7-B receipts: the next number of an office's active range, and the warnings as a range runs out. */
import { AppError, guatemalaToday, type Message, msg } from '@aporta/domain';
import { desc, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { receiptRanges, settingValues } from '../../db/schema/index.ts';

// ─── Receipt numbers ────────────────────────────────────────────────────────────────────────────────

/**
 * Takes the next number of the office's active range, in the caller's transaction: one conditional
 * `UPDATE … SET next_number = next_number + 1 … RETURNING`. The row lock it takes is held until the
 * payment commits, so concurrent payments (in this process or any other on the same database) queue on
 * it and each sees the number the previous one left: consecutive, no gap (a rolled-back payment rolls
 * its number back too — no sequence, which would leave a gap), no reuse. A range that runs out moves to
 * AGOTADO in the same statement and the next authorised range of the office takes over.
 */
export async function takeReceiptNumber(tx: Db, office: string) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const [candidate] = await tx
      .select({ id: receiptRanges.id })
      .from(receiptRanges)
      .where(
        sql`${receiptRanges.office} = ${office} and ${receiptRanges.state} = 'ACTIVO' and ${receiptRanges.nextNumber} <= ${receiptRanges.lastNumber}`,
      )
      .orderBy(receiptRanges.authorizationDate, receiptRanges.firstNumber, receiptRanges.id)
      .limit(1);
    if (!candidate) {
      throw new AppError('CONFLICT', msg('payments.noActiveRange', { office }));
    }
    const [taken] = rowsOf<{ id: number; series: string; number: number; last_number: number }>(
      await tx.execute(sql`
        update ${receiptRanges} set next_number = next_number + 1,
          state = case when next_number + 1 > last_number then 'AGOTADO' else state end
        where id = ${candidate.id} and state = 'ACTIVO' and next_number <= last_number
        returning id, series, next_number - 1 as number, last_number`),
    );
    if (taken)
      return {
        rangeId: Number(taken.id),
        series: taken.series,
        number: Number(taken.number),
        remaining: Number(taken.last_number) - Number(taken.number),
      };
    // Another payment took the last number of that range meanwhile: look again.
  }
  throw new AppError('CONFLICT', msg('payments.receiptNumberNotTaken'));
}

/** The warnings of a payment whose receipt took a number of a range running out (none above the threshold). */
export async function rangeWarnings(tx: Db, office: string, remainingInRange: number, series: string): Promise<Message[]> {
  const threshold = await rangeWarningThreshold(tx);
  if (remainingInRange > threshold) return [];
  const [others] = rowsOf<{ n: number }>(
    await tx.execute(sql`select coalesce(sum(last_number - next_number + 1), 0)::int as n from ${receiptRanges}
      where office = ${office} and state = 'ACTIVO' and series <> ${series}`),
  );
  const next = Number(others?.n ?? 0);
  return [
    remainingInRange === 0
      ? msg(next ? 'payments.rangeExhaustedNextTakesOver' : 'payments.rangeExhaustedRegisterNext', { series })
      : msg(next ? 'payments.rangeRunningOut' : 'payments.rangeRunningOutNoOther', {
          remaining: remainingInRange,
          series,
          office,
        }),
  ];
}

/** The warning threshold in force today: one indexed read of the one setting (every payment asks). */
export async function rangeWarningThreshold(db: Db): Promise<number> {
  const [r] = await db
    .select({ value: settingValues.value })
    .from(settingValues)
    .where(
      sql`${settingValues.key} = 'receipts.rangeWarningRemaining' and ${settingValues.cancelledAt} is null and ${settingValues.effectiveFrom} <= ${guatemalaToday()}`,
    )
    .orderBy(desc(settingValues.effectiveFrom))
    .limit(1);
  return r ? Number(r.value) : 0;
}
