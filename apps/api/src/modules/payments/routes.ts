import {
  bankFileCreateSchema,
  bankFileRowSchema,
  bankFileSchema,
  bankRowResolveSchema,
  bankRowStates,
  collectionStatsQuerySchema,
  collectionStatsSchema,
  corteQuerySchema,
  corteSchema,
  exportFormatSchema,
  formatDay,
  formatPaymentReference,
  formatPeriod,
  idParamsSchema,
  idTextSchema,
  listQuerySchema,
  listResponse,
  orderAsOfQuerySchema,
  orderKindLabels,
  orderStateLabels,
  orderVoidSchema,
  type Payment,
  type PaymentOrder,
  paymentCreateSchema,
  paymentListQuerySchema,
  paymentOrderListQuerySchema,
  paymentOrderSchema,
  paymentOrderTotalsSchema,
  paymentResultSchema,
  paymentReverseSchema,
  paymentSchema,
  paymentStateLabels,
  type Receipt,
  receiptListQuerySchema,
  receiptRangeCreateSchema,
  receiptRangeListQuerySchema,
  receiptRangeSchema,
  receiptSchema,
  receiptStateLabels,
  receiptVoidSchema,
  voluntaryLimitsSchema,
  voluntaryOrderCreateSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendReport } from '../../platform/downloads.ts';
import { type ExportColumn, sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { findBankFileRows, findBankFiles, getBankFile, importBankFile, resolveBankRow, retryBankFile } from './bank-files.ts';
import { findOrders, getOrder, orderExportBatches, orderReport, orderTotals, voidOrder } from './orders.ts';
import { findPayments, getPayment, paymentExportBatches, registerPayment, reversePayment } from './payments.ts';
import {
  activeOffices,
  corteDeFormas,
  corteReport,
  createRange,
  findRanges,
  findReceipts,
  getReceipt,
  receiptExportBatches,
  receiptReport,
  reissueReceipt,
  voidRange,
  voidReceipt,
} from './receipts.ts';
import { collectionStats, createVoluntaryOrder, voluntaryLimits } from './voluntary.ts';
import './queues.ts';

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
  { header: 'Pagado', value: (o) => o.paid, money: true },
  { header: 'Intereses', value: (o) => o.interestDue, money: true },
  { header: 'Saldo', value: (o) => o.balance, money: true },
];

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

const receiptColumns: ExportColumn<Receipt>[] = [
  { header: 'Serie', value: (r) => r.series },
  { header: 'Número', value: (r) => r.number },
  { header: 'Oficina', value: (r) => r.office },
  { header: 'Emitido', value: (r) => r.issuedAt.slice(0, 10) },
  { header: 'Recibido de', value: (r) => r.entityName ?? r.contributorName ?? '', width: 36 },
  { header: 'Monto', value: (r) => r.amount, money: true },
  { header: 'Estado', value: (r) => receiptStateLabels[r.state] },
  { header: 'Motivo de anulación', value: (r) => r.voidReason ?? '', width: 36 },
];

const rowParams = z.object({ id: idTextSchema, rowId: idTextSchema });

export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const institution = app.config.APP_TITLE;

  // ─── Payment orders ───
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
        querystring: paymentOrderListQuerySchema
          .omit({ page: true, pageSize: true, after: true, before: true })
          .extend({ format: exportFormatSchema.default('xlsx') }),
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
      const o = await getOrder(request.ctx, { id: request.params.id, asOf: request.query.asOf });
      return sendReport(request, reply, orderReport(o), { name: `orden-${o.reference}`, fallbackInstitution: institution });
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

  // ─── Payments ───
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
        querystring: paymentListQuerySchema
          .omit({ page: true, pageSize: true, after: true, before: true })
          .extend({ format: exportFormatSchema.default('xlsx') }),
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
        response: {
          200: z.object({ items: z.array(z.object({ office: z.string(), remaining: z.number().int() })) }),
          ...errorResponses(401, 403),
        },
      },
    },
    async (request) => ({ items: await activeOffices(request.ctx) }),
  );

  // ─── Bank files ───
  app.get(
    '/api/bank-files',
    {
      config: { access: { resource: 'planilla-payments', action: 'READ' } },
      schema: {
        tags,
        summary: 'Archivos bancarios importados (NO_APLICADAS: los que tienen filas conciliadas sin pago registrado)',
        querystring: listQuerySchema.extend({ state: z.enum(['NO_APLICADAS']).optional() }),
        response: { 200: listResponse(bankFileSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      return findBankFiles(request.ctx, request.query);
    },
  );

  app.post(
    '/api/bank-files',
    {
      config: { access: { resource: 'planilla-payments', action: 'CREATE' } },
      schema: {
        tags,
        summary: 'Importar un archivo del banco (csv: fecha, referencia, monto): conciliar por referencia y registrar los pagos',
        body: bankFileCreateSchema,
        response: { 201: bankFileSchema, ...errorResponses(400, 401, 403) },
      },
      bodyLimit: 6 * 1024 * 1024,
    },
    async (request, reply) => reply.status(201).send(await importBankFile(request.ctx, request.body)),
  );

  app.get(
    '/api/bank-files/:id',
    {
      config: { access: { resource: 'planilla-payments', action: 'READ' } },
      schema: {
        tags,
        summary: 'Un archivo bancario y sus cuentas',
        params: idParamsSchema,
        response: { 200: bankFileSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      return getBankFile(request.ctx, { id: request.params.id });
    },
  );

  app.get(
    '/api/bank-files/:id/rows',
    {
      config: { access: { resource: 'planilla-payments', action: 'READ' } },
      schema: {
        tags,
        summary: 'Filas de un archivo bancario (todas, por estado o las pendientes de resolver)',
        params: idParamsSchema,
        querystring: listQuerySchema.extend({ state: z.enum([...bankRowStates, 'PENDIENTES']).optional() }),
        response: { 200: listResponse(bankFileRowSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      return findBankFileRows(request.ctx, { id: request.params.id, query: request.query });
    },
  );

  app.post(
    '/api/bank-files/:id/rows/:rowId/resolve',
    {
      config: { access: { resource: 'planilla-payments', action: 'CREATE' } },
      schema: {
        tags,
        summary: 'Resolver una fila no conciliada: pagarla contra órdenes elegidas o descartarla con una nota',
        params: rowParams,
        body: bankRowResolveSchema,
        response: { 200: bankFileRowSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      return resolveBankRow(request.ctx, { fileId: request.params.id, rowId: request.params.rowId, ...request.body });
    },
  );

  app.post(
    '/api/bank-files/:id/retry',
    {
      config: { access: { resource: 'planilla-payments', action: 'CREATE' } },
      schema: {
        tags,
        summary: 'Aplicar de nuevo las filas conciliadas cuyo pago no se registró (no aplicadas), en un proceso',
        params: idParamsSchema,
        response: { 200: bankFileSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => retryBankFile(request.ctx, { id: request.params.id }),
  );

  // ─── Receipts and ranges ───
  app.get(
    '/api/receipts',
    {
      config: { access: { resource: 'receipts-7b', action: 'READ' } },
      schema: {
        tags,
        summary: 'Recibos 7-B (rango, estado, fechas; número o serie en la búsqueda)',
        querystring: receiptListQuerySchema,
        response: { 200: listResponse(receiptSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findReceipts(request.ctx, request.query),
  );

  app.get(
    '/api/receipts/export',
    {
      config: { access: { resource: 'receipts-7b', action: 'EXPORT' }, heavy: true },
      schema: {
        tags,
        summary: 'Exportar los recibos filtrados (xlsx o csv)',
        querystring: receiptListQuerySchema
          .omit({ page: true, pageSize: true, after: true, before: true })
          .extend({ format: exportFormatSchema.default('xlsx') }),
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      return sendExport(reply, {
        format,
        filename: 'recibos-7b',
        sheetName: 'Recibos',
        columns: receiptColumns,
        batches: receiptExportBatches(request.ctx, query),
      });
    },
  );

  app.get(
    '/api/receipts/:id/pdf',
    {
      config: { access: { resource: 'receipts-7b', action: 'READ' }, heavy: true },
      schema: {
        tags,
        summary: 'El recibo 7-B en PDF',
        params: idParamsSchema,
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const r = await getReceipt(request.ctx, { id: request.params.id });
      const pay = await getPayment(request.ctx, { id: r.paymentId });
      return sendReport(request, reply, receiptReport(r, pay), {
        name: `recibo-${r.series}-${r.number}`,
        fallbackInstitution: institution,
      });
    },
  );

  app.post(
    '/api/receipts/:id/void',
    {
      config: { access: { resource: 'receipts-7b', action: 'DELETE' } },
      schema: {
        tags,
        summary: 'Anular un recibo con motivo (el número queda registrado como anulado)',
        params: idParamsSchema,
        body: receiptVoidSchema,
        response: { 200: receiptSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => voidReceipt(request.ctx, { id: request.params.id, reason: request.body.reason }),
  );

  app.get(
    '/api/receipt-ranges',
    {
      config: { access: { resource: 'receipt-ranges-7b', action: 'READ' } },
      schema: {
        tags,
        summary: 'Rangos de formas 7-B autorizados, con usados, disponibles y aviso de agotamiento',
        querystring: receiptRangeListQuerySchema,
        response: { 200: listResponse(receiptRangeSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findRanges(request.ctx, request.query),
  );

  app.post(
    '/api/receipt-ranges',
    {
      config: { access: { resource: 'receipt-ranges-7b', action: 'CREATE' } },
      schema: {
        tags,
        summary: 'Registrar un rango autorizado por la Contraloría (sin superponerse a otro de la misma serie)',
        body: receiptRangeCreateSchema,
        response: { 201: receiptRangeSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await createRange(request.ctx, request.body)),
  );

  app.post(
    '/api/receipt-ranges/:id/void',
    {
      config: { access: { resource: 'receipt-ranges-7b', action: 'DELETE' } },
      schema: {
        tags,
        summary: 'Anular un rango que no ha emitido recibos',
        params: idParamsSchema,
        body: orderVoidSchema,
        response: { 200: receiptRangeSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => voidRange(request.ctx, { id: request.params.id, reason: request.body.reason }),
  );

  app.get(
    '/api/receipt-ranges/corte',
    {
      config: { access: { resource: 'receipt-ranges-7b', action: 'READ' } },
      schema: {
        tags,
        summary: 'Corte de formas de un rango entre dos fechas: usados, anulados, disponibles, primero y último',
        querystring: corteQuerySchema,
        response: { 200: corteSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => corteDeFormas(request.ctx, request.query),
  );

  app.get(
    '/api/receipt-ranges/corte/export',
    {
      config: { access: { resource: 'receipt-ranges-7b', action: 'EXPORT' }, heavy: true },
      schema: {
        tags,
        summary: 'El corte de formas en PDF (con código de verificación) o xlsx',
        querystring: corteQuerySchema.and(z.object({ format: z.enum(['pdf', 'xlsx']).default('pdf') })),
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const c = await corteDeFormas(request.ctx, request.query);
      const report = corteReport(c);
      const name = `corte-formas-${c.range.series}-${c.range.firstNumber}`;
      return sendReport(request, reply, report, { name, format: request.query.format, fallbackInstitution: institution });
    },
  );

  // ─── Voluntary payments ───
  app.get(
    '/api/voluntary-payments',
    {
      config: { access: { resource: 'voluntary-payments', action: 'READ' } },
      schema: {
        tags,
        summary: 'Órdenes de pago voluntario',
        querystring: paymentOrderListQuerySchema,
        response: { 200: listResponse(paymentOrderSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findOrders(request.ctx, { ...request.query, kind: 'VOLUNTARIO' }),
  );

  app.get(
    '/api/voluntary-payments/limits',
    {
      config: { access: { resource: 'voluntary-payments', action: 'READ' } },
      schema: {
        tags,
        summary: 'Límites del salario declarado y tasas vigentes del pago voluntario',
        response: { 200: voluntaryLimitsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => voluntaryLimits(request.ctx),
  );

  app.post(
    '/api/voluntary-payments',
    {
      config: { access: { resource: 'voluntary-payments', action: 'CREATE' } },
      schema: {
        tags,
        summary: 'Emitir una orden de pago voluntario: ambas cuotas de los meses elegidos sobre el salario declarado',
        body: voluntaryOrderCreateSchema,
        response: { 201: paymentOrderSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await createVoluntaryOrder(request.ctx, request.body)),
  );

  // ─── Statistics ───
  app.get(
    '/api/statistics/collection',
    {
      config: { access: { resource: 'statistics', action: 'READ' } },
      schema: {
        tags,
        summary: 'Recaudación por mes frente a lo declarado, y saldo vencido por región',
        querystring: collectionStatsQuerySchema,
        response: { 200: collectionStatsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => collectionStats(request.ctx, request.query),
  );
};
