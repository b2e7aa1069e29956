import {
  idParamsSchema,
  listResponse,
  noContentSchema,
  roleExportQuerySchema,
  roleInputSchema,
  roleListQuerySchema,
  roleSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { createRole, deleteRole, findRoles, getRole, roleBatches, updateRole } from './service.ts';

const params = idParamsSchema;

export const roleRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/roles',
    {
      config: { access: { resource: 'roles', action: 'READ' } },
      schema: {
        tags: ['roles'],
        summary: 'Listar roles',
        querystring: roleListQuerySchema,
        response: { 200: listResponse(roleSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findRoles(request.ctx, request.query),
  );

  app.get(
    '/api/roles/export',
    {
      config: { access: { resource: 'roles', action: 'EXPORT' }, heavy: true },
      schema: {
        tags: ['roles'],
        summary: 'Exportar roles (xlsx o csv)',
        querystring: roleExportQuerySchema,
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) =>
      sendExport(reply, {
        format: request.query.format,
        filename: 'roles',
        sheetName: 'Roles',
        batches: roleBatches(request.ctx, request.query),
        columns: [
          { header: 'Nombre', value: (r) => r.name, width: 28 },
          { header: 'Descripción', value: (r) => r.description, width: 40 },
          { header: 'Usuarios', value: (r) => r.userCount },
          { header: 'Instituciones', value: (r) => r.institutionCount },
          { header: 'Permisos', value: (r) => r.grants.map((g) => `${g.resource}:${g.action}:${g.scope}`).join(', '), width: 60 },
        ],
      }),
  );

  app.get(
    '/api/roles/:id',
    {
      config: { access: { resource: 'roles', action: 'READ' } },
      schema: {
        tags: ['roles'],
        summary: 'Ver un rol',
        params,
        response: { 200: roleSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getRole(request.ctx, request.params),
  );

  app.post(
    '/api/roles',
    {
      config: { access: { resource: 'roles', action: 'CREATE' } },
      schema: {
        tags: ['roles'],
        summary: 'Crear un rol con sus permisos',
        body: roleInputSchema,
        response: { 201: roleSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await createRole(request.ctx, request.body)),
  );

  app.put(
    '/api/roles/:id',
    {
      config: { access: { resource: 'roles', action: 'UPDATE' } },
      schema: {
        tags: ['roles'],
        summary: 'Modificar un rol y sus permisos',
        params,
        body: roleInputSchema,
        response: { 200: roleSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => updateRole(request.ctx, { id: request.params.id, data: request.body }),
  );

  app.delete(
    '/api/roles/:id',
    {
      config: { access: { resource: 'roles', action: 'DELETE' } },
      schema: {
        tags: ['roles'],
        summary: 'Eliminar un rol que nadie usa',
        params,
        response: { 204: noContentSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await deleteRole(request.ctx, request.params);
      return reply.status(204).send(null);
    },
  );
};
