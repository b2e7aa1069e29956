import {
  flowCheckInputSchema,
  flowDetailSchema,
  flowListQuerySchema,
  flowOptionsSchema,
  flowProblemsSchema,
  flowSaveSchema,
  flowSummarySchema,
  formDetailSchema,
  formListQuerySchema,
  formSaveSchema,
  formSummarySchema,
  formVersionParamsSchema,
  idParamsSchema,
  listResponse,
  noContentSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http.ts';
import { createFlow, deleteFlow, findFlows, flowOptions, getFlow, publishFlow, saveFlow, validateFlow } from './flows.ts';
import { createForm, deleteForm, findForms, getForm, publishForm, retireForm, saveForm } from './forms.ts';
import { grant, tags } from './route-access.ts';

/** The routes of the workflow designer: forms (/forms) and flows (/flow), drafted, validated, published. */

const forms = grant('forms');
const flow = grant('flow');

export function registerDesignRoutes(app: Parameters<FastifyPluginAsyncZod>[0]): void {
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
        body: flowCheckInputSchema,
        response: { 200: flowProblemsSchema, ...errorResponses(400, 401, 403) },
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
}
