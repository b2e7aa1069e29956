import { healthSchema } from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HealthProbe } from '../../platform/health.ts';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  // The priority pool (PostgreSQL), and never waiting in the embedded database's queue (platform/health.ts).
  const probe = new HealthProbe(app.database.priorityDb);
  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: { tags: ['platform'], summary: 'Estado del servicio', response: { 200: healthSchema, 503: healthSchema } },
    },
    async (_request, reply) => {
      const base = { database: app.database.kind, version: app.config.version };
      if (await probe.healthy()) return { status: 'ok' as const, ...base };
      return reply.status(503).send({ status: 'error' as const, ...base });
    },
  );
};
