import { formatDay, pensionMachine, suspendIfDueBefore } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { pensionSuspensions, pensions } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { applyTransitionWhere } from '../../platform/transitions.ts';
import { findUserIdsWithPermission } from '../auth/service.ts';
import { notifyUsers } from '../notifications/service.ts';
import { settingsAt } from '../settings/service.ts';

/**
 * Suspends every active pension whose survival check is overdue beyond grace on `asOf` (settings of
 * that day): one set-based transition (history and audit included), then one suspension row per
 * pension dated the day after its grace ended, then a notification to the holders of supervivencia
 * READ. Idempotent: run twice, the second finds nothing. Callers: the daily job.
 */
export async function suspendOverdue(ctx: RequestContext, asOf: string) {
  const s = (await settingsAt(ctx.db, asOf)).values;
  const cutoff = suspendIfDueBefore(asOf, s);
  const days = s['survival.windowDaysAfterBirthday'] + s['survival.graceDays'] + 1;
  const moved = await ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const rows = await applyTransitionWhere(ctx, {
      tx: db,
      machine: pensionMachine,
      table: pensions,
      from: 'ACTIVA',
      to: 'SUSPENDIDA',
      where: sql`${pensions.survivalDue} < ${cutoff}`,
      comment: `Supervivencia no presentada dentro del plazo y la gracia (al ${formatDay(asOf)}).`,
      entityId: pensions.entityId,
      set: sql`"updated_at" = now()`,
    });
    if (rows.length) {
      await db.execute(sql`
        insert into ${pensionSuspensions} (pension_id, reason, from_date, comment)
        select p.id, 'SUPERVIVENCIA', least(p.survival_due + ${days}::int, ${asOf}::date), ${`Suspendida por el proceso diario del ${formatDay(asOf)}.`}
          from ${pensions} p where p.id = any(${`{${rows.map((r) => r.id).join(',')}}`}::int[])`);
      // Whoever handles survival checks hears of it, in the same transaction. No count or names: a
      // holder's grant may be limited to some entities, and the overdue list they open is scoped.
      await notifyUsers({
        db,
        userIds: await findUserIdsWithPermission(db, 'supervivencia', 'APPROVE'),
        type: 'warning',
        title: `Pensiones suspendidas por supervivencia no presentada (proceso del ${formatDay(asOf)})`,
        body: 'El proceso diario suspendió las pensiones cuya supervivencia venció con su plazo de gracia. Al presentarla, la pensión se reactiva y los meses suspendidos quedan marcados para pago.',
        link: '/contributors/supervivencia?tab=overdue',
      });
    }
    return rows;
  });
  return { asOf, cutoff, suspended: moved.length };
}
