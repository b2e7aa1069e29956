/**
 * The routes of survival checks: lists, the notarised act, registering a check, letters, the daily
 * suspension and RENAP jobs, one pensioner's RENAP lookup, and death reviews.
 */
import {
  attachmentSchema,
  idParamsSchema,
  jobStartedSchema,
  listResponse,
  pensionDetailSchema,
  pensionReviewSchema,
  renapJobInputSchema,
  renapPensionCheckSchema,
  reviewDecisionSchema,
  reviewListQuerySchema,
  survivalCheckInputSchema,
  survivalCheckSchema,
  survivalJobInputSchema,
  survivalLettersQuerySchema,
  survivalListQuerySchema,
  survivalListResponseSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendDownload, sendReport } from '../../platform/downloads.ts';
import { errorResponses } from '../../platform/http.ts';
import { readUpload } from '../../platform/uploads.ts';
import type { RenapAdapter } from '../renap/adapter.ts';
import { checkPensionerInRenap, decideReview, findReviews } from './deaths.ts';
import { startLetters, startRenapCheck, startSuspension } from './jobs.ts';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TYPES,
  checkAttachmentFile,
  recordSurvivalCheck,
  storeAttachment,
  survivalLists,
} from './survival.ts';
import { oneLetter } from './survival-letters.ts';

const S = (a: 'READ' | 'CREATE' | 'APPROVE' | 'EXPORT') => ({ resource: 'supervivencia' as const, action: a });
const tags = ['pensions'];

export const survivalRoutes: FastifyPluginAsyncZod<{ adapter: () => RenapAdapter }> = async (app, { adapter }) => {
  const institution = app.config.APP_TITLE;

  app.get(
    '/api/survival',
    {
      config: { access: S('READ') },
      schema: {
        tags,
        summary: 'Supervivencias por presentar (due), vencidas (overdue) o presentadas (done) a una fecha',
        querystring: survivalListQuerySchema,
        response: { 200: survivalListResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => survivalLists(request.ctx, request.query),
  );

  app.post(
    '/api/survival/attachments',
    {
      config: { access: S('CREATE') },
      schema: {
        tags,
        summary: 'Subir el acta notarial (multipart, campo "file"; PDF, JPG o PNG, hasta 10 MB)',
        consumes: ['multipart/form-data'],
        response: { 201: attachmentSchema, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request, reply) => {
      // The type is read from the bytes, never from what the browser declares (issue 25).
      const { file } = await readUpload(request, z.object({}), {
        accept: ATTACHMENT_TYPES,
        maxBytes: ATTACHMENT_MAX_BYTES,
        fallbackName: 'acta',
      });
      const stored = await storeAttachment(request.ctx, app.files, file!);
      return reply.status(201).send(stored);
    },
  );

  app.post(
    '/api/pensions/:id/survival-checks',
    {
      config: { access: S('CREATE') },
      schema: {
        tags,
        summary: 'Registrar la supervivencia (reactiva la pensión suspendida por supervivencia)',
        params: idParamsSchema,
        body: survivalCheckInputSchema,
        response: { 201: survivalCheckSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await recordSurvivalCheck(request.ctx, app.files, request.log, {
          pensionId: request.params.id,
          data: request.body,
          adapter: adapter(),
        }),
      ),
  );

  app.get(
    '/api/survival-checks/:id/attachment',
    {
      config: { access: S('READ') },
      schema: {
        tags,
        summary: 'Descargar el acta adjunta a una supervivencia',
        params: idParamsSchema,
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => sendDownload(reply, await checkAttachmentFile(request.ctx, app.files, request.params.id)),
  );

  app.get(
    '/api/pensions/:id/survival-letter',
    {
      config: { access: S('EXPORT'), heavy: true },
      schema: {
        tags,
        summary: 'Carta de aviso de supervivencia de un pensionado (PDF)',
        params: idParamsSchema,
        response: { ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      sendReport(request, reply, await oneLetter(request.ctx, request.params.id), {
        name: `aviso-supervivencia-${request.params.id}`,
        fallbackInstitution: institution,
      }),
  );

  app.post(
    '/api/survival/letter-jobs',
    {
      config: { access: S('EXPORT') },
      schema: {
        tags,
        summary: 'Cartas a todos los pensionados con supervivencia en el mes (proceso; PDF)',
        body: survivalLettersQuerySchema,
        response: { 202: jobStartedSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.status(202).send(await startLetters(request.ctx, request.body)),
  );

  app.post(
    '/api/survival/suspension-jobs',
    {
      config: { access: S('APPROVE') },
      schema: {
        tags,
        summary: 'Ejecutar la suspensión diaria (opcional: a una fecha)',
        body: survivalJobInputSchema,
        response: { 202: jobStartedSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.status(202).send(await startSuspension(request.ctx, request.body.asOf)),
  );

  app.post(
    '/api/survival/renap-jobs',
    {
      config: { access: S('APPROVE') },
      schema: {
        tags,
        summary: 'Verificar en RENAP a todos los pensionados (proceso con avance)',
        body: renapJobInputSchema,
        response: { 202: jobStartedSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.status(202).send(await startRenapCheck(request.ctx)),
  );

  app.post(
    '/api/pensions/:id/renap-check',
    {
      config: { access: S('CREATE') },
      schema: {
        tags,
        summary: 'Consultar RENAP por el pensionado (un fallecimiento suspende y abre revisión)',
        params: idParamsSchema,
        response: { 200: renapPensionCheckSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => checkPensionerInRenap(request.ctx, { pensionId: request.params.id, adapter: adapter() }),
  );

  app.get(
    '/api/pension-reviews',
    {
      config: { access: S('READ') },
      schema: {
        tags,
        summary: 'Revisiones abiertas por registros de fallecimiento',
        querystring: reviewListQuerySchema,
        response: { 200: listResponse(pensionReviewSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findReviews(request.ctx, request.query),
  );

  app.post(
    '/api/pension-reviews/:id/decision',
    {
      config: { access: S('APPROVE') },
      schema: {
        tags,
        summary: 'Resolver una revisión de fallecimiento',
        params: idParamsSchema,
        body: reviewDecisionSchema,
        response: { 200: pensionDetailSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => decideReview(request.ctx, { id: request.params.id, ...request.body }),
  );
};
