import { workQueueListSchema } from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http.ts';
import { findWorkQueues } from './queues.ts';

export const homeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/home/queues',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['home'],
        summary: 'Colas de trabajo del usuario (pendientes por módulo, dentro de su alcance)',
        response: { 200: workQueueListSchema, ...errorResponses(401) },
      },
    },
    async (request) => findWorkQueues(request.ctx),
  );
};
