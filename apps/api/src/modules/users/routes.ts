import {
  createdUserSchema,
  idParamsSchema,
  listResponse,
  oneTimePasswordSchema,
  revokedSessionsSchema,
  userExportQuerySchema,
  userInputSchema,
  userListQuerySchema,
  userOptionsSchema,
  userSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { createUser, resetUserPassword, revokeUserSessions, setUserActive, updateUser } from './editing.ts';
import { findUsers, getUser, userBatches, userOptions } from './queries.ts';

const params = idParamsSchema;
const dateTime = (iso: string | null) => (iso ? new Date(iso) : null);

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/users',
    {
      config: { access: { resource: 'users', action: 'READ' } },
      schema: {
        tags: ['users'],
        summary: 'Listar usuarios',
        querystring: userListQuerySchema,
        response: { 200: listResponse(userSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findUsers(request.ctx, request.query),
  );

  app.get(
    '/api/users/export',
    {
      config: { access: { resource: 'users', action: 'EXPORT' }, heavy: true },
      schema: {
        tags: ['users'],
        summary: 'Exportar usuarios (xlsx o csv)',
        querystring: userExportQuerySchema,
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) =>
      sendExport(reply, {
        format: request.query.format,
        filename: 'usuarios',
        sheetName: 'Usuarios',
        batches: userBatches(request.ctx, request.query),
        columns: [
          { header: 'Correo electrónico', value: (u) => u.email, width: 32 },
          { header: 'Nombre', value: (u) => u.firstName, width: 20 },
          { header: 'Apellido', value: (u) => u.lastName, width: 20 },
          { header: 'Activo', value: (u) => u.isActive },
          { header: 'Roles', value: (u) => u.roles.map((r) => r.name).join(', '), width: 30 },
          { header: 'Instituciones', value: (u) => u.institutions.map((i) => i.code).join(', '), width: 24 },
          { header: 'Último ingreso', value: (u) => dateTime(u.lastLoginAt), width: 20 },
          { header: 'Creado', value: (u) => dateTime(u.createdAt), width: 20 },
        ],
      }),
  );

  app.get(
    '/api/users/options',
    {
      config: { access: { resource: 'users', action: 'READ' } },
      schema: {
        tags: ['users'],
        summary: 'Roles e instituciones (assignable: si el usuario actual puede asignarlos)',
        response: { 200: userOptionsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => userOptions(request.ctx),
  );

  app.get(
    '/api/users/:id',
    {
      config: { access: { resource: 'users', action: 'READ' } },
      schema: {
        tags: ['users'],
        summary: 'Ver un usuario',
        params,
        response: { 200: userSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getUser(request.ctx, request.params),
  );

  app.post(
    '/api/users',
    {
      config: { access: { resource: 'users', action: 'CREATE' } },
      schema: {
        tags: ['users'],
        summary: 'Crear un usuario (devuelve una contraseña de un solo uso)',
        body: userInputSchema,
        response: { 201: createdUserSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .header('cache-control', 'no-store')
        .send(await createUser(request.ctx, request.body)),
  );

  app.put(
    '/api/users/:id',
    {
      config: { access: { resource: 'users', action: 'UPDATE' } },
      schema: {
        tags: ['users'],
        summary: 'Modificar un usuario, sus roles e instituciones',
        params,
        body: userInputSchema,
        response: { 200: userSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => updateUser(request.ctx, { id: request.params.id, data: request.body }),
  );

  for (const [path, isActive, summary] of [
    ['activate', true, 'Activar un usuario'],
    ['deactivate', false, 'Desactivar un usuario (cierra todas sus sesiones)'],
  ] as const) {
    app.post(
      `/api/users/:id/${path}`,
      {
        config: { access: { resource: 'users', action: 'UPDATE' } },
        schema: { tags: ['users'], summary, params, response: { 200: userSchema, ...errorResponses(400, 401, 403, 404, 409) } },
      },
      async (request) => setUserActive(request.ctx, { id: request.params.id, isActive }),
    );
  }

  app.post(
    '/api/users/:id/reset-password',
    {
      config: { access: { resource: 'users', action: 'UPDATE' } },
      schema: {
        tags: ['users'],
        summary: 'Restablecer la contraseña (de un solo uso; debe cambiarse al ingresar)',
        params,
        response: { 200: oneTimePasswordSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      // The one-time password must not linger in a cache or proxy.
      reply.header('cache-control', 'no-store');
      return resetUserPassword(request.ctx, request.params);
    },
  );

  app.post(
    '/api/users/:id/revoke-sessions',
    {
      config: { access: { resource: 'users', action: 'UPDATE' } },
      schema: {
        tags: ['users'],
        summary: 'Cerrar todas las sesiones de un usuario',
        params,
        response: { 200: revokedSessionsSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => revokeUserSessions(request.ctx, request.params),
  );
};
