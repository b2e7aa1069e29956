// Routes of a planilla's lines: listing them and editing them on screen.
import {
  idParamsSchema,
  idTextSchema,
  listResponse,
  planillaLineInputSchema,
  planillaLineSchema,
  planillaLinesQuerySchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/http.ts';
import { addPlanillaLine, findPlanillaLines, removePlanillaLine, updatePlanillaLine } from './lines.ts';

const tags = ['planillas'];
const lineParams = z.object({ id: idTextSchema, lineId: idTextSchema });

export const planillaLineRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/planillas/:id/lines',
    {
      config: { access: { resource: 'planillas', action: 'READ' } },
      schema: {
        tags,
        summary: 'Líneas de una planilla, paginadas; búsqueda por CUI o nombre; solo las que tienen errores o advertencias',
        params: idParamsSchema,
        querystring: planillaLinesQuerySchema,
        response: { 200: listResponse(planillaLineSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => findPlanillaLines(request.ctx, { id: request.params.id, query: request.query }),
  );

  app.post(
    '/api/planillas/:id/lines',
    {
      config: { access: { resource: 'planillas', action: 'UPDATE' } },
      schema: {
        tags,
        summary: 'Agregar una línea a una planilla en borrador u observada',
        params: idParamsSchema,
        body: planillaLineInputSchema,
        response: { 201: planillaLineSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await addPlanillaLine(request.ctx, { id: request.params.id, data: request.body })),
  );

  app.put(
    '/api/planillas/:id/lines/:lineId',
    {
      config: { access: { resource: 'planillas', action: 'UPDATE' } },
      schema: {
        tags,
        summary: 'Corregir una línea de una planilla en borrador u observada',
        params: lineParams,
        body: planillaLineInputSchema,
        response: { 200: planillaLineSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      updatePlanillaLine(request.ctx, { id: request.params.id, lineId: request.params.lineId, data: request.body }),
  );

  app.delete(
    '/api/planillas/:id/lines/:lineId',
    {
      config: { access: { resource: 'planillas', action: 'UPDATE' } },
      schema: {
        tags,
        summary: 'Eliminar una línea de una planilla en borrador u observada',
        params: lineParams,
        response: { 204: z.null(), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await removePlanillaLine(request.ctx, { id: request.params.id, lineId: request.params.lineId });
      return reply.status(204).send(null);
    },
  );
};
