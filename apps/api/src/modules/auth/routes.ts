import { currentUserSchema, loginRequestSchema, loginResponseSchema } from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/http.ts';
import { login, logout } from './service.ts';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/auth/login',
    {
      config: { access: 'public', rateLimit: { max: app.config.LOGIN_RATE_PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Iniciar sesión',
        body: loginRequestSchema,
        response: { 200: loginResponseSchema, ...errorResponses(400, 401, 403, 423, 429) },
      },
    },
    async (request) => {
      const { user, token } = await login({
        db: app.db,
        policy: app.authPolicy,
        ...request.body,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
      return { status: 'success' as const, data: user, token };
    },
  );

  app.post(
    '/api/auth/logout',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['auth'], summary: 'Cerrar sesión', response: { 204: z.null(), ...errorResponses(401) } },
    },
    async (request, reply) => {
      await logout({ db: app.db, auth: request.auth! });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/auth/me',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['auth'], summary: 'Usuario actual', response: { 200: currentUserSchema, ...errorResponses(401) } },
    },
    async (request) => request.auth!.user,
  );
};
