import { statisticsPanelSchema } from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/http.ts';
import { loadStatistics } from './service.ts';

export const statisticsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/statistics',
    {
      config: { access: { resource: 'statistics', action: 'READ' } },
      schema: {
        tags: ['statistics'],
        summary: 'Paneles de estadísticas',
        response: { 200: z.array(statisticsPanelSchema), ...errorResponses(401, 403) },
      },
    },
    async (request) => loadStatistics({ db: app.db, user: request.auth!.user }),
  );
};
