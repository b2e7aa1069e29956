// The planillas plugin (registered by app.ts): the lists, creating a planilla or a back-pay, and the
// registration of the module's other route files and home queues.
import {
  backPayCreateSchema,
  exportQueryOf,
  formatPeriod,
  listResponse,
  type Planilla,
  periodSchema,
  planillaCreateSchema,
  planillaListQuerySchema,
  planillaMachine,
  planillaOptionsSchema,
  planillaOverviewSchema,
  planillaSchema,
  planillaTypeLabels,
} from '@aporta/domain';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type ExportColumn, sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { IMPORT_LIMITS } from '../../platform/imports/reader.ts';
import { createBackPay, createPlanilla } from './creation.ts';
import { planillaOverview } from './histories.ts';
import { findPlanillas, planillaEntityOptions, planillaExportBatches } from './queries.ts';
import { registerPlanillaQueues } from './queues.ts';
import { planillaHistoryRoutes } from './routes-histories.ts';
import { planillaLineRoutes } from './routes-lines.ts';
import { planillaOneRoutes } from './routes-planilla.ts';
import { planillaUploadRoutes } from './routes-upload.ts';

const tags = ['planillas'];

const listColumns: ExportColumn<Planilla>[] = [
  { header: 'Entidad', value: (p) => p.entityName, width: 36 },
  { header: 'Código', value: (p) => p.entityCode },
  { header: 'Período', value: (p) => formatPeriod(p.period) },
  { header: 'Tipo', value: (p) => planillaTypeLabels[p.type] },
  { header: 'Estado', value: (p) => planillaMachine.stateLabels[p.state] },
  { header: 'Empleados', value: (p) => p.lineCount },
  { header: 'Líneas con error', value: (p) => p.errorCount },
  { header: 'Total salarios', value: (p) => p.totalSalary, money: true },
  { header: 'Cuota laboral', value: (p) => p.totalEmployee, money: true },
  { header: 'Cuota patronal', value: (p) => p.totalEmployer, money: true },
  { header: 'Enviada', value: (p) => p.submittedAt?.slice(0, 10) ?? '' },
];

export const planillaRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, {
    limits: { fileSize: IMPORT_LIMITS.maxFileBytes, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
  });

  registerPlanillaQueues();
  await app.register(planillaOneRoutes);
  await app.register(planillaLineRoutes);
  await app.register(planillaUploadRoutes);
  await app.register(planillaHistoryRoutes);

  // ─── Lists ───
  app.get(
    '/api/planillas',
    {
      config: { access: { resource: 'planillas', action: 'READ' } },
      schema: {
        tags,
        summary:
          'Planillas dentro del alcance (entidad, período, tipo, estado, CUI en sus líneas; cola de revisión o borradores)',
        querystring: planillaListQuerySchema,
        response: { 200: listResponse(planillaSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findPlanillas(request.ctx, request.query),
  );

  app.get(
    '/api/planilla-search',
    {
      config: { access: { resource: 'buscar-planillas', action: 'READ' } },
      schema: {
        tags,
        summary: 'Buscar planillas por entidad, período, estado, tipo o un CUI de sus líneas',
        querystring: planillaListQuerySchema,
        response: { 200: listResponse(planillaSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findPlanillas(request.ctx, request.query),
  );

  app.get(
    '/api/planilla-review-queue',
    {
      config: { access: { resource: 'delegate-review', action: 'READ' } },
      schema: {
        tags,
        summary: 'Cola del delegado: planillas enviadas o en revisión de sus regiones, la más antigua primero',
        querystring: planillaListQuerySchema,
        response: { 200: listResponse(planillaSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findPlanillas(request.ctx, { ...request.query, queue: 'review' }),
  );

  app.get(
    '/api/planillas/export',
    {
      config: { access: { resource: 'planillas', action: 'EXPORT' }, heavy: true },
      schema: {
        tags,
        summary: 'Exportar la lista de planillas (xlsx o csv) con los filtros de la lista',
        querystring: exportQueryOf(planillaListQuerySchema),
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      return sendExport(reply, {
        format,
        filename: 'planillas',
        sheetName: 'Planillas',
        columns: listColumns,
        batches: planillaExportBatches(request.ctx, query),
      });
    },
  );

  app.get(
    '/api/planillas/overview',
    {
      config: { access: { resource: 'planillas', action: 'READ' } },
      schema: {
        tags,
        summary: 'El período de un vistazo: planillas por estado, entidades omisas, totales contra el mes anterior y tendencia',
        querystring: z.object({ period: periodSchema.optional() }),
        response: { 200: planillaOverviewSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => planillaOverview(request.ctx, request.query),
  );

  app.get(
    '/api/planillas/options',
    {
      config: { access: { resource: 'planillas', action: 'READ' } },
      schema: {
        tags,
        summary: 'Entidades dentro del alcance, para elegir de qué entidad declarar o consultar planillas',
        response: { 200: planillaOptionsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => planillaEntityOptions(request.ctx),
  );

  app.post(
    '/api/planillas',
    {
      config: { access: { resource: 'planillas', action: 'CREATE' } },
      schema: {
        tags,
        summary: 'Nueva planilla en borrador (opcionalmente copiando las líneas del período anterior)',
        body: planillaCreateSchema,
        response: { 201: planillaSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await createPlanilla(request.ctx, request.body)),
  );

  // ─── Back-pay (salarios caídos) ───
  app.get(
    '/api/back-pay',
    {
      config: { access: { resource: 'fallen-wages', action: 'READ' } },
      schema: {
        tags,
        summary: 'Planillas de salarios caídos (una por resolución)',
        querystring: planillaListQuerySchema,
        response: { 200: listResponse(planillaSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findPlanillas(request.ctx, { ...request.query, type: 'SALARIOS_CAIDOS' }),
  );

  app.post(
    '/api/back-pay',
    {
      config: { access: { resource: 'fallen-wages', action: 'CREATE' } },
      schema: {
        tags,
        summary: 'Registrar una resolución de salarios caídos: su planilla SALARIOS_CAIDOS en borrador, una línea por mes',
        body: backPayCreateSchema,
        response: { 201: planillaSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.status(201).send(await createBackPay(request.ctx, request.body)),
  );
};
