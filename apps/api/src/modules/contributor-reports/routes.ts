import { type Action, contributorListQuerySchema, type Resource } from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/http.ts';
import { scopeOf } from '../contributors/routes.ts';
import { reportPdf, reportXlsx } from './pdf.ts';
import { contributorReport, describeFilters, institutionName, type ReportKind, type ReportRow, reportKinds } from './service.ts';

const filtersSchema = contributorListQuerySchema.pick({
  entityId: true,
  departmentId: true,
  municipalityId: true,
  typeId: true,
  state: true,
  cuiState: true,
});

const rowSchema = z.object({
  key: z.string(),
  label: z.string(),
  group: z.string().nullable(),
  ACTIVO: z.number().int(),
  INACTIVO: z.number().int(),
  FALLECIDO: z.number().int(),
  total: z.number().int(),
  salaryTotal: z.string(),
});

const resourceOf: Record<ReportKind, Resource> = {
  general: 'contributor-report-general',
  'by-municipality': 'contributor-report-municipality',
  'by-type': 'contributor-report-type',
};

const firstHeader: Record<ReportKind, string> = {
  general: 'Departamento',
  'by-municipality': 'Municipio',
  'by-type': 'Tipo de afiliado',
};

export const contributorReportRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const kind of reportKinds) {
    const resource = resourceOf[kind];
    const ctx = (user: Parameters<typeof scopeOf>[0], action: Action) => ({
      db: app.db,
      user,
      scope: scopeOf(user, resource, action),
      kind,
    });

    app.get(
      `/api/contributor-reports/${kind}`,
      {
        config: { access: { resource, action: 'READ' } },
        schema: {
          tags: ['contributor-reports'],
          summary: `Reporte: ${firstHeader[kind].toLowerCase()}`,
          querystring: filtersSchema,
          response: {
            200: z.object({ kind: z.string(), title: z.string(), items: z.array(rowSchema), totals: rowSchema }),
            ...errorResponses(400, 401, 403),
          },
        },
      },
      async (request) => contributorReport({ ...ctx(request.auth!.user, 'READ'), filters: request.query }),
    );

    app.get(
      `/api/contributor-reports/${kind}/export`,
      {
        config: { access: { resource, action: 'EXPORT' } },
        schema: {
          tags: ['contributor-reports'],
          summary: `Exportar reporte (xlsx o pdf): ${firstHeader[kind].toLowerCase()}`,
          querystring: filtersSchema.extend({ format: z.enum(['xlsx', 'pdf']).default('xlsx') }),
          response: { ...errorResponses(400, 401, 403) },
        },
      },
      async (request, reply) => {
        const { format, ...filters } = request.query;
        const report = await contributorReport({ ...ctx(request.auth!.user, 'EXPORT'), filters });
        const withGroup = kind === 'by-municipality';
        const headers = [
          firstHeader[kind],
          ...(withGroup ? ['Departamento'] : []),
          'Activos',
          'Inactivos',
          'Fallecidos',
          'Total',
          'Salarios (Q)',
        ];
        const values = (r: ReportRow) => [
          r.label,
          ...(withGroup ? [r.group ?? ''] : []),
          r.ACTIVO,
          r.INACTIVO,
          r.FALLECIDO,
          r.total,
          Number(r.salaryTotal).toLocaleString('en-US', { minimumFractionDigits: 2 }),
        ];
        if (format === 'pdf') {
          const first = withGroup ? 2 : 1;
          const pdf = await reportPdf({
            institution: await institutionName(app.db, app.config.APP_TITLE),
            title: report.title,
            generatedAt: new Date(),
            filters: await describeFilters(app.db, filters),
            headers,
            rows: report.items.map(values),
            totals: values({ ...report.totals, group: withGroup ? '' : null }),
            numeric: [first, first + 1, first + 2, first + 3, first + 4],
          });
          const stamp = new Date().toISOString().slice(0, 10);
          return reply
            .header('content-type', 'application/pdf')
            .header('content-disposition', `attachment; filename="reporte-afiliados-${kind}-${stamp}.pdf"`)
            .header('cache-control', 'no-store')
            .send(pdf as never);
        }
        const xlsx = await reportXlsx({
          institution: await institutionName(app.db, app.config.APP_TITLE),
          title: report.title,
          generatedAt: new Date(),
          filters: await describeFilters(app.db, filters),
          headers,
          rows: report.items.map((r) => values(r).map((v, i) => (i === headers.length - 1 ? Number(r.salaryTotal) : v))),
          totals: values({ ...report.totals, group: withGroup ? '' : null }).map((v, i) =>
            i === headers.length - 1 ? Number(report.totals.salaryTotal) : v,
          ),
          numeric: [],
        });
        return reply
          .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .header(
            'content-disposition',
            `attachment; filename="reporte-afiliados-${kind}-${new Date().toISOString().slice(0, 10)}.xlsx"`,
          )
          .header('cache-control', 'no-store')
          .send(xlsx as never);
      },
    );
  }
};
