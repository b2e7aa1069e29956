import { and, count, eq } from 'drizzle-orm';
import { paymentAgreements } from '../../db/schema/index.ts';
import { registerWorkQueue } from '../home/queues.ts';

/** Those who manage agreements (restructure them): the ones in default (the remaining debt due at once), in their scope. */
registerWorkQueue({
  id: 'payment-agreements-defaulted',
  title: 'Convenios incumplidos',
  permission: { resource: 'payment-agreements', action: 'UPDATE' },
  link: '/planilla/convenios-pago?state=INCUMPLIDO',
  count: async (ctx) => {
    const [row] = await ctx.db
      .select({ n: count() })
      .from(paymentAgreements)
      .where(and(eq(paymentAgreements.state, 'INCUMPLIDO'), ctx.inScope(paymentAgreements.entityId)));
    return row?.n ?? 0;
  },
});
