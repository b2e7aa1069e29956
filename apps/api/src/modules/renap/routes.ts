import {
  cuiParamsSchema,
  listResponse,
  renapLookupLogSchema,
  renapLookupQuerySchema,
  renapLookupResponseSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http.ts';
import { renapAdapterFor } from './adapter.ts';
import { findRenapLookups, lookupForScreen } from './service.ts';

export const renapRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/renap/lookups',
    {
      config: { access: { resource: 'renap', action: 'READ' } },
      schema: {
        tags: ['renap'],
        summary: 'Bitácora de consultas a RENAP',
        querystring: renapLookupQuerySchema,
        response: { 200: listResponse(renapLookupLogSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findRenapLookups(request.ctx, request.query),
  );

  app.get(
    '/api/renap/:cui',
    {
      config: { access: { resource: 'renap', action: 'READ' } },
      schema: {
        tags: ['renap'],
        summary: 'Consultar un CUI en RENAP',
        params: cuiParamsSchema,
        response: { 200: renapLookupResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => lookupForScreen(request.ctx, { adapter: renapAdapterFor(app.config, app.db), cui: request.params.cui }),
  );
};
