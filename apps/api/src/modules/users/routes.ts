import {
  ceilingOf,
  exportFormatSchema,
  idParamsSchema,
  listResponse,
  oneTimePasswordSchema,
  userInputSchema,
  userListQuerySchema,
  userSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { users } from '../../db/schema/index.ts';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { userScopeCondition } from '../../platform/scope.ts';
import {
  createUser,
  findUsers,
  getUser,
  resetUserPassword,
  revokeUserSessions,
  setUserActive,
  updateUser,
  userBatches,
  userOptions,
} from './service.ts';

const params = idParamsSchema;
const dateTime = (iso: string | null) => (iso ? new Date(iso) : null);

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  // Data scope of the writes on one user (edit, activate, reset password, revoke sessions): a user
  // outside the caller's scope for that permission is answered 404, as the get does.
  app.addHook('preHandler', async (request) => {
    const access = request.routeOptions.config.access;
    const id = (request.params as { id?: unknown } | undefined)?.id;
    if (typeof access !== 'object' || access.resource !== 'users' || typeof id !== 'number') return;
    const within = userScopeCondition(request.auth!.user, 'users', access.action, users.id);
    if (within) await getUser({ db: app.db, id, within });
  });

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
    async (request) =>
      findUsers({ db: app.db, query: request.query, within: userScopeCondition(request.auth!.user, 'users', 'READ', users.id) }),
  );

  app.get(
    '/api/users/export',
    {
      config: { access: { resource: 'users', action: 'EXPORT' } },
      schema: {
        tags: ['users'],
        summary: 'Exportar usuarios (xlsx o csv)',
        querystring: userListQuerySchema
          .omit({ page: true, pageSize: true })
          .extend({ format: exportFormatSchema.default('xlsx') }),
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) =>
      sendExport(reply, {
        format: request.query.format,
        filename: 'usuarios',
        sheetName: 'Usuarios',
        batches: userBatches(app.db, request.query, userScopeCondition(request.auth!.user, 'users', 'EXPORT', users.id)),
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
        response: {
          200: z.object({
            roles: z.array(z.object({ id: z.number(), name: z.string(), assignable: z.boolean() })),
            institutions: z.array(
              z.object({ id: z.number(), code: z.string(), name: z.string(), isActive: z.boolean(), assignable: z.boolean() }),
            ),
          }),
          ...errorResponses(401, 403),
        },
      },
    },
    async (request) => userOptions(app.db, ceilingOf(request.auth!.user)),
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
    async (request) =>
      getUser({ db: app.db, id: request.params.id, within: userScopeCondition(request.auth!.user, 'users', 'READ', users.id) }),
  );

  app.post(
    '/api/users',
    {
      config: { access: { resource: 'users', action: 'CREATE' } },
      schema: {
        tags: ['users'],
        summary: 'Crear un usuario (devuelve una contraseña de un solo uso)',
        body: userInputSchema,
        response: { 201: z.object({ user: userSchema, password: z.string() }), ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .header('cache-control', 'no-store')
        .send(
          await createUser({
            db: app.db,
            actor: request.auth!.actor,
            ceiling: ceilingOf(request.auth!.user),
            data: request.body,
          }),
        ),
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
    async (request) =>
      updateUser({
        db: app.db,
        actor: request.auth!.actor,
        ceiling: ceilingOf(request.auth!.user),
        id: request.params.id,
        data: request.body,
      }),
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
      async (request) =>
        setUserActive({
          db: app.db,
          actor: request.auth!.actor,
          ceiling: ceilingOf(request.auth!.user),
          id: request.params.id,
          isActive,
        }),
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
      return resetUserPassword({
        db: app.db,
        actor: request.auth!.actor,
        ceiling: ceilingOf(request.auth!.user),
        id: request.params.id,
      });
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
        response: { 200: z.object({ revoked: z.number().int() }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      revokeUserSessions({
        db: app.db,
        actor: request.auth!.actor,
        ceiling: ceilingOf(request.auth!.user),
        id: request.params.id,
      }),
  );
};
