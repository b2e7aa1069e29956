/** The routes of 7-B receipts and their authorised ranges: lists, export, PDF, voiding, the corte de formas. */
import {
  corteQuerySchema,
  corteSchema,
  exportQueryOf,
  idParamsSchema,
  listResponse,
  orderVoidSchema,
  type Receipt,
  receiptListQuerySchema,
  receiptRangeCreateSchema,
  receiptRangeListQuerySchema,
  receiptRangeSchema,
  receiptSchema,
  receiptStateLabels,
  receiptVoidSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendReport } from '../../platform/downloads.ts';
import { type ExportColumn, sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import {
  corteDeFormas,
  corteDocument,
  createRange,
  findRanges,
  findReceipts,
  receiptDocument,
  receiptExportBatches,
  voidRange,
  voidReceipt,
} from './receipts.ts';

const tags = ['pagos'];

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

export const receiptRoutes: FastifyPluginAsyncZod = async (app) => {
  const institution = app.config.APP_TITLE;

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
        querystring: exportQueryOf(receiptListQuerySchema),
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
      const { report, name } = await receiptDocument(request.ctx, { id: request.params.id });
      return sendReport(request, reply, report, { name, fallbackInstitution: institution });
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
      const { report, name } = await corteDocument(request.ctx, request.query);
      return sendReport(request, reply, report, { name, format: request.query.format, fallbackInstitution: institution });
    },
  );
};
