import {
  AppError,
  autoSignRuleListSchema,
  autoSignRuleSchema,
  batchSealResultSchema,
  batchSealSchema,
  idParamSchema,
  msg,
  newAutoSignRuleSchema,
  noContentSchema,
  updateAutoSignRuleSchema,
  verificationReportSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/http.ts';
import { readUpload } from '../../platform/uploads.ts';
import { startBatchSeal } from './batch.ts';
import type { SigningDeps } from './deps.ts';
import { createRule, deleteRule, listRules, updateRule } from './rules.ts';
import { verifyUpload } from './verify.ts';

/** The routes of verification and automatic sealing (firmaAutomatica): rules and batch sealing. */

const tags = ['signing'];

export function registerRuleRoutes(app: Parameters<FastifyPluginAsyncZod>[0], deps: SigningDeps): void {
  app.post(
    '/api/signing/verify',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Verificar las firmas de un PDF (multipart: file): firmante, cadena, hora, cambios posteriores, revocación',
        consumes: ['multipart/form-data'],
        response: { 200: verificationReportSchema, ...errorResponses(400, 401, 413, 415) },
      },
    },
    async (request) => {
      // Only read (its signatures checked), never kept nor served: an active PDF may be verified.
      const { file } = await readUpload(request, z.object({}), { accept: ['application/pdf'], keeps: false });
      if (!file) throw new AppError('VALIDATION', msg('signing.noFileReceived'));
      return verifyUpload(request.ctx, deps, file);
    },
  );

  // ------------------------------------------------------------ automatic signing (firmaAutomatica)
  app.get(
    '/api/signing/rules',
    {
      config: { access: { resource: 'auto-signature', action: 'READ' } },
      schema: {
        tags,
        summary: 'Reglas de sellado automático de documentos generados',
        response: { 200: autoSignRuleListSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => listRules(request.ctx),
  );
  app.post(
    '/api/signing/rules',
    {
      config: { access: { resource: 'auto-signature', action: 'SIGN' } },
      schema: {
        tags,
        summary: 'Crear una regla de sellado automático',
        body: newAutoSignRuleSchema,
        response: { 201: autoSignRuleSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await createRule(request.ctx, request.body)),
  );
  app.put(
    '/api/signing/rules/:id',
    {
      config: { access: { resource: 'auto-signature', action: 'SIGN' } },
      schema: {
        tags,
        summary: 'Activar o desactivar una regla',
        params: idParamSchema,
        body: updateAutoSignRuleSchema,
        response: { 200: autoSignRuleSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => updateRule(request.ctx, request.params.id, request.body),
  );
  app.delete(
    '/api/signing/rules/:id',
    {
      config: { access: { resource: 'auto-signature', action: 'SIGN' } },
      schema: {
        tags,
        summary: 'Eliminar una regla',
        params: idParamSchema,
        response: { 204: noContentSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await deleteRule(request.ctx, request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/api/signing/batch',
    {
      config: { access: { resource: 'auto-signature', action: 'SIGN' } },
      schema: {
        tags,
        summary: 'Sellar en lote los PDF de Documentos que elige un filtro (proceso con avance)',
        body: batchSealSchema,
        response: { 202: batchSealResultSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.status(202).send(await startBatchSeal(request.ctx, request.body)),
  );
}
