import { guatemalaToday } from '@aporta/domain';
import { and, count, sql } from 'drizzle-orm';
import { paymentOrders } from '../../db/schema/index.ts';
import { registerWorkQueue } from '../home/queues.ts';

/** Those who chase payments: orders past their due date and unpaid, in their scope. */
registerWorkQueue({
  id: 'payment-orders-overdue',
  title: 'Órdenes de pago vencidas',
  permission: { resource: 'payment-orders', action: 'READ' },
  link: '/ordenes-pago?state=VENCIDA',
  count: async (ctx) => {
    const [row] = await ctx.db
      .select({ n: count() })
      .from(paymentOrders)
      .where(
        and(
          sql`${paymentOrders.state} = 'EMITIDA' and ${paymentOrders.dueDate} < ${guatemalaToday()}::date`,
          ctx.inScope(paymentOrders.entityId),
        ),
      );
    return row?.n ?? 0;
  },
});
