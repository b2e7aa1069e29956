// Routes of one planilla: reading it, its PDF or spreadsheet, its history, comments and comparison, and its
// transitions.
import {
  decimalToCents,
  formatCui,
  formatPeriod,
  idParamsSchema,
  type PlanillaLine,
  planillaCommentListSchema,
  planillaComparisonSchema,
  planillaMachine,
  planillaSchema,
  planillaTransitionSchema,
  stateTransitionListSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { reportPdfFor, sendPdf } from '../../platform/downloads.ts';
import { type ExportColumn, sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { fileDocument } from '../documents/filing.ts';
import { transitionPlanilla } from './lifecycle.ts';
import { planillaLineBatches } from './lines.ts';
import { getPlanilla, planillaTitle } from './queries.ts';
import { comparePlanilla, findPlanillaComments, findPlanillaHistory } from './review.ts';

const tags = ['planillas'];
const lineExportColumns: ExportColumn<PlanillaLine>[] = [
  { header: 'Línea', value: (l) => l.rowNumber },
  { header: 'CUI', value: (l) => l.cui, width: 16 },
  { header: 'Nombre', value: (l) => l.fullName, width: 36 },
  { header: 'Renglón', value: (l) => l.budgetLineCode },
  { header: 'Salario', value: (l) => l.salary ?? l.salaryText ?? '', money: true },
  { header: 'Días', value: (l) => l.daysWorked ?? '' },
  { header: 'Movimiento', value: (l) => (l.movement ? `${l.movement} ${l.movementDate ?? ''}` : '') },
  { header: 'Sujeto a cuota', value: (l) => (l.subject ? 'Sí' : 'No') },
  { header: 'Cuota laboral', value: (l) => l.employeeAmount, money: true },
  { header: 'Cuota patronal', value: (l) => l.employerAmount, money: true },
  { header: 'Errores', value: (l) => l.errors.map((e) => e.message).join(' '), width: 40 },
  { header: 'Advertencias', value: (l) => l.warnings.map((e) => e.message).join(' '), width: 40 },
];

export const planillaOneRoutes: FastifyPluginAsyncZod = async (app) => {
  // ─── One planilla ───
  app.get(
    '/api/planillas/:id',
    {
      config: { access: { resource: 'planillas', action: 'READ' } },
      schema: {
        tags,
        summary: 'Una planilla con sus totales y las acciones que el usuario puede tomar',
        params: idParamsSchema,
        response: { 200: planillaSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getPlanilla(request.ctx, { id: request.params.id }),
  );

  app.get(
    '/api/planillas/:id/export',
    {
      config: { access: { resource: 'planillas', action: 'EXPORT' }, heavy: true },
      schema: {
        tags,
        summary: 'La declaración: líneas en xlsx o csv, o PDF con código de verificación',
        params: idParamsSchema,
        querystring: z.object({ format: z.enum(['xlsx', 'csv', 'pdf']).default('xlsx') }),
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const p = await getPlanilla(request.ctx, { id: request.params.id });
      const name = `planilla-${p.entityCode}-${p.period}`;
      if (request.query.format !== 'pdf') {
        return sendExport(reply, {
          format: request.query.format,
          filename: name,
          sheetName: 'Planilla',
          columns: lineExportColumns,
          batches: planillaLineBatches(request.ctx, p.id),
        });
      }
      const rows: (string | number | { cents: bigint })[][] = [];
      for await (const batch of planillaLineBatches(request.ctx, p.id)) {
        for (const l of batch) {
          rows.push([
            l.rowNumber,
            formatCui(l.cui),
            l.fullName,
            l.budgetLineCode,
            l.salary ? { cents: decimalToCents(l.salary) } : (l.salaryText ?? ''),
            { cents: decimalToCents(l.employeeAmount) },
            { cents: decimalToCents(l.employerAmount) },
          ]);
        }
      }
      const doc = await reportPdfFor(
        request,
        {
          kind: 'planilla',
          title: `Planilla ${planillaTitle(p)}`,
          filters: [
            { label: 'Entidad', value: `${p.entityCode} ${p.entityName}` },
            { label: 'Período', value: formatPeriod(p.period) },
            { label: 'Estado', value: planillaMachine.stateLabels[p.state] },
          ],
          orientation: 'landscape',
          tables: [
            {
              headers: ['Línea', 'CUI', 'Nombre', 'Renglón', 'Salario', 'Cuota laboral', 'Cuota patronal'],
              rows,
              numeric: [0, 4, 5, 6],
              totals: [
                '',
                '',
                `${p.lineCount} empleados`,
                '',
                { cents: decimalToCents(p.totalSalary) },
                { cents: decimalToCents(p.totalEmployee) },
                { cents: decimalToCents(p.totalEmployer) },
              ],
            },
          ],
        },
        app.config.APP_TITLE,
      );
      // A copy goes to the entity's folder in Documentos (a new version when the planilla was filed before).
      await fileDocument(request.ctx, app.files, {
        folder: ['Planillas'],
        entityId: p.entityId,
        title: `Planilla ${planillaTitle(p)}`,
        docType: 'PLANILLA',
        sourceType: 'planilla',
        sourceId: p.id,
        file: { bytes: new Uint8Array(doc.pdf), filename: `${name}.pdf` },
      }).catch((err) => request.log.error({ err }, 'the planilla PDF could not be filed in Documentos'));
      return sendPdf(reply, doc, name);
    },
  );

  app.get(
    '/api/planillas/:id/history',
    {
      config: { access: { resource: 'planillas', action: 'READ' } },
      schema: {
        tags,
        summary: 'Historial de estados de la planilla (quién, cuándo, de qué a qué, motivo)',
        params: idParamsSchema,
        response: { 200: stateTransitionListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({ items: await findPlanillaHistory(request.ctx, { id: request.params.id }) }),
  );

  app.get(
    '/api/planillas/:id/comments',
    {
      config: { access: { resource: 'planillas', action: 'READ' } },
      schema: {
        tags,
        summary: 'Comentarios y observaciones (generales o por línea)',
        params: idParamsSchema,
        response: { 200: planillaCommentListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({ items: await findPlanillaComments(request.ctx, { id: request.params.id }) }),
  );

  app.get(
    '/api/planillas/:id/comparison',
    {
      config: { access: { resource: 'planillas', action: 'READ' } },
      schema: {
        tags,
        summary: 'Comparación con el período anterior: nuevos, ausentes, cambios de salario y advertencias de RENAP',
        params: idParamsSchema,
        response: { 200: planillaComparisonSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => comparePlanilla(request.ctx, { id: request.params.id }),
  );

  app.post(
    '/api/planillas/:id/transitions',
    {
      // The machine declares each transition's permission (submit: planillas UPDATE; review: planillas APPROVE;
      // void: planillas DELETE); applyTransition checks it and its scope.
      config: { access: { resource: 'planillas', action: 'READ' } },
      schema: {
        tags,
        summary: 'Enviar, tomar, aprobar, observar (con motivo y observaciones por línea), rechazar o anular una planilla',
        params: idParamsSchema,
        body: planillaTransitionSchema,
        response: { 200: planillaSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => transitionPlanilla(request.ctx, { id: request.params.id, data: request.body }),
  );
};
