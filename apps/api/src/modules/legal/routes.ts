import {
  exportQueryOf,
  formatDay,
  idParamsSchema,
  type LegalCaseListItem,
  legalActionCreateSchema,
  legalCaseCreateSchema,
  legalCaseListItemSchema,
  legalCaseListQuerySchema,
  legalCaseSchema,
  legalDeadlineCreateSchema,
  legalDeadlineListSchema,
  legalDeadlineParamsSchema,
  legalDeadlineQuerySchema,
  legalStageLabels,
  legalTransitionSchema,
  listResponse,
  MAX_PAGE_SIZE,
} from '@aporta/domain';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type ExportColumn, sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { pageBatches } from '../../platform/list.ts';
import { DOCUMENT_TYPES, readUpload } from '../../platform/uploads.ts';
import { addDeadline, completeDeadline, findDeadlines } from './deadlines.ts';
import { registerLegalJobs } from './jobs.ts';
import { addAction, attachDocument } from './proceedings.ts';
import { registerLegalQueues } from './queues.ts';
import { findCases, getCase, openCase, transitionCase } from './service.ts';

const tags = ['módulo jurídico'];
type Act = 'READ' | 'CREATE' | 'UPDATE' | 'EXPORT';
const L = (a: Act) => ({ resource: 'legal-module' as const, action: a });
const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

const columns: ExportColumn<LegalCaseListItem>[] = [
  { header: 'Expediente', value: (x) => x.number, width: 18 },
  { header: 'Entidad', value: (x) => x.entityName, width: 40 },
  { header: 'Etapa', value: (x) => legalStageLabels[x.stage] },
  { header: 'Abierto', value: (x) => formatDay(x.openedOn) },
  { header: 'Monto al abrir', value: (x) => x.amountAtOpening, money: true },
  { header: 'Monto hoy', value: (x) => x.amountNow, money: true },
  { header: 'Abogado', value: (x) => x.lawyer ?? '', width: 28 },
  { header: 'Próximo plazo', value: (x) => (x.nextDeadline ? formatDay(x.nextDeadline) : '') },
];

export const legalRoutes: FastifyPluginAsyncZod = async (app) => {
  // The module's daily reminder and home-page queue, registered here and nowhere else (both idempotent).
  registerLegalJobs();
  registerLegalQueues();
  await app.register(multipart, { limits: { fileSize: ATTACHMENT_MAX_BYTES, files: 1, fields: 2, parts: 3, fieldSize: 1024 } });

  app.get(
    '/api/legal/cases',
    {
      config: { access: L('READ') },
      schema: {
        tags,
        summary: 'Expedientes de cobro dentro del alcance (etapa, entidad), con el monto al abrir y hoy',
        querystring: legalCaseListQuerySchema,
        response: { 200: listResponse(legalCaseListItemSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findCases(request.ctx, request.query),
  );

  app.get(
    '/api/legal/cases/export',
    {
      config: { access: L('EXPORT'), heavy: true },
      schema: {
        tags,
        summary: 'Exportar los expedientes filtrados (xlsx o csv)',
        querystring: exportQueryOf(legalCaseListQuerySchema),
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const ctx = request.ctx;
      return sendExport(reply, {
        format,
        filename: 'expedientes',
        sheetName: 'Expedientes',
        columns,
        // The filtered list from its start, by key (a page's `after`/`before` is not part of an export's query).
        batches: pageBatches((after) => findCases(ctx, { ...query, page: 1, pageSize: MAX_PAGE_SIZE, after })),
      });
    },
  );

  app.post(
    '/api/legal/cases',
    {
      config: { access: L('CREATE') },
      schema: {
        tags,
        summary: 'Abrir un expediente contra una entidad en mora (cubre sus órdenes vencidas y convenios pendientes)',
        body: legalCaseCreateSchema,
        response: { 201: legalCaseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await openCase(request.ctx, request.body)),
  );

  app.get(
    '/api/legal/deadlines',
    {
      config: { access: L('READ') },
      schema: {
        tags,
        summary: 'Plazos pendientes entre dos fechas (por defecto, esta semana)',
        querystring: legalDeadlineQuerySchema,
        response: { 200: legalDeadlineListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findDeadlines(request.ctx, request.query),
  );

  app.get(
    '/api/legal/cases/:id',
    {
      config: { access: L('READ') },
      schema: {
        tags,
        summary: 'Un expediente: lo que cubre (monto al abrir y hoy), actuaciones, plazos, documentos y etapas posibles',
        params: idParamsSchema,
        response: { 200: legalCaseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getCase(request.ctx, { id: request.params.id }),
  );

  app.post(
    '/api/legal/cases/:id/transitions',
    {
      config: { access: L('UPDATE') },
      schema: {
        tags,
        summary: 'Cambiar la etapa del expediente (convenio: con un convenio vigente; cierre: deuda pagada o convenio)',
        params: idParamsSchema,
        body: legalTransitionSchema,
        response: { 200: legalCaseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => transitionCase(request.ctx, { id: request.params.id, ...request.body }),
  );

  app.post(
    '/api/legal/cases/:id/actions',
    {
      config: { access: L('UPDATE') },
      schema: {
        tags,
        summary: 'Registrar una actuación (fecha, tipo, descripción; el abogado es quien la registra)',
        params: idParamsSchema,
        body: legalActionCreateSchema,
        response: { 201: legalCaseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await addAction(request.ctx, { id: request.params.id, ...request.body })),
  );

  app.post(
    '/api/legal/cases/:id/deadlines',
    {
      config: { access: L('UPDATE') },
      schema: {
        tags,
        summary: 'Agregar un plazo (se recuerda al abogado la semana anterior y el día)',
        params: idParamsSchema,
        body: legalDeadlineCreateSchema,
        response: { 201: legalCaseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await addDeadline(request.ctx, { id: request.params.id, ...request.body })),
  );

  app.post(
    '/api/legal/cases/:id/deadlines/:deadlineId/done',
    {
      config: { access: L('UPDATE') },
      schema: {
        tags,
        summary: 'Marcar un plazo como cumplido',
        params: legalDeadlineParamsSchema,
        response: { 200: legalCaseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => completeDeadline(request.ctx, request.params),
  );

  app.post(
    '/api/legal/cases/:id/documents',
    {
      config: { access: L('UPDATE') },
      schema: {
        tags,
        summary: 'Adjuntar un documento al expediente (multipart, campo "file"; hasta 10 MB): se guarda en Documentos',
        consumes: ['multipart/form-data'],
        params: idParamsSchema,
        response: { 201: legalCaseSchema, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      // Name cleaned and type read from the bytes where every upload is read (platform/uploads.ts).
      const { file } = await readUpload(request, z.object({}), {
        accept: DOCUMENT_TYPES,
        maxBytes: ATTACHMENT_MAX_BYTES,
        fallbackName: 'documento',
      });
      const out = await attachDocument(request.ctx, app.files, {
        id: request.params.id,
        filename: file!.filename,
        bytes: file!.bytes,
      });
      return reply.status(201).send(out);
    },
  );
};
