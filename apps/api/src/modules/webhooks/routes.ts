import {
  idParamsSchema,
  listResponse,
  webhookDeliveryExportQuerySchema,
  webhookDeliveryListQuerySchema,
  webhookDeliverySchema,
  webhookEndpointCreatedSchema,
  webhookEndpointExportQuerySchema,
  webhookEndpointInputSchema,
  webhookEndpointListQuerySchema,
  webhookEndpointSchema,
  webhookEndpointUpdateSchema,
  webhookEntityOptionsSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { findWebhookDeliveries, getWebhookDelivery, resendWebhookDelivery, webhookDeliveriesExport } from './deliveries.ts';
import {
  createWebhookEndpoint,
  findWebhookEndpoints,
  getWebhookEndpoint,
  pingWebhookEndpoint,
  updateWebhookEndpoint,
  webhookEndpointsExport,
  webhookEntityOptions,
} from './endpoints.ts';

/**
 * Signed webhooks (issue 30): endpoints (register, edit, deactivate, «Probar») and their delivery log
 * («Reenviar»), for holders of `webhooks` within its scope. Sending: platform/webhook-dispatcher.ts.
 */
export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/webhooks',
    {
      config: { access: { resource: 'webhooks', action: 'READ' } },
      schema: {
        tags: ['webhooks'],
        summary: 'Webhooks registrados (de las entidades a su alcance)',
        querystring: webhookEndpointListQuerySchema,
        response: { 200: listResponse(webhookEndpointSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findWebhookEndpoints(request.ctx, request.query),
  );

  app.get(
    '/api/webhooks/export',
    {
      config: { access: { resource: 'webhooks', action: 'EXPORT' }, heavy: true },
      schema: {
        tags: ['webhooks'],
        summary: 'Exportar los webhooks con los mismos filtros',
        querystring: webhookEndpointExportQuerySchema,
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const plan = webhookEndpointsExport(request.ctx, query);
      return sendExport(reply, {
        format,
        filename: 'webhooks',
        sheetName: 'Webhooks',
        columns: plan.columns,
        batches: plan.batches,
      });
    },
  );

  app.get(
    '/api/webhooks/entities',
    {
      config: { access: { resource: 'webhooks', action: 'CREATE' } },
      schema: {
        tags: ['webhooks'],
        summary: 'Entidades para las que puede registrar webhooks (y si puede registrarlos para toda la institución)',
        response: { 200: webhookEntityOptionsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => webhookEntityOptions(request.ctx),
  );

  app.post(
    '/api/webhooks',
    {
      config: { access: { resource: 'webhooks', action: 'CREATE' } },
      schema: {
        tags: ['webhooks'],
        summary: 'Registrar un webhook: responde su secreto de firma una sola vez',
        body: webhookEndpointInputSchema,
        response: { 201: webhookEndpointCreatedSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => reply.code(201).send(await createWebhookEndpoint(request.ctx, request.body)),
  );

  app.get(
    '/api/webhooks/:id',
    {
      config: { access: { resource: 'webhooks', action: 'READ' } },
      schema: {
        tags: ['webhooks'],
        summary: 'Un webhook',
        params: idParamsSchema,
        response: { 200: webhookEndpointSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getWebhookEndpoint(request.ctx, request.params),
  );

  app.patch(
    '/api/webhooks/:id',
    {
      config: { access: { resource: 'webhooks', action: 'UPDATE' } },
      schema: {
        tags: ['webhooks'],
        summary: 'Cambiar un webhook: nombre, URL, eventos, activarlo o desactivarlo',
        params: idParamsSchema,
        body: webhookEndpointUpdateSchema,
        response: { 200: webhookEndpointSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => updateWebhookEndpoint(request.ctx, { ...request.body, id: request.params.id }),
  );

  app.post(
    '/api/webhooks/:id/ping',
    {
      config: { access: { resource: 'webhooks', action: 'UPDATE' } },
      schema: {
        tags: ['webhooks'],
        summary: 'Probar un webhook: pone en cola un evento «ping»',
        params: idParamsSchema,
        response: { 200: webhookDeliverySchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => pingWebhookEndpoint(request.ctx, request.params),
  );

  app.get(
    '/api/webhook-deliveries',
    {
      config: { access: { resource: 'webhooks', action: 'READ' } },
      schema: {
        tags: ['webhooks'],
        summary: 'Envíos de webhooks: estado, respuesta del receptor y último error',
        querystring: webhookDeliveryListQuerySchema,
        response: { 200: listResponse(webhookDeliverySchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findWebhookDeliveries(request.ctx, request.query),
  );

  app.get(
    '/api/webhook-deliveries/export',
    {
      config: { access: { resource: 'webhooks', action: 'EXPORT' }, heavy: true },
      schema: {
        tags: ['webhooks'],
        summary: 'Exportar los envíos de webhooks con los mismos filtros',
        querystring: webhookDeliveryExportQuerySchema,
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const plan = webhookDeliveriesExport(request.ctx, query);
      return sendExport(reply, {
        format,
        filename: 'envios-webhooks',
        sheetName: 'Envíos',
        columns: plan.columns,
        batches: plan.batches,
      });
    },
  );

  app.get(
    '/api/webhook-deliveries/:id',
    {
      config: { access: { resource: 'webhooks', action: 'READ' } },
      schema: {
        tags: ['webhooks'],
        summary: 'Un envío de webhook, con el cuerpo enviado y la respuesta',
        params: idParamsSchema,
        response: { 200: webhookDeliverySchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getWebhookDelivery(request.ctx, request.params),
  );

  app.post(
    '/api/webhook-deliveries/:id/resend',
    {
      config: { access: { resource: 'webhooks', action: 'UPDATE' } },
      schema: {
        tags: ['webhooks'],
        summary: 'Reenviar un envío de webhook (vuelve a pendiente, con sus intentos desde cero)',
        params: idParamsSchema,
        response: { 200: webhookDeliverySchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => resendWebhookDelivery(request.ctx, request.params),
  );
};
