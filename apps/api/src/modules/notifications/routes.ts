import {
  idParamsSchema,
  notificationActionResultSchema,
  notificationIdsSchema,
  notificationListQuerySchema,
  notificationListSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http.ts';
import { deleteNotifications, findNotifications, markNotificationsRead } from './service.ts';

/** Each user sees and manages only their own notifications. */
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/notifications',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['notifications'],
        summary: 'Mis notificaciones, con el número de no leídas',
        querystring: notificationListQuerySchema,
        response: { 200: notificationListSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => findNotifications(request.ctx, request.query),
  );

  app.post(
    '/api/notifications/read',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['notifications'],
        summary: 'Marcar como leídas (una, varias o todas)',
        body: notificationIdsSchema,
        response: { 200: notificationActionResultSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => markNotificationsRead(request.ctx, request.body),
  );

  app.post(
    '/api/notifications/delete',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['notifications'],
        summary: 'Eliminar notificaciones (varias o todas)',
        body: notificationIdsSchema,
        response: { 200: notificationActionResultSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => deleteNotifications(request.ctx, request.body),
  );

  app.delete(
    '/api/notifications/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['notifications'],
        summary: 'Eliminar una notificación',
        params: idParamsSchema,
        response: { 200: notificationActionResultSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => deleteNotifications(request.ctx, { ids: [request.params.id] }),
  );
};
