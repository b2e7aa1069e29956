import {
  idParamsSchema,
  institutionExportQuerySchema,
  institutionInputSchema,
  institutionListQuerySchema,
  institutionOptionsSchema,
  institutionSchema,
  listResponse,
  noContentSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import {
  createInstitution,
  deleteInstitution,
  findInstitutions,
  getInstitution,
  institutionBatches,
  institutionOptions,
  updateInstitution,
} from './service.ts';

const params = idParamsSchema;

export const institutionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/institutions',
    {
      config: { access: { resource: 'institutions', action: 'READ' } },
      schema: {
        tags: ['institutions'],
        summary: 'Listar instituciones (permisos)',
        querystring: institutionListQuerySchema,
        response: { 200: listResponse(institutionSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findInstitutions(request.ctx, request.query),
  );

  app.get(
    '/api/institutions/export',
    {
      config: { access: { resource: 'institutions', action: 'EXPORT' }, heavy: true },
      schema: {
        tags: ['institutions'],
        summary: 'Exportar instituciones (xlsx o csv)',
        querystring: institutionExportQuerySchema,
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) =>
      sendExport(reply, {
        format: request.query.format,
        filename: 'instituciones',
        sheetName: 'Instituciones',
        batches: institutionBatches(request.ctx, request.query),
        columns: [
          { header: 'Código', value: (i) => i.code, width: 16 },
          { header: 'Nombre', value: (i) => i.name, width: 40 },
          { header: 'Tipo', value: (i) => i.kind, width: 14 },
          { header: 'Entidad municipal', value: (i) => i.entityName, width: 30 },
          { header: 'Activa', value: (i) => i.isActive },
          { header: 'Usuarios', value: (i) => i.userCount },
          { header: 'Roles predeterminados', value: (i) => i.roles.map((r) => r.name).join(', '), width: 40 },
        ],
      }),
  );

  app.get(
    '/api/institutions/options',
    {
      config: { access: { resource: 'institutions', action: 'READ' } },
      schema: {
        tags: ['institutions'],
        summary: 'Roles y entidades municipales que se pueden asignar',
        response: { 200: institutionOptionsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => institutionOptions(request.ctx),
  );

  app.get(
    '/api/institutions/:id',
    {
      config: { access: { resource: 'institutions', action: 'READ' } },
      schema: {
        tags: ['institutions'],
        summary: 'Ver una institución',
        params,
        response: { 200: institutionSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getInstitution(request.ctx, request.params),
  );

  app.post(
    '/api/institutions',
    {
      config: { access: { resource: 'institutions', action: 'CREATE' } },
      schema: {
        tags: ['institutions'],
        summary: 'Crear una institución con sus roles predeterminados',
        body: institutionInputSchema,
        response: { 201: institutionSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await createInstitution(request.ctx, request.body)),
  );

  app.put(
    '/api/institutions/:id',
    {
      config: { access: { resource: 'institutions', action: 'UPDATE' } },
      schema: {
        tags: ['institutions'],
        summary: 'Modificar una institución y sus roles predeterminados',
        params,
        body: institutionInputSchema,
        response: { 200: institutionSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => updateInstitution(request.ctx, { id: request.params.id, data: request.body }),
  );

  app.delete(
    '/api/institutions/:id',
    {
      config: { access: { resource: 'institutions', action: 'DELETE' } },
      schema: {
        tags: ['institutions'],
        summary: 'Eliminar una institución sin usuarios',
        params,
        response: { 204: noContentSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await deleteInstitution(request.ctx, request.params);
      return reply.status(204).send(null);
    },
  );
};
