import { appInfoSchema } from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Title, acronym and credit of this installation (config), shown by the shell before and after sign-in. */
export const appInfoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/app-info',
    {
      config: { access: 'public' },
      schema: { tags: ['platform'], summary: 'Datos públicos de la aplicación', response: { 200: appInfoSchema } },
    },
    async () => ({
      title: app.config.APP_TITLE,
      acronym: app.config.APP_ACRONYM,
      credit: app.config.APP_CREDIT,
      version: app.config.version,
    }),
  );
};
