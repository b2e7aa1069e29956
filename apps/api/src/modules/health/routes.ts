import { healthSchema } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: { tags: ['platform'], summary: 'Estado del servicio', response: { 200: healthSchema, 503: healthSchema } },
    },
    async (_request, reply) => {
      const base = { database: app.database.kind, version: app.config.version };
      try {
        await app.db.execute(sql`select 1`);
        return { status: 'ok' as const, ...base };
      } catch {
        return reply.status(503).send({ status: 'error' as const, ...base });
      }
    },
  );
};
