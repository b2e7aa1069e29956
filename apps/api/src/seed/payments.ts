import { addDays, centsToDecimal, guatemalaToday } from '@aporta/domain';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { municipalEntities, paymentOrders, planillas, receiptRanges } from '../db/schema/index.ts';
import { insertOrder } from '../modules/payments/orders.ts';
import { registerPayment } from '../modules/payments/payments.ts';
import { systemContext } from '../platform/context.ts';

/**
 * Demo payments (DEMO_DATA only): a 7-B range for the central office, the two orders of every approved
 * demo planilla (issued on its approval date), and payments for all but the last three months — one of
 * them in two parts — so the orders, receipts, corte de formas, histories and overdue lists have data.
 * Idempotent: nothing happens when any order exists.
 */
export async function seedPaymentDemo(db: Db): Promise<void> {
  const [{ n }] = await db.select({ n: count() }).from(paymentOrders);
  if (n > 0) return;
  await seedNoticeAddressesDemo(db);
  const ctx = systemContext(db);
  const [{ r }] = await db.select({ r: count() }).from(receiptRanges);
  if (r === 0) {
    await db.insert(receiptRanges).values([
      {
        office: 'CENTRAL',
        series: 'A',
        firstNumber: 1,
        lastNumber: 5000,
        nextNumber: 1,
        authorizationRef: 'CGC-DAJ-0123-2025',
        authorizationDate: '2025-01-15',
      },
      {
        office: 'CENTRAL',
        series: 'B',
        firstNumber: 1,
        lastNumber: 5000,
        nextNumber: 1,
        authorizationRef: 'CGC-DAJ-0456-2026',
        authorizationDate: '2026-01-12',
      },
    ]);
  }
  const approved = await db
    .select()
    .from(planillas)
    .where(and(eq(planillas.state, 'APROBADA'), eq(planillas.type, 'ORDINARIA')))
    .orderBy(asc(planillas.period), asc(planillas.id));
  if (!approved.length) return;
  const today = guatemalaToday();
  // Orders for the last six months declared (the module starts issuing them then); the last three unpaid.
  const periods = [...new Set(approved.map((p) => p.period))].sort().slice(-6);
  const unpaidFrom = periods[Math.max(0, periods.length - 3)];
  let k = 0;
  for (const p of approved) {
    if (p.period < periods[0]) continue;
    const issueDate = (p.decidedAt ?? new Date()).toISOString().slice(0, 10);
    const ids = await db.transaction(async (tx) => {
      const out: { id: number; principal: bigint; dueDate: string }[] = [];
      for (const [kind, amount] of [
        ['LABORAL', p.totalEmployee],
        ['PATRONAL', p.totalEmployer],
      ] as const) {
        if (amount <= 0n) continue;
        const o = await insertOrder(ctx, tx, {
          kind,
          entityId: p.entityId,
          planillaId: p.id,
          period: p.period,
          principal: amount,
          issueDate: [issueDate, today].sort()[0],
        });
        out.push({ id: o.id, principal: o.principal, dueDate: o.dueDate });
      }
      return out;
    });
    if (p.period >= unpaidFrom) continue;
    for (const o of ids) {
      k += 1;
      const payDate = [addDays(o.dueDate, -3), issueDate].sort()[1];
      const date = [payDate, today].sort()[0];
      const parts = k % 7 === 0 ? [o.principal / 2n, o.principal - o.principal / 2n] : [o.principal];
      for (const [j, part] of parts.entries()) {
        await registerPayment(ctx, {
          idempotencyKey: `demo-${o.id}-${j}`,
          bankReference: `DEMO-${o.id}-${j}`,
          orderIds: [o.id],
          bank: k % 2 ? 'Banrural' : 'Banco Industrial',
          payDate: date,
          amount: centsToDecimal(part),
          office: 'CENTRAL',
        });
      }
    }
  }
}

/**
 * Demo only: the entities with demo planillas get a (fictitious, non-routable) address for arrears notices, so a
 * campaign started from the ranking has somewhere to send; entities without planillas keep none and show
 * «Sin dirección». Seeded once, with the first demo orders.
 */
async function seedNoticeAddressesDemo(db: Db): Promise<void> {
  const withPlanillas = db.selectDistinct({ id: planillas.entityId }).from(planillas);
  await db
    .update(municipalEntities)
    .set({ noticeEmails: sql`'tesoreria.' || lower(${municipalEntities.code}) || '@demo.aporta.local'` })
    .where(and(isNull(municipalEntities.noticeEmails), inArray(municipalEntities.id, withPlanillas)));
}
