import {
  apiTokenCreatedSchema,
  apiTokenEntitySchema,
  apiTokenExportQuerySchema,
  apiTokenInputSchema,
  apiTokenListQuerySchema,
  apiTokenSchema,
  idParamsSchema,
  listResponse,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { apiTokenEntities, apiTokensExport, createApiToken, findApiTokens, revokeApiToken } from './service.ts';

const tags = ['api-tokens'];

/**
 * «Tokens de integración» (issue 30): create (the token answered once), list (never the hash), export,
 * revoke, and the entities a token may be created for. Using a token is the access guard's (platform/access.ts).
 */
export const apiTokenRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/api-tokens',
    {
      config: { access: { resource: 'api-tokens', action: 'READ' } },
      schema: {
        tags,
        summary: 'Tokens de integración de las entidades a su alcance (sin el token ni su huella)',
        querystring: apiTokenListQuerySchema,
        response: { 200: listResponse(apiTokenSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findApiTokens(request.ctx, request.query),
  );

  app.get(
    '/api/api-tokens/export',
    {
      config: { access: { resource: 'api-tokens', action: 'EXPORT' }, heavy: true },
      schema: {
        tags,
        summary: 'Exportar los tokens de integración con los mismos filtros',
        querystring: apiTokenExportQuerySchema,
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const plan = apiTokensExport(request.ctx, query);
      return sendExport(reply, {
        format,
        filename: 'tokens-integracion',
        sheetName: 'Tokens de integración',
        columns: plan.columns,
        batches: plan.batches,
      });
    },
  );

  app.get(
    '/api/api-tokens/entities',
    {
      config: { access: { resource: 'api-tokens', action: 'CREATE' } },
      schema: {
        tags,
        summary: 'Entidades para las que puede crear tokens',
        response: { 200: z.array(apiTokenEntitySchema), ...errorResponses(401, 403) },
      },
    },
    async (request) => apiTokenEntities(request.ctx),
  );

  app.post(
    '/api/api-tokens',
    {
      config: { access: { resource: 'api-tokens', action: 'CREATE' } },
      schema: {
        tags,
        summary:
          'Crear un token de integración para una entidad, con permisos que usted tiene sobre ella y un vencimiento de hasta un año; el token se muestra solo en esta respuesta',
        body: apiTokenInputSchema,
        response: { 201: apiTokenCreatedSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => reply.status(201).send(await createApiToken(request.ctx, request.body)),
  );

  app.post(
    '/api/api-tokens/:id/revoke',
    {
      config: { access: { resource: 'api-tokens', action: 'DELETE' } },
      schema: {
        tags,
        summary: 'Revocar un token de integración: deja de funcionar de inmediato en todos los procesos',
        params: idParamsSchema,
        response: { 200: apiTokenSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => revokeApiToken(request.ctx, { id: request.params.id }),
  );
};
