/** The routes of voluntary payments (orders, limits, issuing one) and of the collection statistics. */
import {
  collectionStatsQuerySchema,
  collectionStatsSchema,
  listResponse,
  paymentOrderListQuerySchema,
  paymentOrderSchema,
  voluntaryLimitsSchema,
  voluntaryOrderCreateSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http.ts';
import { findOrders } from './order-views.ts';
import { collectionStats, createVoluntaryOrder, voluntaryLimits } from './voluntary.ts';

const tags = ['pagos'];

export const voluntaryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/voluntary-payments',
    {
      config: { access: { resource: 'voluntary-payments', action: 'READ' } },
      schema: {
        tags,
        summary: 'Órdenes de pago voluntario',
        querystring: paymentOrderListQuerySchema,
        response: { 200: listResponse(paymentOrderSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findOrders(request.ctx, { ...request.query, kind: 'VOLUNTARIO' }),
  );

  app.get(
    '/api/voluntary-payments/limits',
    {
      config: { access: { resource: 'voluntary-payments', action: 'READ' } },
      schema: {
        tags,
        summary: 'Límites del salario declarado y tasas vigentes del pago voluntario',
        response: { 200: voluntaryLimitsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => voluntaryLimits(request.ctx),
  );

  app.post(
    '/api/voluntary-payments',
    {
      config: { access: { resource: 'voluntary-payments', action: 'CREATE' } },
      schema: {
        tags,
        summary: 'Emitir una orden de pago voluntario: ambas cuotas de los meses elegidos sobre el salario declarado',
        body: voluntaryOrderCreateSchema,
        response: { 201: paymentOrderSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await createVoluntaryOrder(request.ctx, request.body)),
  );
  // ─── Statistics ───
  app.get(
    '/api/statistics/collection',
    {
      config: { access: { resource: 'statistics', action: 'READ' } },
      schema: {
        tags,
        summary: 'Recaudación por mes frente a lo declarado, y saldo vencido por región',
        querystring: collectionStatsQuerySchema,
        response: { 200: collectionStatsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => collectionStats(request.ctx, request.query),
  );
};
