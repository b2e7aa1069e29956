import {
  cancelSettingSchema,
  scheduleSettingSchema,
  settingHistorySchema,
  settingKeyParamsSchema,
  settingsOverviewSchema,
  settingValueEntrySchema,
  settingValueParamsSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http.ts';
import { cancelSetting, listSettings, scheduleSetting, settingHistory } from './service.ts';

/** Administración → Parámetros: the effective-dated settings (resource `settings`). */
export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['settings'];

  app.get(
    '/api/settings',
    {
      config: { access: { resource: 'settings', action: 'READ' } },
      schema: {
        tags,
        summary: 'Parámetros con su valor vigente hoy y el próximo programado',
        response: { 200: settingsOverviewSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => listSettings(request.ctx),
  );

  app.get(
    '/api/settings/:key/history',
    {
      config: { access: { resource: 'settings', action: 'READ' } },
      schema: {
        tags,
        summary: 'Historial de valores de un parámetro (también los anulados)',
        params: settingKeyParamsSchema,
        response: { 200: settingHistorySchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => settingHistory(request.ctx, { key: request.params.key }),
  );

  app.post(
    '/api/settings/:key/values',
    {
      config: { access: { resource: 'settings', action: 'UPDATE' } },
      schema: {
        tags,
        summary: 'Programar un valor desde una fecha, con motivo',
        params: settingKeyParamsSchema,
        body: scheduleSettingSchema,
        response: { 201: settingValueEntrySchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const entry = await scheduleSetting(request.ctx, { key: request.params.key, data: request.body });
      return reply.code(201).send(entry);
    },
  );

  app.post(
    '/api/settings/:key/values/:id/cancel',
    {
      config: { access: { resource: 'settings', action: 'UPDATE' } },
      schema: {
        tags,
        summary: 'Anular un valor programado que aún no rige, con motivo',
        params: settingValueParamsSchema,
        body: cancelSettingSchema,
        response: { 200: settingValueEntrySchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => cancelSetting(request.ctx, { key: request.params.key, id: request.params.id, data: request.body }),
  );
};
