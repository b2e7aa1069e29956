/**
 * The payments module's HTTP plugin: what the module adds to the home page (its work queues) and its
 * routes by sub-domain (orders, payments, bank files, receipts and ranges, voluntary payments).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bankFileRoutes } from './bank-file-routes.ts';
import { orderRoutes } from './order-routes.ts';
import { paymentRecordRoutes } from './payment-routes.ts';
import { registerPaymentQueues } from './queues.ts';
import { receiptRoutes } from './receipt-routes.ts';
import { voluntaryRoutes } from './voluntary-routes.ts';

export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  registerPaymentQueues();

  await app.register(orderRoutes);
  await app.register(paymentRecordRoutes);
  await app.register(bankFileRoutes);
  await app.register(receiptRoutes);
  await app.register(voluntaryRoutes);
};
