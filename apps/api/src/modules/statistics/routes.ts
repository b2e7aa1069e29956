import { statisticsPanelListSchema } from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
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
        response: { 200: statisticsPanelListSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => loadStatistics(request.ctx),
  );
};
