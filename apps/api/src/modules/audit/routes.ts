import {
  auditChainStatusSchema,
  auditEntrySchema,
  auditExportQuerySchema,
  auditFacetsSchema,
  auditQuerySchema,
  listResponse,
  type Resource,
  recordHistoryEntrySchema,
  recordHistoryParamsSchema,
  recordHistoryQuerySchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import {
  type AuditView,
  auditExport,
  auditFacets,
  findAudit,
  findRecordHistory,
  PLANILLA_VIEW,
  verifyAuditTrail,
} from './service.ts';

/**
 * Audit trail views: the general one (`audit`) and the planilla one (`planilla-audit-logs`), the same
 * list fixed to entity type planilla. Each view: list, filter facets, export.
 */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const views: { base: string; resource: Resource; view: AuditView; label: string }[] = [
    { base: '/api/audit', resource: 'audit', view: {}, label: 'bitácora general' },
    { base: '/api/audit/planillas', resource: 'planilla-audit-logs', view: PLANILLA_VIEW, label: 'bitácora de planillas' },
  ];
  for (const { base, resource, view, label } of views) {
    app.get(
      base,
      {
        config: { access: { resource, action: 'READ' } },
        schema: {
          tags: ['audit'],
          summary: `Consultar la ${label}`,
          querystring: auditQuerySchema,
          response: { 200: listResponse(auditEntrySchema), ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => findAudit(request.ctx, { query: request.query, view }),
    );
    app.get(
      `${base}/facets`,
      {
        config: { access: { resource, action: 'READ' } },
        schema: {
          tags: ['audit'],
          summary: `Tipos de registro y acciones de la ${label}`,
          response: { 200: auditFacetsSchema, ...errorResponses(401, 403) },
        },
      },
      async (request) => auditFacets(request.ctx, { view }),
    );
    app.get(
      `${base}/export`,
      {
        config: { access: { resource, action: 'EXPORT' }, heavy: true },
        schema: {
          tags: ['audit'],
          summary: `Exportar la ${label} con los mismos filtros`,
          querystring: auditExportQuerySchema,
          response: { ...errorResponses(400, 401, 403) },
        },
      },
      async (request, reply) => {
        const { format, ...query } = request.query;
        const plan = auditExport(request.ctx, { query, view });
        return sendExport(reply, {
          format,
          filename: plan.filename,
          sheetName: 'Bitácora',
          columns: plan.columns,
          batches: plan.batches,
        });
      },
    );
  }

  // The hash chain verified (seals what waits first): heavy, as it reads the whole log.
  app.get(
    '/api/audit/verify',
    {
      config: { access: { resource: 'audit', action: 'READ' }, heavy: true },
      schema: {
        tags: ['audit'],
        summary: 'Verificar la cadena de hashes de la bitácora: íntegra hasta un registro, o el primero alterado',
        response: { 200: auditChainStatusSchema, ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => verifyAuditTrail(request.ctx),
  );

  // One record's history for any screen (components/RecordHistory.tsx), with the audit list's permission and scope.
  app.get(
    '/api/audit/records/:entityType/:entityId',
    {
      config: { access: { resource: 'audit', action: 'READ' } },
      schema: {
        tags: ['audit'],
        summary: 'Historial de cambios de un registro',
        params: recordHistoryParamsSchema,
        querystring: recordHistoryQuerySchema,
        response: { 200: listResponse(recordHistoryEntrySchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findRecordHistory(request.ctx, { ...request.params, ...request.query }),
  );
};
