/** The routes of payments: the list and its export, one payment, registering, reversing, a new receipt, the offices. */
import {
  exportQueryOf,
  formatDay,
  idParamsSchema,
  listResponse,
  type Payment,
  paymentCreateSchema,
  paymentListQuerySchema,
  paymentResultSchema,
  paymentReverseSchema,
  paymentSchema,
  paymentStateLabels,
  receiptOfficeListSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type ExportColumn, sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { findPayments, getPayment, paymentExportBatches } from './payment-reads.ts';
import { registerPayment, reversePayment } from './payments.ts';
import { activeOffices, reissueReceipt } from './receipts.ts';

const tags = ['pagos'];

const paymentColumns: ExportColumn<Payment>[] = [
  { header: 'Pago', value: (p) => p.id },
  { header: 'Fecha', value: (p) => formatDay(p.payDate) },
  { header: 'Entidad o afiliado', value: (p) => p.entityName ?? p.contributorName ?? '', width: 36 },
  { header: 'Banco', value: (p) => p.bank },
  { header: 'Referencia bancaria', value: (p) => p.bankReference, width: 24 },
  { header: 'Monto', value: (p) => p.amount, money: true },
  { header: 'Recibo', value: (p) => (p.receipt ? `${p.receipt.series}-${p.receipt.number}` : '') },
  { header: 'Estado', value: (p) => paymentStateLabels[p.state] },
];

export const paymentRecordRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/payments',
    {
      config: { access: { resource: 'planilla-payments', action: 'READ' } },
      schema: {
        tags,
        summary: 'Pagos registrados dentro del alcance',
        querystring: paymentListQuerySchema,
        response: { 200: listResponse(paymentSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findPayments(request.ctx, request.query),
  );

  app.get(
    '/api/payments/export',
    {
      config: { access: { resource: 'planilla-payments', action: 'EXPORT' }, heavy: true },
      schema: {
        tags,
        summary: 'Exportar los pagos filtrados (xlsx o csv)',
        querystring: exportQueryOf(paymentListQuerySchema),
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      return sendExport(reply, {
        format,
        filename: 'pagos',
        sheetName: 'Pagos',
        columns: paymentColumns,
        batches: paymentExportBatches(request.ctx, query),
      });
    },
  );

  app.get(
    '/api/payments/:id',
    {
      config: { access: { resource: 'planilla-payments', action: 'READ' } },
      schema: {
        tags,
        summary: 'Un pago con su aplicación a las órdenes y su recibo',
        params: idParamsSchema,
        response: { 200: paymentSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getPayment(request.ctx, { id: request.params.id }),
  );

  app.post(
    '/api/payments',
    {
      config: { access: { resource: 'planilla-payments', action: 'CREATE' } },
      schema: {
        tags,
        summary:
          'Registrar un pago contra órdenes de una entidad (intereses primero, luego capital) y emitir su recibo 7-B; una repetición (misma clave o referencia bancaria) responde el primer resultado',
        body: paymentCreateSchema,
        response: { 200: paymentResultSchema, 201: paymentResultSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const r = await registerPayment(request.ctx, request.body);
      return reply.status(r.replayed ? 200 : 201).send(r);
    },
  );

  app.post(
    '/api/payments/:id/reverse',
    {
      config: { access: { resource: 'planilla-payments', action: 'DELETE' } },
      schema: {
        tags,
        summary: 'Revertir un pago con motivo: se anula su recibo y se restituye el saldo de sus órdenes',
        params: idParamsSchema,
        body: paymentReverseSchema,
        response: { 200: paymentSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => reversePayment(request.ctx, { id: request.params.id, reason: request.body.reason }),
  );

  app.post(
    '/api/payments/:id/receipt',
    {
      config: { access: { resource: 'receipts-7b', action: 'CREATE' } },
      schema: {
        tags,
        summary: 'Emitir un recibo nuevo (siguiente número) para un pago cuyo recibo fue anulado',
        params: idParamsSchema,
        response: { 200: paymentSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => reissueReceipt(request.ctx, { paymentId: request.params.id }),
  );

  app.get(
    '/api/payments/offices',
    {
      config: { access: { resource: 'planilla-payments', action: 'READ' } },
      schema: {
        tags,
        summary: 'Oficinas emisoras con un rango 7-B activo y sus formas disponibles',
        response: { 200: receiptOfficeListSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ items: await activeOffices(request.ctx) }),
  );
};
