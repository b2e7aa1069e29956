/**
 * The payments module's HTTP plugin: what the module adds to the home page (its work queues), the PDFs its
 * mails attach and the daily reminders of orders about to fall due (issue 29), and its
 * routes by sub-domain (orders, payments, bank files, receipts and ranges, voluntary payments).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerPaymentMailAttachments } from './mail-events.ts';
import { registerPaymentQueues } from './queues.ts';
import { registerOrderReminders } from './reminders.ts';
import { bankFileRoutes } from './routes-bank-files.ts';
import { orderRoutes } from './routes-orders.ts';
import { paymentRecordRoutes } from './routes-payments.ts';
import { receiptRoutes } from './routes-receipts.ts';
import { voluntaryRoutes } from './routes-voluntary.ts';

export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  registerPaymentQueues();
  registerPaymentMailAttachments(app.config);
  registerOrderReminders();

  await app.register(orderRoutes);
  await app.register(paymentRecordRoutes);
  await app.register(bankFileRoutes);
  await app.register(receiptRoutes);
  await app.register(voluntaryRoutes);
};
