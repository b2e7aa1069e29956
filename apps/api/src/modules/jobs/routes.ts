import { idParamsSchema, jobListQuerySchema, jobSchema, listResponse } from '@aporta/domain';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendDownload } from '../../platform/downloads.ts';
import { errorResponses } from '../../platform/http.ts';
import { registerJobMail } from './mail-events.ts';
import { cancelJob, findJobs, getJob, openJobFile } from './service.ts';

/**
 * "Procesos": the background jobs a user started (exports, imports…) with their progress, and everyone's
 * for holders of `jobs` READ. Open to every signed-in user: the service limits each one to their own.
 */
export const jobRoutes: FastifyPluginAsyncZod = async (app) => {
  // A long job's end reaches its starter by mail (issue 29).
  registerJobMail();

  app.get(
    '/api/jobs',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['jobs'],
        summary: 'Listar mis procesos (o los de todos, con el permiso de Procesos)',
        querystring: jobListQuerySchema,
        response: { 200: listResponse(jobSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findJobs(request.ctx, request.query),
  );

  app.get(
    '/api/jobs/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['jobs'],
        summary: 'Estado y avance de un proceso',
        params: idParamsSchema,
        response: { 200: jobSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => getJob(request.ctx, request.params.id),
  );

  app.post(
    '/api/jobs/:id/cancel',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['jobs'],
        summary: 'Cancelar un proceso en espera o en curso',
        params: idParamsSchema,
        response: { 200: jobSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => cancelJob(request.ctx, request.params.id),
  );

  app.get(
    '/api/jobs/:id/file',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['jobs'],
        summary: 'Descargar el archivo que generó un proceso (una exportación)',
        params: idParamsSchema,
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const file = await openJobFile(request.ctx, app.files, request.params.id);
      // A file body, not the JSON of the error schemas.
      return sendDownload(reply as FastifyReply, {
        body: file.body,
        contentType: file.contentType,
        size: file.size,
        filename: file.filename.replace(/[^\w.-]/g, '_'),
      });
    },
  );
};
