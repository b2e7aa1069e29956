// The daily detection of agreements in default or completed, and the notices it sends.
import { agreementMachine, formatDay } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { paymentOrders } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { applyTransition } from '../../platform/transitions.ts';
import { reviewersOf } from '../notifications/recipients.ts';
import { notifyUsers } from '../notifications/service.ts';
import { settingsAt } from '../settings/service.ts';
import { a, l } from './queries.ts';

async function notifyAgreement(
  tx: Db,
  row: { id: number; number: string; entityId: number; createdBy: number | null },
  title: string,
  body: string,
) {
  const users = [...(row.createdBy ? [row.createdBy] : []), ...(await reviewersOf(tx, row.entityId))];
  await notifyUsers({
    db: tx,
    userIds: users,
    type: 'warning',
    title: title.slice(0, 200),
    body,
    link: `/planilla/convenios-pago/${row.id}`,
  });
}

/**
 * Agreements in force (`a`) that have, as of `asOf`, `limit` or more live instalments unpaid and overdue:
 * those the detection puts in default. Also the home queue's check that the detection is up to date.
 */
export const defaultCandidatesSql = (asOf: string, limit: number) => sql`a.state = 'VIGENTE' and (
  select count(*) from ${l} x join ${paymentOrders} o on o.id = x.order_id
  where x.agreement_id = a.id and x.role = 'CUOTA' and x.replaced_at is null
    and o.state = 'EMITIDA' and o.due_date < ${asOf}::date) >= ${limit}`;

/**
 * Default and completion as of `asOf` (idempotent): a current agreement with as many instalments overdue
 * as the limit in settings becomes INCUMPLIDO and its remaining instalments fall due that day; one whose
 * instalments are all paid becomes CUMPLIDO. Candidates are found set-based (one statement each over
 * every agreement); each change is its own short transaction (state history, audit, notification).
 */
export async function detectAgreements(
  ctx: RequestContext,
  asOf: string,
  progress?: (done: number, total: number) => Promise<void>,
): Promise<{ asOf: string; defaulted: number; completed: number }> {
  const s = await settingsAt(ctx.db, asOf);
  const limit = s.values['agreements.overdueInstalmentsForDefault'];
  const scope = ctx.inScope(sql`a.entity_id`);
  const scoped = scope ? sql`and ${scope}` : sql``;
  const defaults = rowsOf<{ id: number }>(
    await ctx.db.execute(sql`
      select a.id from ${a} a
      where ${defaultCandidatesSql(asOf, limit)} ${scoped}
      order by a.id`),
  ).map((r) => Number(r.id));
  const completions = rowsOf<{ id: number }>(
    await ctx.db.execute(sql`
      select a.id from ${a} a
      where a.state = 'VIGENTE' ${scoped}
        and not exists (select 1 from ${l} x join ${paymentOrders} o on o.id = x.order_id
          where x.agreement_id = a.id and x.role = 'CUOTA' and x.replaced_at is null and o.state = 'EMITIDA')
        and exists (select 1 from ${l} x join ${paymentOrders} o on o.id = x.order_id
          where x.agreement_id = a.id and x.role = 'CUOTA' and o.state = 'PAGADA')
      order by a.id`),
  ).map((r) => Number(r.id));
  const total = defaults.length + completions.length;
  let done = 0;
  for (const id of defaults) {
    await ctx.db.transaction(async (tx) => {
      const { row } = await applyTransition(ctx, {
        tx,
        machine: agreementMachine,
        table: a,
        id,
        to: 'INCUMPLIDO',
        expected: 'VIGENTE',
        comment: `Cuotas vencidas al ${formatDay(asOf)}: ${limit} o más.`,
        entityId: a.entityId,
        system: true,
        set: () => ({ defaultedOn: asOf, updatedAt: new Date() }),
      });
      // The remaining debt becomes due at once: the instalments not yet due fall due on `asOf`.
      await tx.execute(sql`
        update ${paymentOrders} o set due_date = ${asOf}::date, accrued_to = ${asOf}::date
        from ${l} x
        where x.order_id = o.id and x.agreement_id = ${id} and x.role = 'CUOTA' and x.replaced_at is null
          and o.state = 'EMITIDA' and o.due_date > ${asOf}::date`);
      await notifyAgreement(
        tx,
        row,
        `Convenio ${row.number} incumplido`,
        `Tiene ${limit} o más cuotas vencidas al ${formatDay(asOf)}: el saldo restante es exigible de inmediato.`,
      );
    });
    done += 1;
    if (progress && done % 50 === 0) await progress(done, total);
  }
  for (const id of completions) {
    await ctx.db.transaction(async (tx) => {
      const { row } = await applyTransition(ctx, {
        tx,
        machine: agreementMachine,
        table: a,
        id,
        to: 'CUMPLIDO',
        expected: 'VIGENTE',
        comment: 'Todas las cuotas pagadas.',
        entityId: a.entityId,
        system: true,
        set: () => ({ completedOn: asOf, updatedAt: new Date() }),
      });
      await notifyAgreement(tx, row, `Convenio ${row.number} cumplido`, 'Todas sus cuotas están pagadas.');
    });
    done += 1;
    if (progress && done % 50 === 0) await progress(done, total);
  }
  return { asOf, defaulted: defaults.length, completed: completions.length };
}
