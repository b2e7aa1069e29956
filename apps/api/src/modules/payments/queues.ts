import { guatemalaToday } from '@aporta/domain';
import { and, count, sql } from 'drizzle-orm';
import { paymentOrders } from '../../db/schema/index.ts';
import { registerWorkQueue } from '../home/queues.ts';

/**
 * Those who chase payments — the cashiers and treasury who register them: orders past their due date and
 * unpaid, in their scope. A queue is work to do, so a read-only grant (Consulta) does not bring it.
 */
registerWorkQueue({
  id: 'payment-orders-overdue',
  title: 'Órdenes de pago vencidas',
  permission: { resource: 'planilla-payments', action: 'CREATE' },
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
