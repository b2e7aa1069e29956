/** The routes of pensions themselves: list, export, create, read, edit, amounts, transitions, history. */
import {
  amountChangeInputSchema,
  contributorHistoryQuerySchema,
  formatCui,
  idParamsSchema,
  listResponse,
  pensionDetailSchema,
  pensionEligibilityInputSchema,
  pensionEligibilitySchema,
  pensionExportQuerySchema,
  pensionInputSchema,
  pensionListQuerySchema,
  pensionPaymentSchema,
  pensionSchema,
  pensionTransitionSchema,
  pensionTypeLabels,
  pensionUpdateSchema,
  recordHistoryEntrySchema,
  stateTransitionListSchema,
  survivalCheckSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { paymentsOfPension } from './payroll-reads.ts';
import { changePensionAmount, createPension, previewEligibility, transitionPension, updatePension } from './pension-changes.ts';
import {
  exportPensionBatches,
  findPensions,
  getPension,
  type PensionView,
  pensionHistory,
  pensionTransitions,
} from './service.ts';
import { checksOfPension } from './survival.ts';

const P = (a: 'READ' | 'CREATE' | 'UPDATE' | 'APPROVE' | 'EXPORT') => ({ resource: 'passive-classes' as const, action: a });
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

export const pensionCoreRoutes: FastifyPluginAsyncZod = async (app) => {
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

  app.post(
    '/api/pensions/eligibility',
    {
      config: { access: P('CREATE') },
      schema: {
        tags,
        summary: 'Elegibilidad de una pensión antes de registrarla (edad, meses cotizados, empleo activo)',
        body: pensionEligibilityInputSchema,
        response: { 200: pensionEligibilitySchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => previewEligibility(request.ctx, request.body),
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
};
