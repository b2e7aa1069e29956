import { contributorListQuerySchema, contributorReportSchema, type Resource } from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/http.ts';
import { generateReportPdf } from '../../platform/pdf.ts';
import { generateReportXlsx } from '../../platform/report-xlsx.ts';
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
        config: { access: { resource, action: 'EXPORT' } },
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
        const fallbackInstitution = app.config.APP_TITLE;
        reply.header('cache-control', 'no-store');
        if (format === 'pdf') {
          const origin = `${request.protocol}://${request.host}`;
          const { pdf, code } = await generateReportPdf(request.ctx, report, {
            fallbackInstitution,
            verifyUrl: (c) => `${origin}/api/documents/verify/${c}`,
          });
          return reply
            .header('content-type', 'application/pdf')
            .header('content-disposition', `attachment; filename="${name}.pdf"`)
            .header('x-verification-code', code)
            .send(pdf as never);
        }
        const xlsx = await generateReportXlsx(request.ctx, report, { fallbackInstitution });
        return reply
          .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .header('content-disposition', `attachment; filename="${name}.xlsx"`)
          .send(xlsx as never);
      },
    );
  }
};
