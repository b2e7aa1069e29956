/**
 * The payments module's HTTP plugin: what the module adds to the home page (its work queues) and its
 * routes by sub-domain (orders, payments, bank files, receipts and ranges, voluntary payments).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerPaymentQueues } from './queues.ts';
import { bankFileRoutes } from './routes-bank-files.ts';
import { orderRoutes } from './routes-orders.ts';
import { paymentRecordRoutes } from './routes-payments.ts';
import { receiptRoutes } from './routes-receipts.ts';
import { voluntaryRoutes } from './routes-voluntary.ts';

export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  registerPaymentQueues();

  await app.register(orderRoutes);
  await app.register(paymentRecordRoutes);
  await app.register(bankFileRoutes);
  await app.register(receiptRoutes);
  await app.register(voluntaryRoutes);
};
