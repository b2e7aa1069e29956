import {
  catalogOptionsSchema,
  catalogParamsSchema,
  flowDefinitionSchema,
  flowDetailSchema,
  flowListQuerySchema,
  flowOptionsSchema,
  flowSaveSchema,
  flowSummarySchema,
  formDetailSchema,
  formListQuerySchema,
  formSaveSchema,
  formSummarySchema,
  formVersionParamsSchema,
  idParamsSchema,
  idSchema,
  listResponse,
  noContentSchema,
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
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendDownload } from '../../platform/downloads.ts';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { DOCUMENT_TYPES, readUpload, uploadLimits } from '../../platform/uploads.ts';
import { createFlow, deleteFlow, findFlows, flowOptions, getFlow, publishFlow, saveFlow, validateFlow } from './flows.ts';
import { createForm, deleteForm, findForms, getForm, publishForm, retireForm, saveForm } from './forms.ts';
import { registerWorkflowQueues } from './queues.ts';
import {
  addComment,
  catalogOptions,
  countRequests,
  createRequest,
  exportRequestBatches,
  findRequests,
  getRequest,
  requestDocument,
  sigOptions,
  transitionRequest,
  updateRequestData,
  uploadFile,
} from './requests.ts';

const tags = ['workflow'];
type Act = 'READ' | 'CREATE' | 'UPDATE' | 'DELETE' | 'APPROVE' | 'EXPORT';
const grant =
  <R extends 'forms' | 'flow' | 'sig-items' | 'sig-query'>(resource: R) =>
  (verb: Act) => ({ resource, action: verb });
const forms = grant('forms');
const flow = grant('flow');
const items = grant('sig-items');
const query = (verb: 'READ' | 'EXPORT') => grant('sig-query')(verb);
const problemsSchema = z.object({ problems: z.array(z.object({ path: z.string(), message: z.string() })) });

export const workflowRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, { limits: uploadLimits });
  registerWorkflowQueues();

  // ─── Forms (/forms) ──────────────────────────────────────────────────────────────────────────────
  app.get(
    '/api/wf/forms',
    {
      config: { access: forms('READ') },
      schema: {
        tags,
        summary: 'Formularios',
        querystring: formListQuerySchema,
        response: { 200: listResponse(formSummarySchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findForms(request.ctx, request.query),
  );
  app.post(
    '/api/wf/forms',
    {
      config: { access: forms('CREATE') },
      schema: {
        tags,
        summary: 'Guardar un formulario nuevo (campos del diseñador o JSON Schema)',
        body: formSaveSchema,
        response: { 201: formDetailSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.status(201).send(await createForm(request.ctx, request.body)),
  );
  app.get(
    '/api/wf/forms/:id',
    {
      config: { access: forms('READ') },
      schema: {
        tags,
        summary: 'Un formulario con sus versiones',
        params: idParamsSchema,
        response: { 200: formDetailSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getForm(request.ctx, request.params),
  );
  app.put(
    '/api/wf/forms/:id',
    {
      config: { access: forms('UPDATE') },
      schema: {
        tags,
        summary: 'Guardar la definición (el borrador, o una versión nueva después de una publicada)',
        params: idParamsSchema,
        body: formSaveSchema,
        response: { 200: formDetailSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => saveForm(request.ctx, { id: request.params.id, data: request.body }),
  );
  app.post(
    '/api/wf/forms/:id/versions/:version/publish',
    {
      config: { access: forms('UPDATE') },
      schema: {
        tags,
        summary: 'Publicar una versión',
        params: formVersionParamsSchema,
        response: { 200: formDetailSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => publishForm(request.ctx, request.params),
  );
  app.post(
    '/api/wf/forms/:id/versions/:version/retire',
    {
      config: { access: forms('UPDATE') },
      schema: {
        tags,
        summary: 'Retirar una versión publicada',
        params: formVersionParamsSchema,
        response: { 200: formDetailSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => retireForm(request.ctx, request.params),
  );
  app.delete(
    '/api/wf/forms/:id',
    {
      config: { access: forms('DELETE') },
      schema: {
        tags,
        summary: 'Eliminar un formulario que ningún flujo usa',
        params: idParamsSchema,
        response: { 204: noContentSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await deleteForm(request.ctx, request.params);
      return reply.status(204).send(null);
    },
  );

  // ─── Flows (/flow) ───────────────────────────────────────────────────────────────────────────────
  app.get(
    '/api/wf/flows',
    {
      config: { access: flow('READ') },
      schema: {
        tags,
        summary: 'Flujos',
        querystring: flowListQuerySchema,
        response: { 200: listResponse(flowSummarySchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findFlows(request.ctx, request.query),
  );
  app.get(
    '/api/wf/flows/options',
    {
      config: { access: flow('READ') },
      schema: {
        tags,
        summary: 'Roles, formularios y acciones de módulo para el diseñador',
        response: { 200: flowOptionsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => flowOptions(request.ctx),
  );
  app.post(
    '/api/wf/flows/validate',
    {
      config: { access: flow('READ') },
      schema: {
        tags,
        summary: 'Validar un flujo sin guardarlo (estado final alcanzable, sin huérfanos)',
        body: z.strictObject({ formId: idSchema, definition: flowDefinitionSchema }),
        response: { 200: problemsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => validateFlow(request.ctx, request.body),
  );
  app.post(
    '/api/wf/flows',
    {
      config: { access: flow('CREATE') },
      schema: {
        tags,
        summary: 'Crear un flujo (borrador)',
        body: flowSaveSchema,
        response: { 201: flowDetailSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.status(201).send(await createFlow(request.ctx, request.body)),
  );
  app.get(
    '/api/wf/flows/:id',
    {
      config: { access: flow('READ') },
      schema: {
        tags,
        summary: 'Un flujo con sus versiones',
        params: idParamsSchema,
        response: { 200: flowDetailSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getFlow(request.ctx, request.params),
  );
  app.put(
    '/api/wf/flows/:id',
    {
      config: { access: flow('UPDATE') },
      schema: {
        tags,
        summary: 'Guardar el flujo (el borrador, o una versión nueva después de una publicada)',
        params: idParamsSchema,
        body: flowSaveSchema,
        response: { 200: flowDetailSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => saveFlow(request.ctx, { id: request.params.id, data: request.body }),
  );
  app.post(
    '/api/wf/flows/:id/versions/:version/publish',
    {
      config: { access: flow('APPROVE') },
      schema: {
        tags,
        summary: 'Publicar una versión validada; las solicitudes abiertas pasan a ella',
        params: formVersionParamsSchema,
        response: { 200: flowDetailSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => publishFlow(request.ctx, request.params),
  );
  app.delete(
    '/api/wf/flows/:id',
    {
      config: { access: flow('DELETE') },
      schema: {
        tags,
        summary: 'Eliminar un flujo sin solicitudes',
        params: idParamsSchema,
        response: { 204: noContentSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await deleteFlow(request.ctx, request.params);
      return reply.status(204).send(null);
    },
  );

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
        { files: app.files, appTitle: app.config.APP_TITLE },
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
};
