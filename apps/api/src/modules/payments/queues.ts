/** The payments module's work queues on the home page: overdue orders, and bank rows matched without a payment (stranded money). */
import { guatemalaToday } from '@aporta/domain';
import { and, count, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.ts';
import { bankFileRows, paymentOrders } from '../../db/schema/index.ts';
import { registerWorkQueue } from '../home/queues.ts';
import { strandedRowsSql } from './bank-files.ts';

let registered = false;

/** Registers the queues; called once by the module's routes plugin (again: nothing happens). */
export function registerPaymentQueues(): void {
  if (registered) return;
  registered = true;
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

  /**
   * Stranded money: bank file rows matched to an order whose payment was not registered — left NO_APLICADA by
   * an apply job that failed for good or was cancelled, or matched with no job left to apply them. Bank files
   * are the central treasury's (scope ALL); the tab lists the files and rows, to apply again or resolve.
   */
  registerWorkQueue({
    id: 'bank-rows-not-applied',
    title: 'Depósitos bancarios conciliados sin pago registrado',
    permission: { resource: 'planilla-payments', action: 'CREATE' },
    allScope: true,
    alert: true,
    link: '/planilla/pagos-planillas?tab=bank',
    count: async (ctx) => {
      const [row] = rowsOf<{ n: number }>(
        await ctx.db.execute(sql`select count(*)::int as n from ${bankFileRows} b
          where b.state = 'NO_APLICADA' or (${strandedRowsSql})`),
      );
      return Number(row?.n ?? 0);
    },
  });
}
