import {
  type AgreementListItem,
  agreementCreateSchema,
  agreementDebtQuerySchema,
  agreementDebtSchema,
  agreementJobSchema,
  agreementListItemSchema,
  agreementListQuerySchema,
  agreementRestructureSchema,
  agreementSchema,
  agreementSimulationSchema,
  agreementStateLabels,
  agreementVoidSchema,
  exportQueryOf,
  formatDay,
  idParamsSchema,
  jobStartedSchema,
  listResponse,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendReport } from '../../platform/downloads.ts';
import { type ExportColumn, sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { agreementDebtOf, createAgreement, simulateAgreement } from './creation.ts';
import { startDetection } from './jobs.ts';
import { agreementExportBatches, findAgreements, getAgreement } from './queries.ts';
import { registerAgreementQueues } from './queues.ts';
import { registerInstalmentReminders } from './reminders.ts';
import { agreementReport } from './report.ts';
import { restructureAgreement, voidAgreement } from './restructuring.ts';

const tags = ['convenios'];
const P = (action: 'READ' | 'CREATE' | 'UPDATE' | 'DELETE' | 'EXPORT' | 'APPROVE') => ({
  resource: 'payment-agreements' as const,
  action,
});

const columns: ExportColumn<AgreementListItem>[] = [
  { header: 'Convenio', value: (x) => x.number, width: 18 },
  { header: 'Entidad', value: (x) => x.entityName, width: 36 },
  { header: 'Fecha', value: (x) => formatDay(x.agreementDate) },
  { header: 'Estado', value: (x) => agreementStateLabels[x.state] },
  { header: 'Deuda', value: (x) => x.debt, money: true },
  { header: 'Enganche', value: (x) => x.downPayment, money: true },
  { header: 'Cuotas', value: (x) => x.instalmentCount },
  { header: 'Pagado', value: (x) => x.paid, money: true },
  { header: 'Saldo', value: (x) => x.balance, money: true },
  { header: 'Cuotas vencidas', value: (x) => x.overdueInstalments },
  { header: 'Reestructuraciones', value: (x) => x.restructurings },
];

export const agreementRoutes: FastifyPluginAsyncZod = async (app) => {
  registerAgreementQueues();
  registerInstalmentReminders();

  const institution = app.config.APP_TITLE;

  app.get(
    '/api/payment-agreements',
    {
      config: { access: P('READ') },
      schema: {
        tags,
        summary: 'Convenios de pago dentro del alcance (entidad, estado), con pagado, saldo y cuotas vencidas',
        querystring: agreementListQuerySchema,
        response: { 200: listResponse(agreementListItemSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findAgreements(request.ctx, request.query),
  );

  app.get(
    '/api/payment-agreements/export',
    {
      config: { access: P('EXPORT'), heavy: true },
      schema: {
        tags,
        summary: 'Exportar los convenios filtrados (xlsx o csv)',
        querystring: exportQueryOf(agreementListQuerySchema),
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      return sendExport(reply, {
        format,
        filename: 'convenios-pago',
        sheetName: 'Convenios',
        columns,
        batches: agreementExportBatches(request.ctx, query),
      });
    },
  );

  app.get(
    '/api/payment-agreements/debt',
    {
      config: { access: P('READ') },
      schema: {
        tags,
        summary: 'Órdenes vencidas de una entidad con intereses a hoy, cargo administrativo y límites vigentes para un convenio',
        querystring: agreementDebtQuerySchema,
        response: { 200: agreementDebtSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => agreementDebtOf(request.ctx, { entityId: request.query.entityId }),
  );

  app.post(
    '/api/payment-agreements/simulate',
    {
      config: { access: P('READ') },
      schema: {
        tags,
        summary: 'Simular un convenio: el calendario de enganche y cuotas, sin crear nada',
        body: agreementCreateSchema,
        response: { 200: agreementSimulationSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => simulateAgreement(request.ctx, request.body),
  );

  app.post(
    '/api/payment-agreements',
    {
      config: { access: P('CREATE') },
      schema: {
        tags,
        summary: 'Crear un convenio: consolida las órdenes vencidas y emite una orden de pago por cuota (enganche primero)',
        body: agreementCreateSchema,
        response: { 201: agreementSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await createAgreement(request.ctx, request.body)),
  );

  app.post(
    '/api/payment-agreements/detection-jobs',
    {
      config: { access: P('APPROVE') },
      schema: {
        tags,
        summary: 'Ejecutar la detección de incumplimiento y cumplimiento (opcional: a una fecha)',
        body: agreementJobSchema,
        response: { 202: jobStartedSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.status(202).send(await startDetection(request.ctx, request.body.asOf)),
  );

  app.get(
    '/api/payment-agreements/:id',
    {
      config: { access: P('READ') },
      schema: {
        tags,
        summary: 'Un convenio: deuda, órdenes convenidas, calendario con lo pagado y el saldo',
        params: idParamsSchema,
        response: { 200: agreementSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getAgreement(request.ctx, { id: request.params.id }),
  );

  app.get(
    '/api/payment-agreements/:id/pdf',
    {
      config: { access: P('READ'), heavy: true },
      schema: {
        tags,
        summary: 'El convenio en PDF con su calendario, para firma',
        params: idParamsSchema,
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const ag = await getAgreement(request.ctx, { id: request.params.id });
      return sendReport(request, reply, agreementReport(ag), { name: `convenio-${ag.number}`, fallbackInstitution: institution });
    },
  );

  app.post(
    '/api/payment-agreements/:id/restructure',
    {
      config: { access: P('UPDATE') },
      schema: {
        tags,
        summary: 'Reestructurar un convenio vigente: sus cuotas pendientes se reemplazan por un calendario nuevo',
        params: idParamsSchema,
        body: agreementRestructureSchema,
        response: { 200: agreementSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => restructureAgreement(request.ctx, { id: request.params.id, ...request.body }),
  );

  app.post(
    '/api/payment-agreements/:id/void',
    {
      config: { access: P('DELETE') },
      schema: {
        tags,
        summary: 'Anular un convenio sin pagos, con motivo: sus órdenes vuelven a la mora',
        params: idParamsSchema,
        body: agreementVoidSchema,
        response: { 200: agreementSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => voidAgreement(request.ctx, { id: request.params.id, reason: request.body.reason }),
  );
};
