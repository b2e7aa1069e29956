import { contributorListQuerySchema, contributorReportSchema, type Resource } from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendReport } from '../../platform/downloads.ts';
import { errorResponses } from '../../platform/http.ts';
import { contributorReport, contributorReportDocument, type ReportKind, reportKinds, reportTitles } from './service.ts';

const filtersSchema = contributorListQuerySchema.pick({
  entityId: true,
  departmentId: true,
  municipalityId: true,
  typeId: true,
  state: true,
  cuiState: true,
});

const resourceOf: Record<ReportKind, Resource> = {
  general: 'contributor-report-general',
  'by-municipality': 'contributor-report-municipality',
  'by-type': 'contributor-report-type',
};

export const contributorReportRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const kind of reportKinds) {
    const resource = resourceOf[kind];

    app.get(
      `/api/contributor-reports/${kind}`,
      {
        config: { access: { resource, action: 'READ' } },
        schema: {
          tags: ['contributor-reports'],
          summary: `Reporte: ${reportTitles[kind].toLowerCase()}`,
          querystring: filtersSchema,
          response: { 200: contributorReportSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => contributorReport(request.ctx, { kind, filters: request.query }),
    );

    app.get(
      `/api/contributor-reports/${kind}/export`,
      {
        config: { access: { resource, action: 'EXPORT' }, heavy: true },
        schema: {
          tags: ['contributor-reports'],
          summary: `Exportar reporte (xlsx, o pdf con código de verificación): ${reportTitles[kind].toLowerCase()}`,
          querystring: filtersSchema.extend({ format: z.enum(['xlsx', 'pdf']).default('xlsx') }),
          response: { ...errorResponses(400, 401, 403) },
        },
      },
      async (request, reply) => {
        const { format, ...filters } = request.query;
        const report = await contributorReportDocument(request.ctx, { kind, filters });
        const name = `reporte-afiliados-${kind}-${new Date().toISOString().slice(0, 10)}`;
        return sendReport(request, reply, report, { name, format, fallbackInstitution: app.config.APP_TITLE });
      },
    );
  }
};
