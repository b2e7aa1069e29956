/** The pensions module's work queues on the home page: survival checks due this week, death reviews to decide. */
import { addDays } from '@aporta/domain';
import { and, count, eq, gte, lte } from 'drizzle-orm';
import { pensionReviews, pensions } from '../../db/schema/index.ts';
import { registerWorkQueue } from '../home/queues.ts';
import { today } from './service.ts';

let registered = false;

/** Registers the queues; called once by the module's routes plugin (again: nothing happens). */
export function registerPensionQueues(): void {
  if (registered) return;
  registered = true;
  /**
   * Survival checks whose due birthday falls this week (today and the next six days), active pensions: work
   * for whoever registers checks (a read-only user has no task here).
   */
  registerWorkQueue({
    id: 'survival-due-this-week',
    title: 'Supervivencias que vencen esta semana',
    permission: { resource: 'supervivencia', action: 'CREATE' },
    link: '/contributors/supervivencia',
    count: async (ctx) => {
      const from = today();
      const [row] = await ctx.db
        .select({ n: count() })
        .from(pensions)
        .where(
          and(
            eq(pensions.state, 'ACTIVA'),
            gte(pensions.survivalDue, from),
            lte(pensions.survivalDue, addDays(from, 6)),
            ctx.inScope(pensions.entityId),
          ),
        );
      return row?.n ?? 0;
    },
  });

  /** Reviews opened by RENAP death records, waiting for a decision. */
  registerWorkQueue({
    id: 'pension-death-reviews',
    title: 'Revisiones por fallecimiento (RENAP)',
    permission: { resource: 'supervivencia', action: 'APPROVE' },
    link: '/contributors/supervivencia?tab=reviews',
    count: async (ctx) => {
      const [row] = await ctx.db
        .select({ n: count() })
        .from(pensionReviews)
        .innerJoin(pensions, eq(pensions.id, pensionReviews.pensionId))
        .where(and(eq(pensionReviews.state, 'ABIERTA'), ctx.inScope(pensions.entityId)));
      return row?.n ?? 0;
    },
  });
}
