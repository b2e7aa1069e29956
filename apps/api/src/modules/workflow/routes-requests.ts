import {
  catalogOptionsSchema,
  catalogParamsSchema,
  idParamsSchema,
  listResponse,
  type SigRequest,
  sigCommentSchema,
  sigCountsSchema,
  sigOptionsSchema,
  sigRequestCreateSchema,
  sigRequestDetailSchema,
  sigRequestExportQuerySchema,
  sigRequestListQuerySchema,
  sigRequestSchema,
  sigRequestUpdateSchema,
  sigTransitionSchema,
  uploadAnswerSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendDownload, verifyUrlFor } from '../../platform/downloads.ts';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { DOCUMENT_TYPES, readUpload } from '../../platform/uploads.ts';
import { getRequest } from './request-detail.ts';
import { countRequests, exportRequestBatches, findRequests } from './request-list.ts';
import { catalogOptions, sigOptions } from './request-options.ts';
import { transitionRequest } from './request-transition.ts';
import { addComment, createRequest, requestDocument, updateRequestData, uploadFile } from './requests.ts';
import { grant, tags } from './route-access.ts';

/** The routes of workflow requests (/sig/item): options, creating, moving, comments and files; and Consulta SIG (lists, counts, export). */

const items = grant('sig-items');
const query = (verb: 'READ' | 'EXPORT') => grant('sig-query')(verb);

export function registerRequestRoutes(app: Parameters<FastifyPluginAsyncZod>[0]): void {
  // ─── Requests (/sig/item) ────────────────────────────────────────────────────────────────────────
  app.get(
    '/api/sig/items',
    {
      config: { access: items('READ') },
      schema: {
        tags,
        summary: 'Solicitudes a su alcance (waiting=true: las que esperan su acción)',
        querystring: sigRequestListQuerySchema,
        response: { 200: listResponse(sigRequestSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findRequests(request.ctx, request.query),
  );
  app.get(
    '/api/sig/options',
    {
      config: { access: items('READ') },
      schema: {
        tags,
        summary: 'Flujos publicados con su formulario y entidades para una solicitud nueva',
        response: { 200: sigOptionsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => sigOptions(request.ctx, { withForms: true }),
  );
  app.get(
    '/api/sig/catalogs/:catalog',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Opciones de un catálogo para una lista de un formulario',
        params: catalogParamsSchema,
        response: { 200: catalogOptionsSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => catalogOptions(request.ctx, request.params.catalog),
  );
  app.post(
    '/api/sig/items',
    {
      config: { access: items('CREATE') },
      schema: {
        tags,
        summary: 'Presentar una solicitud en un flujo publicado',
        body: sigRequestCreateSchema,
        response: { 201: sigRequestDetailSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await createRequest(request.ctx, request.body)),
  );
  app.post(
    '/api/sig/uploads',
    {
      config: { access: items('CREATE') },
      schema: {
        tags,
        summary: 'Subir el archivo de un campo de formulario (multipart: file) antes de presentar la solicitud',
        consumes: ['multipart/form-data'],
        response: { 201: uploadAnswerSchema, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request, reply) => {
      const { file } = await readUpload(request, z.object({}), { accept: DOCUMENT_TYPES });
      return reply.status(201).send(await uploadFile(request.ctx, app.files, { filename: file!.filename, bytes: file!.bytes }));
    },
  );
  app.get(
    '/api/sig/items/:id',
    {
      config: { access: items('READ') },
      schema: {
        tags,
        summary: 'Una solicitud: datos, estado, acciones posibles, responsables e historial',
        params: idParamsSchema,
        response: { 200: sigRequestDetailSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getRequest(request.ctx, request.params),
  );
  app.put(
    '/api/sig/items/:id',
    {
      config: { access: items('UPDATE') },
      schema: {
        tags,
        summary: 'Corregir los datos (solicitante, en un estado editable)',
        params: idParamsSchema,
        body: sigRequestUpdateSchema,
        response: { 200: sigRequestDetailSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => updateRequestData(request.ctx, { id: request.params.id, ...request.body }),
  );
  app.post(
    '/api/sig/items/:id/transitions',
    {
      config: { access: items('UPDATE') },
      schema: {
        tags,
        summary: 'Mover la solicitud (rol de la transición, condición, comentario, acción)',
        params: idParamsSchema,
        body: sigTransitionSchema,
        response: { 200: sigRequestDetailSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      transitionRequest(
        request.ctx,
        { files: app.files, appTitle: app.config.APP_TITLE, verifyUrl: verifyUrlFor(request) },
        { id: request.params.id, ...request.body },
      ),
  );
  app.post(
    '/api/sig/items/:id/comments',
    {
      config: { access: items('READ') },
      schema: {
        tags,
        summary: 'Comentar en el historial',
        params: idParamsSchema,
        body: sigCommentSchema,
        response: { 200: sigRequestDetailSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => addComment(request.ctx, { id: request.params.id, comment: request.body.comment }),
  );
  app.post(
    '/api/sig/items/:id/attachments',
    {
      config: { access: items('READ') },
      schema: {
        tags,
        summary: 'Adjuntar un archivo al historial (multipart: file)',
        params: idParamsSchema,
        consumes: ['multipart/form-data'],
        response: { 201: uploadAnswerSchema, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const { file } = await readUpload(request, z.object({}), { accept: DOCUMENT_TYPES });
      return reply.status(201).send(
        await uploadFile(request.ctx, app.files, {
          requestId: request.params.id,
          filename: file!.filename,
          bytes: file!.bytes,
        }),
      );
    },
  );
  app.get(
    '/api/sig/items/:id/documents/:documentId',
    {
      config: { access: items('READ') },
      schema: {
        tags,
        summary: 'Descargar un documento de la solicitud',
        params: idParamsSchema.extend({ documentId: idParamsSchema.shape.id }),
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const c = await requestDocument(request.ctx, app.files, { id: request.params.id, documentId: request.params.documentId });
      return sendDownload(reply, { body: c.bytes, contentType: c.contentType, filename: c.filename });
    },
  );

  // ─── Consulta SIG (/dummy) ───────────────────────────────────────────────────────────────────────
  app.get(
    '/api/sig/query',
    {
      config: { access: query('READ') },
      schema: {
        tags,
        summary: 'Consulta SIG: buscar solicitudes',
        querystring: sigRequestListQuerySchema,
        response: { 200: listResponse(sigRequestSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findRequests(request.ctx, request.query),
  );
  app.get(
    '/api/sig/query/counts',
    {
      config: { access: query('READ') },
      schema: {
        tags,
        summary: 'Consulta SIG: cantidades por flujo y estado',
        querystring: sigRequestListQuerySchema.omit({ page: true, pageSize: true, after: true, before: true, sort: true }),
        response: { 200: sigCountsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => countRequests(request.ctx, request.query),
  );
  app.get(
    '/api/sig/query/flows',
    {
      config: { access: query('READ') },
      schema: {
        tags,
        summary: 'Consulta SIG: flujos publicados y sus estados (filtros)',
        response: { 200: sigOptionsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => sigOptions(request.ctx, { withForms: false }),
  );
  app.get(
    '/api/sig/query/export',
    {
      config: { access: query('EXPORT'), heavy: true },
      schema: {
        tags,
        summary: 'Consulta SIG: exportar (xlsx o csv) con los filtros',
        querystring: sigRequestExportQuerySchema,
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { format, ...q } = request.query;
      return sendExport<SigRequest>(reply, {
        format,
        filename: 'consulta-sig',
        sheetName: 'Solicitudes',
        batches: await exportRequestBatches(request.ctx, q),
        columns: [
          { header: 'Número', value: (r) => r.number, width: 18 },
          { header: 'Flujo', value: (r) => r.flowTitle, width: 30 },
          { header: 'Estado', value: (r) => r.stateLabel, width: 20 },
          { header: 'Solicitante', value: (r) => r.requesterName, width: 28 },
          { header: 'Entidad', value: (r) => r.entityName, width: 30 },
          { header: 'Resumen', value: (r) => r.summary, width: 40 },
          { header: 'Presentada', value: (r) => r.createdAt.slice(0, 10) },
          { header: 'En el estado desde', value: (r) => r.stateSince.slice(0, 10) },
          { header: 'Vence', value: (r) => r.dueAt?.slice(0, 10) ?? '' },
          { header: 'Vencida', value: (r) => (r.overdue ? 'Sí' : 'No') },
          { header: 'Cerrada', value: (r) => r.closedAt?.slice(0, 10) ?? '' },
        ],
      });
    },
  );
}
