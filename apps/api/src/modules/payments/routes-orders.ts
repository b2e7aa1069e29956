/** The routes of payment orders: the list as of a date, its totals and export, one order, its PDF, voiding. */
import {
  exportQueryOf,
  formatDay,
  formatPaymentReference,
  formatPeriod,
  idParamsSchema,
  listResponse,
  orderAsOfQuerySchema,
  orderKindLabels,
  orderStateLabels,
  orderVoidSchema,
  type PaymentOrder,
  paymentOrderListQuerySchema,
  paymentOrderSchema,
  paymentOrderTotalsSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendReport } from '../../platform/downloads.ts';
import { type ExportColumn, sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { findOrders, getOrder, orderDocument, orderExportBatches, orderTotals, voidOrder } from './order-views.ts';

const tags = ['pagos'];

const orderColumns: ExportColumn<PaymentOrder>[] = [
  { header: 'Referencia', value: (o) => formatPaymentReference(o.reference), width: 26 },
  { header: 'Tipo', value: (o) => orderKindLabels[o.kind] },
  { header: 'Entidad o afiliado', value: (o) => o.entityName ?? o.contributorName ?? '', width: 36 },
  { header: 'Período', value: (o) => o.periods.map(formatPeriod).join(', ') },
  { header: 'Vence', value: (o) => formatDay(o.dueDate) },
  { header: 'Estado', value: (o) => orderStateLabels[o.state] },
  { header: 'Días de mora', value: (o) => o.overdueDays },
  { header: 'Capital', value: (o) => o.principal, money: true },
  { header: 'Intereses causados', value: (o) => o.interestAccrued, money: true },
  { header: 'Capital pagado', value: (o) => o.principalPaid, money: true },
  { header: 'Intereses pagados', value: (o) => o.interestPaid, money: true },
  { header: 'Capital pendiente', value: (o) => o.principalDue, money: true },
  { header: 'Intereses pendientes', value: (o) => o.interestDue, money: true },
  { header: 'Saldo', value: (o) => o.balance, money: true },
];

export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  const institution = app.config.APP_TITLE;

  app.get(
    '/api/payment-orders',
    {
      config: { access: { resource: 'payment-orders', action: 'READ' } },
      schema: {
        tags,
        summary:
          'Órdenes de pago dentro del alcance (entidad, afiliado, período, estado, días de mora), con intereses y saldo a una fecha',
        querystring: paymentOrderListQuerySchema,
        response: { 200: listResponse(paymentOrderSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findOrders(request.ctx, request.query),
  );

  app.get(
    '/api/payment-orders/totals',
    {
      config: { access: { resource: 'payment-orders', action: 'READ' } },
      schema: {
        tags,
        summary: 'Totales de las órdenes filtradas: capital, pagado, intereses y saldo a una fecha',
        querystring: paymentOrderListQuerySchema,
        response: { 200: paymentOrderTotalsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => orderTotals(request.ctx, request.query),
  );

  app.get(
    '/api/payment-orders/export',
    {
      config: { access: { resource: 'payment-orders', action: 'EXPORT' }, heavy: true },
      schema: {
        tags,
        summary: 'Exportar las órdenes de pago filtradas (xlsx o csv)',
        querystring: exportQueryOf(paymentOrderListQuerySchema),
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      return sendExport(reply, {
        format,
        filename: 'ordenes-pago',
        sheetName: 'Órdenes',
        columns: orderColumns,
        batches: orderExportBatches(request.ctx, query),
      });
    },
  );

  app.get(
    '/api/payment-orders/:id',
    {
      config: { access: { resource: 'payment-orders', action: 'READ' } },
      schema: {
        tags,
        summary: 'Una orden de pago: capital, intereses, pagado y saldo a la fecha elegida',
        params: idParamsSchema,
        querystring: orderAsOfQuerySchema,
        response: { 200: paymentOrderSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getOrder(request.ctx, { id: request.params.id, asOf: request.query.asOf }),
  );

  app.get(
    '/api/payment-orders/:id/pdf',
    {
      config: { access: { resource: 'payment-orders', action: 'READ' }, heavy: true },
      schema: {
        tags,
        summary: 'La orden de pago en PDF, con la referencia y su código QR',
        params: idParamsSchema,
        querystring: orderAsOfQuerySchema,
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { report, name } = await orderDocument(request.ctx, { id: request.params.id, asOf: request.query.asOf });
      return sendReport(request, reply, report, { name, fallbackInstitution: institution });
    },
  );

  app.post(
    '/api/payment-orders/:id/void',
    {
      config: { access: { resource: 'payment-orders', action: 'DELETE' } },
      schema: {
        tags,
        summary: 'Anular una orden sin pagos, con motivo',
        params: idParamsSchema,
        body: orderVoidSchema,
        response: { 200: paymentOrderSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => voidOrder(request.ctx, { id: request.params.id, reason: request.body.reason }),
  );
};
