import {
  amountChangeInputSchema,
  attachmentSchema,
  contributorHistoryQuerySchema,
  formatCui,
  idParamsSchema,
  jobStartedSchema,
  listQuerySchema,
  listResponse,
  payrollGenerateParamsSchema,
  payrollLineSchema,
  payrollLinesQuerySchema,
  payrollParamsSchema,
  pensionDetailSchema,
  pensionExportQuerySchema,
  pensionInputSchema,
  pensionListQuerySchema,
  pensionPaymentSchema,
  pensionPayrollSchema,
  pensionReviewSchema,
  pensionSchema,
  pensionTransitionSchema,
  pensionTypeLabels,
  pensionUpdateSchema,
  recordHistoryEntrySchema,
  renapPensionCheckSchema,
  reviewDecisionSchema,
  reviewListQuerySchema,
  stateTransitionListSchema,
  survivalCheckInputSchema,
  survivalCheckSchema,
  survivalJobInputSchema,
  survivalLettersQuerySchema,
  survivalListQuerySchema,
  survivalListResponseSchema,
} from '@aporta/domain';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendDownload, sendReport } from '../../platform/downloads.ts';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { readUpload } from '../../platform/uploads.ts';
import { renapAdapterFor } from '../renap/adapter.ts';
import './queues.ts';
import './statistics.ts';
import './workflow-actions.ts';
import { jobEnv, startLetters, startRenapCheck, startSuspension } from './jobs.ts';
import {
  bankFileBatches,
  bankFileColumns,
  closePayroll,
  findPayrolls,
  getPayroll,
  paymentsOfPension,
  payrollLines,
  payrollSummary,
  requestPayroll,
} from './payroll.ts';
import {
  changePensionAmount,
  createPension,
  exportPensionBatches,
  findPensions,
  getPension,
  type PensionView,
  pensionHistory,
  pensionTransitions,
  transitionPension,
  updatePension,
} from './service.ts';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TYPES,
  checkAttachment,
  checkPensionerInRenap,
  checksOfPension,
  decideReview,
  fileSurvivalAct,
  findReviews,
  oneLetter,
  registerSurvivalCheck,
  storeAttachment,
  survivalLists,
} from './survival.ts';

const P = (a: 'READ' | 'CREATE' | 'UPDATE' | 'APPROVE' | 'EXPORT') => ({ resource: 'passive-classes' as const, action: a });
const S = (a: 'READ' | 'CREATE' | 'APPROVE' | 'EXPORT') => ({ resource: 'supervivencia' as const, action: a });
const tags = ['pensions'];

const pensionExportColumns = [
  { header: 'CUI', value: (p: PensionView) => formatCui(p.cui), width: 18 },
  { header: 'Pensionado', value: (p: PensionView) => p.fullName, width: 36 },
  { header: 'Tipo', value: (p: PensionView) => pensionTypeLabels[p.type] },
  { header: 'Estado', value: (p: PensionView) => p.state },
  { header: 'Resolución', value: (p: PensionView) => p.resolutionNumber },
  { header: 'Fecha de resolución', value: (p: PensionView) => p.resolutionDate },
  { header: 'Inicio', value: (p: PensionView) => p.startDate },
  { header: 'Fin', value: (p: PensionView) => p.endDate },
  { header: 'Monto mensual', value: (p: PensionView) => p.monthlyAmount, money: true },
  { header: 'Cuenta', value: (p: PensionView) => p.bankAccount },
  { header: 'Entidad', value: (p: PensionView) => p.entityName, width: 30 },
  { header: 'Supervivencia (cumpleaños)', value: (p: PensionView) => p.survivalDue },
  { header: 'Última supervivencia', value: (p: PensionView) => p.lastCheckDate },
];

export const pensionRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, { limits: { fileSize: ATTACHMENT_MAX_BYTES, files: 1, fields: 2, parts: 3, fieldSize: 1024 } });
  const adapter = () => renapAdapterFor(app.config, app.db);
  jobEnv.adapter = adapter;
  jobEnv.appTitle = app.config.APP_TITLE;

  const institution = app.config.APP_TITLE;

  // ─── Pensions ───────────────────────────────────────────────────────────────────────────────────
  app.get(
    '/api/pensions',
    {
      config: { access: P('READ') },
      schema: {
        tags,
        summary: 'Pensiones (filtros: tipo, estado, entidad, afiliado; texto: CUI o nombre)',
        querystring: pensionListQuerySchema,
        response: { 200: listResponse(pensionSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findPensions(request.ctx, request.query),
  );

  app.get(
    '/api/pensions/export',
    {
      config: { access: P('EXPORT'), heavy: true },
      schema: {
        tags,
        summary: 'Exportar pensiones (xlsx o csv) con los filtros de la lista',
        querystring: pensionExportQuerySchema,
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      return sendExport<PensionView>(reply, {
        format,
        filename: 'pensiones',
        sheetName: 'Pensiones',
        columns: pensionExportColumns,
        batches: exportPensionBatches(request.ctx, query),
      });
    },
  );

  app.post(
    '/api/pensions',
    {
      config: { access: P('CREATE') },
      schema: {
        tags,
        summary: 'Registrar una pensión con sus beneficiarios',
        body: pensionInputSchema,
        response: { 201: pensionDetailSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await createPension(request.ctx, request.body)),
  );

  app.get(
    '/api/pensions/:id',
    {
      config: { access: P('READ') },
      schema: {
        tags,
        summary: 'Pensión con beneficiarios, montos, suspensiones y meses adeudados',
        params: idParamsSchema,
        response: { 200: pensionDetailSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getPension(request.ctx, request.params),
  );

  app.put(
    '/api/pensions/:id',
    {
      config: { access: P('UPDATE') },
      schema: {
        tags,
        summary: 'Modificar resolución, cuenta o beneficiarios',
        params: idParamsSchema,
        body: pensionUpdateSchema,
        response: { 200: pensionDetailSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => updatePension(request.ctx, { id: request.params.id, data: request.body }),
  );

  app.post(
    '/api/pensions/:id/amounts',
    {
      config: { access: P('UPDATE') },
      schema: {
        tags,
        summary: 'Cambiar el monto desde una fecha (los montos anteriores se conservan)',
        params: idParamsSchema,
        body: amountChangeInputSchema,
        response: { 200: pensionDetailSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => changePensionAmount(request.ctx, { id: request.params.id, data: request.body }),
  );

  app.post(
    '/api/pensions/:id/transition',
    {
      config: { access: P('UPDATE') },
      schema: {
        tags,
        summary: 'Suspender o finalizar una pensión (con motivo)',
        params: idParamsSchema,
        body: pensionTransitionSchema,
        response: { 200: pensionDetailSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => transitionPension(request.ctx, { id: request.params.id, ...request.body }),
  );

  app.get(
    '/api/pensions/:id/history',
    {
      config: { access: P('READ') },
      schema: {
        tags,
        summary: 'Historial de cambios de una pensión',
        params: idParamsSchema,
        querystring: contributorHistoryQuerySchema,
        response: { 200: listResponse(recordHistoryEntrySchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => pensionHistory(request.ctx, { id: request.params.id, ...request.query }),
  );

  app.get(
    '/api/pensions/:id/transitions',
    {
      config: { access: P('READ') },
      schema: {
        tags,
        summary: 'Estados de una pensión con sus motivos',
        params: idParamsSchema,
        response: { 200: stateTransitionListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => pensionTransitions(request.ctx, request.params),
  );

  app.get(
    '/api/pensions/:id/payments',
    {
      config: { access: P('READ') },
      schema: {
        tags,
        summary: 'Líneas de planilla de una pensión (pagos)',
        params: idParamsSchema,
        response: { 200: listResponse(pensionPaymentSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => paymentsOfPension(request.ctx, request.params.id),
  );

  app.get(
    '/api/pensions/:id/checks',
    {
      config: { access: P('READ') },
      schema: {
        tags,
        summary: 'Supervivencias de una pensión',
        params: idParamsSchema,
        response: { 200: listResponse(survivalCheckSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => checksOfPension(request.ctx, request.params.id),
  );

  // ─── Payroll ────────────────────────────────────────────────────────────────────────────────────
  app.get(
    '/api/pension-payrolls',
    {
      config: { access: P('READ') },
      schema: {
        tags,
        summary: 'Planillas mensuales de pensiones',
        querystring: listQuerySchema,
        response: { 200: listResponse(pensionPayrollSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findPayrolls(request.ctx, request.query),
  );

  app.get(
    '/api/pension-payrolls/:period',
    {
      config: { access: P('READ') },
      schema: {
        tags,
        summary: 'Planilla de pensiones de un mes',
        params: payrollParamsSchema,
        response: { 200: pensionPayrollSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getPayroll(request.ctx, request.params),
  );

  app.get(
    '/api/pension-payrolls/:period/lines',
    {
      config: { access: P('READ') },
      schema: {
        tags,
        summary: 'Líneas de la planilla de pensiones',
        params: payrollParamsSchema,
        querystring: payrollLinesQuerySchema,
        response: { 200: listResponse(payrollLineSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => payrollLines(request.ctx, { ...request.params, ...request.query }),
  );

  app.post(
    '/api/pension-payrolls/:period/generate',
    {
      config: { access: P('CREATE') },
      schema: {
        tags,
        summary: 'Generar (o regenerar el borrador de) la planilla de pensiones del mes en curso o del siguiente',
        params: payrollGenerateParamsSchema,
        response: { 200: pensionPayrollSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) => requestPayroll(request.ctx, request.params),
  );

  app.post(
    '/api/pension-payrolls/:period/close',
    {
      config: { access: P('APPROVE') },
      schema: {
        tags,
        summary: 'Cerrar la planilla de pensiones (inmutable; las correcciones van al mes siguiente)',
        params: payrollGenerateParamsSchema,
        response: { 200: pensionPayrollSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => closePayroll(request.ctx, request.params),
  );

  app.get(
    '/api/pension-payrolls/:period/bank-file',
    {
      config: { access: P('EXPORT'), heavy: true },
      schema: {
        tags,
        summary: 'Archivo para el banco (csv)',
        params: payrollParamsSchema,
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      sendExport(reply, {
        format: 'csv',
        filename: `banco-pensiones-${request.params.period}`,
        columns: bankFileColumns(request.params.period),
        batches: await bankFileBatches(request.ctx, request.params.period),
      }),
  );

  app.get(
    '/api/pension-payrolls/:period/summary',
    {
      config: { access: P('EXPORT'), heavy: true },
      schema: {
        tags,
        summary: 'Resumen de la planilla en PDF (con código de verificación)',
        params: payrollParamsSchema,
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      sendReport(request, reply, await payrollSummary(request.ctx, request.params.period), {
        name: `planilla-pensiones-${request.params.period}`,
        fallbackInstitution: institution,
      }),
  );

  // ─── Survival checks ────────────────────────────────────────────────────────────────────────────
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
    async (request, reply) => {
      const check = await registerSurvivalCheck(request.ctx, {
        pensionId: request.params.id,
        data: request.body,
        adapter: adapter(),
      });
      // The notarised act goes to the pension's entity folder in Documentos.
      await fileSurvivalAct(request.ctx, app.files, check).catch((err) =>
        request.log.error({ err }, 'the survival act could not be filed in Documentos'),
      );
      return reply.status(201).send(check);
    },
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
    async (request, reply) => {
      const f = await checkAttachment(request.ctx, request.params.id);
      const { body, size } = await app.files.get(f.key);
      return sendDownload(reply, { body, contentType: f.contentType, size, filename: f.filename });
    },
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
        body: z.object({}).optional(),
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
