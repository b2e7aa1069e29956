import { currentUserSchema, idParamsSchema, profileUpdateSchema, refSchema, sessionSchema } from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/http.ts';
import { getProfile, listOwnSessions, revokeOtherSessions, revokeOwnSession, updateProfile } from './service.ts';

const profileSchema = currentUserSchema.extend({
  roles: z.array(refSchema),
  lastLoginAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});

/** Own profile and sessions: any signed-in user, also while a password change is pending. */
export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/profile',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['profile'], summary: 'Mi perfil', response: { 200: profileSchema, ...errorResponses(401) } },
    },
    async (request) => getProfile({ db: app.db, auth: request.auth! }),
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
    async (request) => updateProfile({ db: app.db, auth: request.auth!, data: request.body }),
  );

  app.get(
    '/api/profile/sessions',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['profile'],
        summary: 'Mis sesiones abiertas',
        response: { 200: z.array(sessionSchema), ...errorResponses(401) },
      },
    },
    async (request) => listOwnSessions({ db: app.db, auth: request.auth! }),
  );

  app.delete(
    '/api/profile/sessions/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['profile'],
        summary: 'Cerrar una de mis sesiones',
        params: idParamsSchema,
        response: { 204: z.null(), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await revokeOwnSession({ db: app.db, auth: request.auth!, id: request.params.id });
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
        response: { 200: z.object({ revoked: z.number().int() }), ...errorResponses(401) },
      },
    },
    async (request) => revokeOtherSessions({ db: app.db, auth: request.auth! }),
  );
};
