// Routes of one planilla: reading it, its PDF or spreadsheet, its history, comments and comparison, and its
// transitions.
import {
  idParamsSchema,
  planillaCommentListSchema,
  planillaComparisonSchema,
  planillaSchema,
  planillaTransitionSchema,
  stateTransitionListSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendPdf } from '../../platform/downloads.ts';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { transitionPlanilla } from './lifecycle.ts';
import { planillaLineBatches } from './lines.ts';
import { getPlanilla } from './queries.ts';
import { lineExportColumns, planillaFileName, planillaPdf } from './report.ts';
import { comparePlanilla, findPlanillaComments, findPlanillaHistory } from './review.ts';

const tags = ['planillas'];

export const planillaOneRoutes: FastifyPluginAsyncZod = async (app) => {
  // ─── One planilla ───
  app.get(
    '/api/planillas/:id',
    {
      config: { access: { resource: 'planillas', action: 'READ' } },
      schema: {
        tags,
        summary: 'Una planilla con sus totales y las acciones que el usuario puede tomar',
        params: idParamsSchema,
        response: { 200: planillaSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getPlanilla(request.ctx, { id: request.params.id }),
  );

  app.get(
    '/api/planillas/:id/export',
    {
      config: { access: { resource: 'planillas', action: 'EXPORT' }, heavy: true },
      schema: {
        tags,
        summary: 'La declaración: líneas en xlsx o csv, o PDF con código de verificación',
        params: idParamsSchema,
        querystring: z.object({ format: z.enum(['xlsx', 'csv', 'pdf']).default('xlsx') }),
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const p = await getPlanilla(request.ctx, { id: request.params.id });
      const name = planillaFileName(p);
      if (request.query.format !== 'pdf') {
        return sendExport(reply, {
          format: request.query.format,
          filename: name,
          sheetName: 'Planilla',
          columns: lineExportColumns,
          batches: planillaLineBatches(request.ctx, p.id),
        });
      }
      const doc = await planillaPdf(request, app.files, p, app.config.APP_TITLE, (err) =>
        request.log.error({ err }, 'the planilla PDF could not be filed in Documentos'),
      );
      return sendPdf(reply, doc, name);
    },
  );

  app.get(
    '/api/planillas/:id/history',
    {
      config: { access: { resource: 'planillas', action: 'READ' } },
      schema: {
        tags,
        summary: 'Historial de estados de la planilla (quién, cuándo, de qué a qué, motivo)',
        params: idParamsSchema,
        response: { 200: stateTransitionListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({ items: await findPlanillaHistory(request.ctx, { id: request.params.id }) }),
  );

  app.get(
    '/api/planillas/:id/comments',
    {
      config: { access: { resource: 'planillas', action: 'READ' } },
      schema: {
        tags,
        summary: 'Comentarios y observaciones (generales o por línea)',
        params: idParamsSchema,
        response: { 200: planillaCommentListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({ items: await findPlanillaComments(request.ctx, { id: request.params.id }) }),
  );

  app.get(
    '/api/planillas/:id/comparison',
    {
      config: { access: { resource: 'planillas', action: 'READ' } },
      schema: {
        tags,
        summary: 'Comparación con el período anterior: nuevos, ausentes, cambios de salario y advertencias de RENAP',
        params: idParamsSchema,
        response: { 200: planillaComparisonSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => comparePlanilla(request.ctx, { id: request.params.id }),
  );

  app.post(
    '/api/planillas/:id/transitions',
    {
      // The machine declares each transition's permission (submit: planillas UPDATE; review: planillas APPROVE;
      // void: planillas DELETE); applyTransition checks it and its scope.
      config: { access: { resource: 'planillas', action: 'READ' } },
      schema: {
        tags,
        summary: 'Enviar, tomar, aprobar, observar (con motivo y observaciones por línea), rechazar o anular una planilla',
        params: idParamsSchema,
        body: planillaTransitionSchema,
        response: { 200: planillaSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => transitionPlanilla(request.ctx, { id: request.params.id, data: request.body }),
  );
};
