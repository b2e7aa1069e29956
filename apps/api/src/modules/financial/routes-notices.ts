import {
  type ArrearsNotice,
  arrearsNoticeListQuerySchema,
  arrearsNoticeSchema,
  exportQueryOf,
  formatDay,
  idParamsSchema,
  listResponse,
  MAX_PAGE_SIZE,
  type NoticeCampaign,
  noticeCampaignCreateSchema,
  noticeCampaignListQuerySchema,
  noticeCampaignSchema,
  noticeCampaignStartedSchema,
  noticeCampaignStateLabels,
  noticeMailStateLabels,
  noticeOutcomeLabels,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicOriginOf } from '../../platform/downloads.ts';
import { type ExportColumn, sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { pageBatches } from '../../platform/list.ts';
import { startCampaign } from './notice-campaigns.ts';
import { noticeNumber } from './notice-letter.ts';
import { findCampaigns, findNotices, getCampaign } from './notices.ts';

/**
 * Arrears notice campaigns (issue 29): started from the arrears ranking by whoever holds financial-module
 * CREATE (docs/decisions.md), read with READ, exported with EXPORT; all within the permission's scope.
 */

const tags = ['módulo financiero'];
type Act = 'READ' | 'CREATE' | 'EXPORT';
const F = (a: Act) => ({ resource: 'financial-module' as const, action: a });

const campaignColumns: ExportColumn<NoticeCampaign>[] = [
  { header: 'Campaña', value: (x) => x.id },
  { header: 'Deuda al', value: (x) => formatDay(x.asOf) },
  { header: 'Iniciada', value: (x) => formatDay(x.issuedOn) },
  { header: 'Iniciada por', value: (x) => x.createdBy, width: 30 },
  { header: 'Estado', value: (x) => noticeCampaignStateLabels[x.state] },
  { header: 'Deuda mínima', value: (x) => x.minTotal, money: true },
  { header: 'Entidades', value: (x) => x.counts.entities },
  { header: 'Notificadas', value: (x) => x.counts.notified },
  { header: 'Sin dirección', value: (x) => x.counts.withoutAddress },
  { header: 'Sin deuda', value: (x) => x.counts.withoutDebt },
  { header: 'Ya notificadas', value: (x) => x.counts.alreadyNotified },
  { header: 'No enviadas', value: (x) => x.counts.notSent },
  { header: 'Monto avisado', value: (x) => x.amount, money: true },
];

const noticeColumns: ExportColumn<ArrearsNotice>[] = [
  { header: 'Aviso', value: (x) => noticeNumber(x.id) },
  { header: 'Campaña', value: (x) => x.campaignId },
  { header: 'Entidad', value: (x) => x.entityName, width: 40 },
  { header: 'Código', value: (x) => x.entityCode },
  { header: 'Deuda al', value: (x) => formatDay(x.asOf) },
  { header: 'Resultado', value: (x) => noticeOutcomeLabels[x.outcome] },
  { header: 'Órdenes', value: (x) => x.orders ?? '' },
  { header: 'Monto', value: (x) => x.amount, money: true },
  { header: 'Direcciones', value: (x) => x.addresses.join(', '), width: 40 },
  { header: 'Correo', value: (x) => (x.mailState ? noticeMailStateLabels[x.mailState] : '') },
  { header: 'Documento', value: (x) => x.documentId ?? '' },
];

export const noticeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/financial/notice-campaigns',
    {
      config: { access: F('CREATE') },
      schema: {
        tags,
        summary:
          'Iniciar una campaña de avisos de mora: entidades del ranking (elegidas, o todas las que deben al menos un monto); un proceso genera, archiva y envía cada carta',
        body: noticeCampaignCreateSchema,
        response: { 202: noticeCampaignStartedSchema, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) =>
      reply.status(202).send(
        await startCampaign(request.ctx, request.body, {
          origin: publicOriginOf(request),
          institution: app.config.APP_TITLE,
        }),
      ),
  );

  app.get(
    '/api/financial/notice-campaigns',
    {
      config: { access: F('READ') },
      schema: {
        tags,
        summary: 'Campañas de avisos de mora (quién y cuándo; cuántas entidades notificadas, sin dirección, sin deuda)',
        querystring: noticeCampaignListQuerySchema,
        response: { 200: listResponse(noticeCampaignSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findCampaigns(request.ctx, request.query),
  );

  app.get(
    '/api/financial/notice-campaigns/export',
    {
      config: { access: F('EXPORT'), heavy: true },
      schema: {
        tags,
        summary: 'Exportar las campañas de avisos de mora (xlsx o csv)',
        querystring: exportQueryOf(noticeCampaignListQuerySchema),
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const ctx = request.ctx;
      return sendExport(reply, {
        format,
        filename: 'campanas-avisos-mora',
        sheetName: 'Campañas',
        columns: campaignColumns,
        batches: pageBatches((after) => findCampaigns(ctx, { ...query, page: 1, pageSize: MAX_PAGE_SIZE, after })),
      });
    },
  );

  app.get(
    '/api/financial/notice-campaigns/:id',
    {
      config: { access: F('READ') },
      schema: {
        tags,
        summary: 'Una campaña de avisos de mora con sus cifras',
        params: idParamsSchema,
        response: { 200: noticeCampaignSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getCampaign(request.ctx, { id: request.params.id }),
  );

  app.get(
    '/api/financial/notices',
    {
      config: { access: F('READ') },
      schema: {
        tags,
        summary:
          'Avisos de mora: a quién, cuándo, por cuánto, su carta en Documentos y el estado del correo (en cola, enviado, fallido)',
        querystring: arrearsNoticeListQuerySchema,
        response: { 200: listResponse(arrearsNoticeSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findNotices(request.ctx, request.query),
  );

  app.get(
    '/api/financial/notices/export',
    {
      config: { access: F('EXPORT'), heavy: true },
      schema: {
        tags,
        summary: 'Exportar los avisos de mora filtrados (xlsx o csv)',
        querystring: exportQueryOf(arrearsNoticeListQuerySchema),
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const ctx = request.ctx;
      return sendExport(reply, {
        format,
        filename: 'avisos-mora',
        sheetName: 'Avisos',
        columns: noticeColumns,
        batches: pageBatches((after) => findNotices(ctx, { ...query, page: 1, pageSize: MAX_PAGE_SIZE, after })),
      });
    },
  );
};
