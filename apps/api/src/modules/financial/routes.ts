import {
  type ArrearsRow,
  arrearsQuerySchema,
  arrearsSchema,
  dashboardQuerySchema,
  dashboardSchema,
  exportFormatSchema,
  formatDay,
  idParamsSchema,
  solvencyCertificateListSchema,
  solvencyCertificateSchema,
  solvencyCodeParamsSchema,
  solvencyCreateSchema,
  solvencyListQuerySchema,
  solvencyVerificationSchema,
  statementQuerySchema,
  statementSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicOriginOf, sendReport } from '../../platform/downloads.ts';
import { type ExportColumn, sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { certificateReport, findCertificates, getCertificate, issueCertificate, verifyCertificate } from './certificates.ts';
import { arrearsRanking, dashboard } from './reports.ts';
import { noticeRoutes } from './routes-notices.ts';
import { statement, statementReport } from './service.ts';

const tags = ['módulo financiero'];
type Act = 'READ' | 'CREATE' | 'EXPORT';
const F = (a: Act) => ({ resource: 'financial-module' as const, action: a });

const arrearsColumns: ExportColumn<ArrearsRow>[] = [
  { header: 'Puesto', value: (r) => r.rank },
  { header: 'Entidad', value: (r) => r.entityName, width: 40 },
  { header: 'Código', value: (r) => r.entityCode },
  { header: 'Región', value: (r) => r.regionName, width: 28 },
  { header: 'Órdenes vencidas', value: (r) => r.orders },
  { header: 'Vencida desde', value: (r) => formatDay(r.oldestDueDate) },
  { header: '1–30 días', value: (r) => r.d1_30, money: true },
  { header: '31–90 días', value: (r) => r.d31_90, money: true },
  { header: '91–180 días', value: (r) => r.d91_180, money: true },
  { header: 'Más de 180 días', value: (r) => r.d181, money: true },
  { header: 'Total', value: (r) => r.total, money: true },
];

export const financialRoutes: FastifyPluginAsyncZod = async (app) => {
  const institution = app.config.APP_TITLE;
  // Arrears notice campaigns (issue 29).
  await app.register(noticeRoutes);

  app.get(
    '/api/financial/statement',
    {
      config: { access: F('READ') },
      schema: {
        tags,
        summary:
          'Estado de cuenta de una entidad a una fecha: por período declarado, ordenado, pagado, intereses y saldo; convenios',
        querystring: statementQuerySchema,
        response: { 200: statementSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => statement(request.ctx, request.query),
  );

  app.get(
    '/api/financial/statement/export',
    {
      config: { access: F('EXPORT'), heavy: true },
      schema: {
        tags,
        summary: 'El estado de cuenta en PDF o xlsx',
        querystring: statementQuerySchema.extend({ format: z.enum(['pdf', 'xlsx']).default('pdf') }),
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const s = await statement(request.ctx, request.query);
      const report = statementReport(s);
      const name = `estado-cuenta-${s.entityCode}-${s.asOf}`;
      return sendReport(request, reply, report, { name, format: request.query.format, fallbackInstitution: institution });
    },
  );

  app.get(
    '/api/financial/arrears',
    {
      config: { access: F('READ') },
      schema: {
        tags,
        summary: 'Ranking de mora: entidades por monto vencido (capital e intereses a la fecha) y antigüedad, por región',
        querystring: arrearsQuerySchema,
        response: { 200: arrearsSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => arrearsRanking(request.ctx, request.query),
  );

  app.get(
    '/api/financial/arrears/export',
    {
      config: { access: F('EXPORT'), heavy: true },
      schema: {
        tags,
        summary: 'Exportar el ranking de mora (xlsx o csv): la lista de cobro de los delegados',
        querystring: arrearsQuerySchema.extend({ format: exportFormatSchema.default('xlsx') }),
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const ranking = await arrearsRanking(request.ctx, query);
      return sendExport(reply, {
        format,
        filename: 'ranking-mora',
        sheetName: 'Mora',
        columns: arrearsColumns,
        batches: (async function* () {
          yield ranking.items;
        })(),
      });
    },
  );

  app.get(
    '/api/financial/certificates',
    {
      config: { access: F('READ') },
      schema: {
        tags,
        summary: 'Constancias de solvencia emitidas (las 200 más recientes), con su estado',
        querystring: solvencyListQuerySchema,
        response: { 200: solvencyCertificateListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findCertificates(request.ctx, request.query),
  );

  app.post(
    '/api/financial/certificates',
    {
      config: { access: F('CREATE') },
      schema: {
        tags,
        summary: 'Emitir una constancia de solvencia a una entidad al día (rechazada con el motivo si no lo está)',
        body: solvencyCreateSchema,
        response: { 201: solvencyCertificateSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await issueCertificate(request.ctx, request.body)),
  );

  app.get(
    '/api/financial/certificates/:id/pdf',
    {
      config: { access: F('READ'), heavy: true },
      schema: {
        tags,
        summary: 'La constancia de solvencia en PDF, con su código de verificación',
        params: idParamsSchema,
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const c = await getCertificate(request.ctx, { id: request.params.id });
      const verifyUrl = `${publicOriginOf(request)}/verificar-constancia?codigo=${encodeURIComponent(c.code)}`;
      return sendReport(request, reply, certificateReport(c, verifyUrl), {
        name: `constancia-solvencia-${c.entityCode}-${c.issuedOn}`,
        fallbackInstitution: institution,
        headers: { 'x-certificate-code': c.code },
      });
    },
  );

  app.get(
    '/api/financial/dashboard',
    {
      config: { access: F('READ') },
      schema: {
        tags,
        summary: 'Tablero de cobro: recaudado por mes, recuperación por convenios, convenios por estado, mora',
        querystring: dashboardQuerySchema,
        response: { 200: dashboardSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => dashboard(request.ctx, request.query),
  );

  app.get(
    '/api/solvency/verify/:code',
    {
      // Public: whoever holds a certificate checks it. It tells only what the certificate prints and whether
      // it is still valid; a forged code gets 404 and nothing else. Rate-limited like sign-in.
      config: { access: 'public', rateLimit: { max: app.config.LOGIN_RATE_PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'Verificar una constancia de solvencia por su código (auténtica y vigente, vencida o revocada)',
        params: solvencyCodeParamsSchema,
        response: { 200: solvencyVerificationSchema, ...errorResponses(400, 404, 429) },
      },
    },
    async (request) => verifyCertificate(app.db, { code: request.params.code }),
  );
};
