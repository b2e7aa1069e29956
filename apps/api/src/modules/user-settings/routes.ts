import { layoutSettingsOutputSchema, layoutSettingsSchema } from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http.ts';
import { getLayoutSettings, saveLayoutSettings } from './service.ts';

/** The shell's layout settings follow the user to any computer: stored on the server, one per user. */
export const userSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/user-settings/layout',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['user-settings'],
        summary: 'Mi configuración de la interfaz',
        response: { 200: layoutSettingsOutputSchema, ...errorResponses(401) },
      },
    },
    async (request) => getLayoutSettings(request.ctx),
  );

  app.put(
    '/api/user-settings/layout',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['user-settings'],
        summary: 'Guardar mi configuración de la interfaz',
        body: layoutSettingsSchema,
        response: { 200: layoutSettingsOutputSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => saveLayoutSettings(request.ctx, request.body),
  );
};
