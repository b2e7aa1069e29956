/** The routes of the monthly pension payroll: list, one payroll and its lines, generate, close, bank file, summary. */
import {
  listQuerySchema,
  listResponse,
  payrollExceptionSchema,
  payrollExceptionsQuerySchema,
  payrollGenerateParamsSchema,
  payrollLineSchema,
  payrollLinesQuerySchema,
  payrollParamsSchema,
  pensionPayrollSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendReport } from '../../platform/downloads.ts';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { closePayroll, requestPayroll } from './payroll.ts';
import {
  bankFileBatches,
  bankFileColumns,
  findPayrolls,
  getPayroll,
  payrollExceptions,
  payrollLines,
  payrollSummary,
} from './payroll-reads.ts';

const P = (a: 'READ' | 'CREATE' | 'UPDATE' | 'APPROVE' | 'EXPORT') => ({ resource: 'passive-classes' as const, action: a });
const tags = ['pensions'];

export const payrollRoutes: FastifyPluginAsyncZod = async (app) => {
  const institution = app.config.APP_TITLE;

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

  app.get(
    '/api/pension-payrolls/:period/exceptions',
    {
      config: { access: P('READ') },
      schema: {
        tags,
        summary: 'Pensiones que la planilla excluyó (fallecidos, suspendidos) u observó (empleo activo), con el motivo',
        params: payrollParamsSchema,
        querystring: payrollExceptionsQuerySchema,
        response: { 200: listResponse(payrollExceptionSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => payrollExceptions(request.ctx, { ...request.params, ...request.query }),
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
};
