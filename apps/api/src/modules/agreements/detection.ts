// The daily detection of agreements in default or completed, and the notices it sends.
import { agreementMachine, decimalToCents, formatDay } from '@aporta/domain';
import { eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { municipalEntities, paymentOrders } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { applyTransition } from '../../platform/transitions.ts';
import { entityUsersOf, holdersReaching, reviewersOf } from '../notifications/recipients.ts';
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
 * An agreement in default, in the detection's transaction (issue 29): the bell and a mail to the entity's payers
 * (its members who see its orders) and to the agreements staff — its author, the entity's delegates and the
 * holders of payment-agreements APPROVE whose scope reaches the entity.
 */
async function notifyDefault(
  tx: Db,
  row: { id: number; number: string; entityId: number; createdBy: number | null },
  asOf: string,
  limit: number,
  overdue: bigint,
) {
  const [ent] = await tx
    .select({ name: municipalEntities.name })
    .from(municipalEntities)
    .where(eq(municipalEntities.id, row.entityId));
  const users = [
    ...(row.createdBy ? [row.createdBy] : []),
    ...(await reviewersOf(tx, row.entityId)),
    ...(await entityUsersOf(tx, row.entityId, 'payment-orders', 'READ')),
    ...(await holdersReaching(tx, row.entityId, 'payment-agreements', 'APPROVE')),
  ];
  // The link opens what each one may see: the agreement for those who may read it over this entity, the
  // entity's orders (its instalments, now due) for the entity's payers who may not.
  const readers = new Set(await holdersReaching(tx, row.entityId, 'payment-agreements', 'READ'));
  const notice = {
    type: 'warning' as const,
    title: `Convenio ${row.number} incumplido`.slice(0, 200),
    body: `Tiene ${limit} o más cuotas vencidas al ${formatDay(asOf)}: el saldo restante es exigible de inmediato.`,
    mail: {
      event: 'agreement.default' as const,
      params: { agreement: row.number, entity: ent?.name ?? '', since: asOf, amount: overdue },
      dedupeKey: `agreement.default:${row.id}:${asOf}`,
    },
  };
  await notifyUsers({
    db: tx,
    userIds: users.filter((u) => readers.has(u)),
    link: `/planilla/convenios-pago/${row.id}`,
    ...notice,
  });
  await notifyUsers({ db: tx, userIds: users.filter((u) => !readers.has(u)), link: '/ordenes-pago', ...notice });
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
      // What the instalments already overdue owe (before the rest falls due below): the notice's amount.
      const [{ owed }] = rowsOf<{ owed: string | null }>(
        await tx.execute(sql`
          select sum(o.principal - o.principal_paid + o.interest_accrued - o.interest_paid)::text as owed
          from ${l} x join ${paymentOrders} o on o.id = x.order_id
          where x.agreement_id = ${id} and x.role = 'CUOTA' and x.replaced_at is null
            and o.state = 'EMITIDA' and o.due_date < ${asOf}::date`),
      );
      const overdue = decimalToCents(owed ?? '0');
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
      await notifyDefault(tx, row, asOf, limit, overdue);
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
