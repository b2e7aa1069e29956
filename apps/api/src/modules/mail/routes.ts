import {
  idParamsSchema,
  listResponse,
  mailPreferencesInputSchema,
  mailPreferencesViewSchema,
  mailTemplatePreviewQuerySchema,
  mailTemplatePreviewSchema,
  outboxExportQuerySchema,
  outboxListQuerySchema,
  outboxMessageSchema,
  outboxRowSchema,
  outboxStatusSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { registerMailJobs } from './digest.ts';
import { findOutbox, getOutboxMessage, outboxExport, outboxStatus, previewMailTemplate, retryOutboxMessage } from './outbox.ts';
import { getMyMailPreferences, saveMyMailPreferences } from './preferences.ts';

/**
 * Outgoing mail (issue 29): «Correo saliente» for holders of `mail` (the outbox, its counts, a failed message
 * sent again, the templates' preview) and every signed-in user's own mail preferences.
 */
export const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  registerMailJobs();
  const delivery = { sending: !!app.config.SMTP_URL, sender: app.config.MAIL_FROM };

  app.get(
    '/api/mail/outbox',
    {
      config: { access: { resource: 'mail', action: 'READ' } },
      schema: {
        tags: ['mail'],
        summary: 'Correo saliente: mensajes por estado, evento, destinatario y fecha',
        querystring: outboxListQuerySchema,
        response: { 200: listResponse(outboxRowSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findOutbox(request.ctx, request.query),
  );

  app.get(
    '/api/mail/outbox/export',
    {
      config: { access: { resource: 'mail', action: 'EXPORT' }, heavy: true },
      schema: {
        tags: ['mail'],
        summary: 'Exportar el correo saliente con los mismos filtros',
        querystring: outboxExportQuerySchema,
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const plan = outboxExport(request.ctx, query);
      return sendExport(reply, {
        format,
        filename: plan.filename,
        sheetName: 'Correo saliente',
        columns: plan.columns,
        batches: plan.batches,
      });
    },
  );

  app.get(
    '/api/mail/outbox/status',
    {
      config: { access: { resource: 'mail', action: 'READ' } },
      schema: {
        tags: ['mail'],
        summary: 'Mensajes por estado, y si el servidor los envía o solo los guarda',
        response: { 200: outboxStatusSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => outboxStatus(request.ctx, delivery),
  );

  app.get(
    '/api/mail/outbox/:id',
    {
      config: { access: { resource: 'mail', action: 'READ' } },
      schema: {
        tags: ['mail'],
        summary: 'Un mensaje del correo saliente: encabezados, texto, HTML, intentos y último error',
        params: idParamsSchema,
        response: { 200: outboxMessageSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getOutboxMessage(request.ctx, request.params),
  );

  app.post(
    '/api/mail/outbox/:id/retry',
    {
      config: { access: { resource: 'mail', action: 'UPDATE' } },
      schema: {
        tags: ['mail'],
        summary: 'Reintentar un mensaje fallido (vuelve a pendiente)',
        params: idParamsSchema,
        response: { 200: outboxMessageSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => retryOutboxMessage(request.ctx, request.params),
  );

  app.get(
    '/api/mail/templates/preview',
    {
      config: { access: { resource: 'mail', action: 'READ' } },
      schema: {
        tags: ['mail'],
        summary: 'Vista previa de la plantilla de un evento en un idioma, con datos de ejemplo',
        querystring: mailTemplatePreviewQuerySchema,
        response: { 200: mailTemplatePreviewSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => previewMailTemplate(request.query),
  );

  app.get(
    '/api/mail/preferences',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['mail'],
        summary: 'Mis preferencias de correo',
        response: { 200: mailPreferencesViewSchema, ...errorResponses(401) },
      },
    },
    async (request) => getMyMailPreferences(request.ctx),
  );

  app.put(
    '/api/mail/preferences',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['mail'],
        summary: 'Guardar mis preferencias de correo',
        body: mailPreferencesInputSchema,
        response: { 200: mailPreferencesViewSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => saveMyMailPreferences(request.ctx, request.body),
  );
};
