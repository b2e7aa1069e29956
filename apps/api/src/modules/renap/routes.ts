import {
  cuiSchema,
  dateSchema,
  listQuerySchema,
  listResponse,
  renapLookupResponseSchema,
  renapResultSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/http.ts';
import { renapAdapterFor } from './adapter.ts';
import { findRenapLookups, lookupForScreen } from './service.ts';

const lookupLogSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  userEmail: z.string().nullable(),
  cui: z.string(),
  source: z.string(),
  result: renapResultSchema,
  durationMs: z.number().int(),
  purpose: z.string().nullable(),
});

export const renapRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/renap/lookups',
    {
      config: { access: { resource: 'renap', action: 'READ' } },
      schema: {
        tags: ['renap'],
        summary: 'Bitácora de consultas a RENAP',
        querystring: listQuerySchema.extend({
          cui: z
            .string()
            .regex(/^\d{13}$/)
            .optional(),
          from: dateSchema.optional(),
          to: dateSchema.optional(),
        }),
        response: { 200: listResponse(lookupLogSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findRenapLookups({ db: app.db, user: request.auth!.user, query: request.query }),
  );

  app.get(
    '/api/renap/:cui',
    {
      config: { access: { resource: 'renap', action: 'READ' } },
      schema: {
        tags: ['renap'],
        summary: 'Consultar un CUI en RENAP',
        params: z.object({ cui: cuiSchema }),
        response: { 200: renapLookupResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) =>
      lookupForScreen({
        db: app.db,
        adapter: renapAdapterFor(app.config, app.db),
        actor: request.auth!.actor,
        user: request.auth!.user,
        resource: 'renap',
        cui: request.params.cui,
      }),
  );
};
