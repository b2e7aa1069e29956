import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/http.ts';
import { findWorkQueues } from './queues.ts';

const queueSchema = z.object({ id: z.string(), title: z.string(), link: z.string(), count: z.number().int() });

export const homeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/home/queues',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['home'],
        summary: 'Colas de trabajo del usuario (pendientes por módulo, dentro de su alcance)',
        response: { 200: z.object({ items: z.array(queueSchema) }), ...errorResponses(401) },
      },
    },
    async (request) => ({ items: await findWorkQueues({ db: app.db, user: request.auth!.user }) }),
  );
};
