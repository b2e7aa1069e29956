import {
  idParamsSchema,
  noContentSchema,
  profileSchema,
  profileUpdateSchema,
  revokedSessionsSchema,
  sessionListSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http.ts';
import { getProfile, listOwnSessions, revokeOtherSessions, revokeOwnSession, updateProfile } from './service.ts';

/** Own profile and sessions: any signed-in user, also while a password change is pending. */
export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/profile',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['profile'], summary: 'Mi perfil', response: { 200: profileSchema, ...errorResponses(401) } },
    },
    async (request) => getProfile(request.ctx),
  );

  app.put(
    '/api/profile',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['profile'],
        summary: 'Modificar mis datos',
        body: profileUpdateSchema,
        response: { 200: profileSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => updateProfile(request.ctx, request.body),
  );

  app.get(
    '/api/profile/sessions',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['profile'],
        summary: 'Mis sesiones abiertas',
        response: { 200: sessionListSchema, ...errorResponses(401) },
      },
    },
    async (request) => listOwnSessions(request.ctx),
  );

  app.delete(
    '/api/profile/sessions/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['profile'],
        summary: 'Cerrar una de mis sesiones',
        params: idParamsSchema,
        response: { 204: noContentSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await revokeOwnSession(request.ctx, request.params);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/profile/sessions/revoke-others',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['profile'],
        summary: 'Cerrar mis otras sesiones',
        response: { 200: revokedSessionsSchema, ...errorResponses(401) },
      },
    },
    async (request) => revokeOtherSessions(request.ctx),
  );
};
