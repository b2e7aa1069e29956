import { and, count, inArray } from 'drizzle-orm';
import { planillas } from '../../db/schema/index.ts';
import { registerWorkQueue } from '../home/queues.ts';

let registered = false;

/**
 * The planillas' home queues, registered by the module's routes plugin. Idempotent: the app may be built
 * more than once in a process (tests).
 */
export function registerPlanillaQueues(): void {
  if (registered) return;
  registered = true;
  /** A delegate's queue: planillas of their regions submitted or taken for review. */
  registerWorkQueue({
    id: 'planillas-to-review',
    title: 'Planillas por revisar',
    permission: { resource: 'delegate-review', action: 'APPROVE' },
    link: '/planilla/revision-delegado',
    count: async (ctx) => {
      const [row] = await ctx.db
        .select({ n: count() })
        .from(planillas)
        .where(and(inArray(planillas.state, ['ENVIADA', 'EN_REVISION']), ctx.inScope(planillas.entityId)));
      return row?.n ?? 0;
    },
  });

  /** An entity's drafts and observed planillas, waiting for the clerk. */
  registerWorkQueue({
    id: 'planillas-my-drafts',
    title: 'Mis borradores de planilla',
    permission: { resource: 'planillas', action: 'UPDATE' },
    link: '/planilla/carga',
    count: async (ctx) => {
      const [row] = await ctx.db
        .select({ n: count() })
        .from(planillas)
        .where(and(inArray(planillas.state, ['BORRADOR', 'OBSERVADA']), ctx.inScope(planillas.entityId)));
      return row?.n ?? 0;
    },
  });
}
