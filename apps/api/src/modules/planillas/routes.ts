import {
  AppError,
  backPayCreateSchema,
  contributionHistoryQuerySchema,
  contributionHistorySchema,
  decimalToCents,
  entityContributionHistoryQuerySchema,
  entityContributionHistorySchema,
  exportFormatSchema,
  formatCui,
  formatPeriod,
  idParamsSchema,
  idTextSchema,
  importRowSchema,
  importRowsQuerySchema,
  listResponse,
  type Planilla,
  type PlanillaLine,
  periodSchema,
  planillaCommentSchema,
  planillaComparisonSchema,
  planillaCreateSchema,
  planillaEmployeeSchema,
  planillaEmployeesQuerySchema,
  planillaImportColumns,
  planillaLineInputSchema,
  planillaLineSchema,
  planillaLinesQuerySchema,
  planillaListQuerySchema,
  planillaMachine,
  planillaOptionsSchema,
  planillaOverviewSchema,
  planillaSchema,
  planillaTransitionSchema,
  planillaTypeLabels,
  planillaUploadParamsSchema,
  planillaUploadSchema,
  settingDefinitions,
  settingHistorySchema,
  settingKeySchema,
  settingsOverviewSchema,
  stateTransitionListSchema,
} from '@aporta/domain';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { reportPdfFor, sendPdf } from '../../platform/downloads.ts';
import { type ExportColumn, sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { receiveUpload, sendImportTemplate } from '../../platform/imports/http.ts';
import { IMPORT_LIMITS } from '../../platform/imports/reader.ts';
import { fileDocument } from '../documents/filing.ts';
import { listSettings, settingHistory } from '../settings/service.ts';
import {
  addPlanillaLine,
  commitPlanillaUpload,
  comparePlanilla,
  contributorHistory,
  createBackPay,
  createPlanilla,
  discardPlanillaUpload,
  entityHistory,
  findOpenPlanillaUploads,
  findPlanillaComments,
  findPlanillaEmployees,
  findPlanillaHistory,
  findPlanillaLines,
  findPlanillas,
  findPlanillaUploadRows,
  getPlanilla,
  getPlanillaUpload,
  planillaEntityOptions,
  planillaExportBatches,
  planillaLineBatches,
  planillaOverview,
  planillaTitle,
  planillaUploadExceptions,
  removePlanillaLine,
  transitionPlanilla,
  updatePlanillaLine,
  uploadPlanilla,
} from './service.ts';
import './queues.ts';

const tags = ['planillas'];
const lineParams = z.object({ id: idTextSchema, lineId: idTextSchema });
const uploadParams = z.object({ id: z.uuid() });

const listColumns: ExportColumn<Planilla>[] = [
  { header: 'Entidad', value: (p) => p.entityName, width: 36 },
  { header: 'Código', value: (p) => p.entityCode },
  { header: 'Período', value: (p) => formatPeriod(p.period) },
  { header: 'Tipo', value: (p) => planillaTypeLabels[p.type] },
  { header: 'Estado', value: (p) => planillaMachine.stateLabels[p.state] },
  { header: 'Empleados', value: (p) => p.lineCount },
  { header: 'Líneas con error', value: (p) => p.errorCount },
  { header: 'Total salarios', value: (p) => p.totalSalary, money: true },
  { header: 'Cuota laboral', value: (p) => p.totalEmployee, money: true },
  { header: 'Cuota patronal', value: (p) => p.totalEmployer, money: true },
  { header: 'Enviada', value: (p) => p.submittedAt?.slice(0, 10) ?? '' },
];

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

export const planillaRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, {
    limits: { fileSize: IMPORT_LIMITS.maxFileBytes, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
  });

  // ─── Lists ───
  app.get(
    '/api/planillas',
    {
      config: { access: { resource: 'planillas', action: 'READ' } },
      schema: {
        tags,
        summary:
          'Planillas dentro del alcance (entidad, período, tipo, estado, CUI en sus líneas; cola de revisión o borradores)',
        querystring: planillaListQuerySchema,
        response: { 200: listResponse(planillaSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findPlanillas(request.ctx, request.query),
  );

  app.get(
    '/api/planilla-search',
    {
      config: { access: { resource: 'buscar-planillas', action: 'READ' } },
      schema: {
        tags,
        summary: 'Buscar planillas por entidad, período, estado, tipo o un CUI de sus líneas',
        querystring: planillaListQuerySchema,
        response: { 200: listResponse(planillaSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findPlanillas(request.ctx, request.query),
  );

  app.get(
    '/api/planilla-review-queue',
    {
      config: { access: { resource: 'delegate-review', action: 'READ' } },
      schema: {
        tags,
        summary: 'Cola del delegado: planillas enviadas o en revisión de sus regiones, la más antigua primero',
        querystring: planillaListQuerySchema,
        response: { 200: listResponse(planillaSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findPlanillas(request.ctx, { ...request.query, queue: 'review' }),
  );

  app.get(
    '/api/planillas/export',
    {
      config: { access: { resource: 'planillas', action: 'EXPORT' }, heavy: true },
      schema: {
        tags,
        summary: 'Exportar la lista de planillas (xlsx o csv) con los filtros de la lista',
        querystring: planillaListQuerySchema
          .omit({ page: true, pageSize: true, after: true, before: true })
          .extend({ format: exportFormatSchema.default('xlsx') }),
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      return sendExport(reply, {
        format,
        filename: 'planillas',
        sheetName: 'Planillas',
        columns: listColumns,
        batches: planillaExportBatches(request.ctx, query),
      });
    },
  );

  app.get(
    '/api/planillas/overview',
    {
      config: { access: { resource: 'planillas', action: 'READ' } },
      schema: {
        tags,
        summary: 'El período de un vistazo: planillas por estado, entidades omisas, totales contra el mes anterior y tendencia',
        querystring: z.object({ period: periodSchema.optional() }),
        response: { 200: planillaOverviewSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => planillaOverview(request.ctx, request.query),
  );

  app.get(
    '/api/planillas/options',
    {
      config: { access: { resource: 'planillas', action: 'READ' } },
      schema: {
        tags,
        summary: 'Entidades dentro del alcance, para elegir de qué entidad declarar o consultar planillas',
        response: { 200: planillaOptionsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => planillaEntityOptions(request.ctx),
  );

  app.post(
    '/api/planillas',
    {
      config: { access: { resource: 'planillas', action: 'CREATE' } },
      schema: {
        tags,
        summary: 'Nueva planilla en borrador (opcionalmente copiando las líneas del período anterior)',
        body: planillaCreateSchema,
        response: { 201: planillaSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await createPlanilla(request.ctx, request.body)),
  );

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
    '/api/planillas/:id/lines',
    {
      config: { access: { resource: 'planillas', action: 'READ' } },
      schema: {
        tags,
        summary: 'Líneas de una planilla, paginadas; búsqueda por CUI o nombre; solo las que tienen errores o advertencias',
        params: idParamsSchema,
        querystring: planillaLinesQuerySchema,
        response: { 200: listResponse(planillaLineSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => findPlanillaLines(request.ctx, { id: request.params.id, query: request.query }),
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

  app.post(
    '/api/planillas/:id/lines',
    {
      config: { access: { resource: 'planillas', action: 'UPDATE' } },
      schema: {
        tags,
        summary: 'Agregar una línea a una planilla en borrador u observada',
        params: idParamsSchema,
        body: planillaLineInputSchema,
        response: { 201: planillaLineSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await addPlanillaLine(request.ctx, { id: request.params.id, data: request.body })),
  );

  app.put(
    '/api/planillas/:id/lines/:lineId',
    {
      config: { access: { resource: 'planillas', action: 'UPDATE' } },
      schema: {
        tags,
        summary: 'Corregir una línea de una planilla en borrador u observada',
        params: lineParams,
        body: planillaLineInputSchema,
        response: { 200: planillaLineSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      updatePlanillaLine(request.ctx, { id: request.params.id, lineId: request.params.lineId, data: request.body }),
  );

  app.delete(
    '/api/planillas/:id/lines/:lineId',
    {
      config: { access: { resource: 'planillas', action: 'UPDATE' } },
      schema: {
        tags,
        summary: 'Eliminar una línea de una planilla en borrador u observada',
        params: lineParams,
        response: { 204: z.null(), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await removePlanillaLine(request.ctx, { id: request.params.id, lineId: request.params.lineId });
      return reply.status(204).send(null);
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
        response: { 200: z.object({ items: z.array(planillaCommentSchema) }), ...errorResponses(400, 401, 403, 404) },
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

  // ─── Upload ───
  app.get(
    '/api/planilla-uploads/template',
    {
      config: { access: { resource: 'planilla-upload', action: 'READ' }, heavy: true },
      schema: {
        tags,
        summary: 'Plantilla de planilla (xlsx o csv)',
        querystring: z.object({ format: exportFormatSchema.default('xlsx') }),
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) =>
      sendImportTemplate(reply, {
        format: request.query.format,
        filename: 'plantilla-planilla',
        sheetName: 'Planilla',
        columns: planillaImportColumns,
        explain: {
          CUI: '13 dígitos del DPI, con o sin espacios (formato de texto para no perder dígitos).',
          NOMBRE: 'Nombres y apellidos del empleado, como en su DPI.',
          RENGLON: 'Renglón presupuestario de tres dígitos (011, 022, 031…).',
          SALARIO: 'Salario del mes con punto decimal: 3500.00 o 3,500.00. Mayor que cero, hasta dos decimales.',
          DIAS_LABORADOS: 'Días laborados en el mes (0 a 31); opcional.',
          MOVIMIENTO: 'ALTA o BAJA cuando el empleado entró o salió en el mes; vacío si no.',
          FECHA_MOVIMIENTO: 'Fecha del alta o baja (dd/mm/aaaa), dentro del período.',
        },
        footer: 'Un CUI por fila; las fórmulas no se aceptan. Máximo 200 000 filas y 20 MB por archivo.',
      }),
  );

  app.post(
    '/api/planilla-uploads',
    {
      config: { access: { resource: 'planilla-upload', action: 'CREATE' } },
      schema: {
        tags,
        summary:
          'Cargar el archivo de una planilla (multipart, campo "file") para una entidad y un período; la validación sigue en segundo plano. Si la entidad tiene un borrador ordinario del período, al confirmar se reemplazan sus líneas.',
        consumes: ['multipart/form-data'],
        querystring: planillaUploadParamsSchema.extend({ id: z.uuid().optional() }),
        response: { 201: planillaUploadSchema, ...errorResponses(400, 401, 403, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const { id, ...params } = request.query;
      const result = await receiveUpload(request, (file) => uploadPlanilla(request.ctx, { id, params, ...file }));
      return reply.status(201).send(result);
    },
  );

  app.get(
    '/api/planilla-uploads',
    {
      config: { access: { resource: 'planilla-upload', action: 'READ' } },
      schema: {
        tags,
        summary: 'Cargas de planilla propias sin terminar',
        response: { 200: z.array(planillaUploadSchema), ...errorResponses(401, 403) },
      },
    },
    async (request) => findOpenPlanillaUploads(request.ctx),
  );

  app.get(
    '/api/planilla-uploads/:id',
    {
      config: { access: { resource: 'planilla-upload', action: 'READ' } },
      schema: {
        tags,
        summary: 'Estado y avance de una carga de planilla; confirmada, la planilla que escribió (planillaId)',
        params: uploadParams,
        response: { 200: planillaUploadSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getPlanillaUpload(request.ctx, { id: request.params.id }),
  );

  app.get(
    '/api/planilla-uploads/:id/rows',
    {
      config: { access: { resource: 'planilla-upload', action: 'READ' } },
      schema: {
        tags,
        summary: 'Filas válidas o excepciones de una carga de planilla',
        params: uploadParams,
        querystring: importRowsQuerySchema,
        response: { 200: listResponse(importRowSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => findPlanillaUploadRows(request.ctx, { id: request.params.id, query: request.query }),
  );

  app.get(
    '/api/planilla-uploads/:id/exceptions',
    {
      config: { access: { resource: 'planilla-upload', action: 'READ' }, heavy: true },
      schema: {
        tags,
        summary: 'Descargar las excepciones (xlsx)',
        params: uploadParams,
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { columns, batches } = await planillaUploadExceptions(request.ctx, { id: request.params.id });
      return sendExport(reply, { format: 'xlsx', filename: 'excepciones-planilla', sheetName: 'Excepciones', columns, batches });
    },
  );

  app.post(
    '/api/planilla-uploads/:id/commit',
    {
      config: { access: { resource: 'planilla-upload', action: 'CREATE' } },
      schema: {
        tags,
        summary:
          'Confirmar la carga como proceso: responde 202 CONFIRMANDO con el jobId; el proceso escribe la planilla en borrador con todas sus líneas (las excepciones quedan marcadas para corregirlas), o nada; al terminar (CONFIRMADO) la carga nombra la planilla (planillaId)',
        params: uploadParams,
        response: { 202: planillaUploadSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.code(202).send(await commitPlanillaUpload(request.ctx, { id: request.params.id })),
  );

  app.post(
    '/api/planilla-uploads/:id/discard',
    {
      config: { access: { resource: 'planilla-upload', action: 'CREATE' } },
      schema: {
        tags,
        summary: 'Descartar una carga sin guardar nada',
        params: uploadParams,
        response: { 200: planillaUploadSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => discardPlanillaUpload(request.ctx, { id: request.params.id }),
  );

  // ─── Back-pay (salarios caídos) ───
  app.get(
    '/api/back-pay',
    {
      config: { access: { resource: 'fallen-wages', action: 'READ' } },
      schema: {
        tags,
        summary: 'Planillas de salarios caídos (una por resolución)',
        querystring: planillaListQuerySchema,
        response: { 200: listResponse(planillaSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findPlanillas(request.ctx, { ...request.query, type: 'SALARIOS_CAIDOS' }),
  );

  app.post(
    '/api/back-pay',
    {
      config: { access: { resource: 'fallen-wages', action: 'CREATE' } },
      schema: {
        tags,
        summary: 'Registrar una resolución de salarios caídos: su planilla SALARIOS_CAIDOS en borrador, una línea por mes',
        body: backPayCreateSchema,
        response: { 201: planillaSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.status(201).send(await createBackPay(request.ctx, request.body)),
  );

  // ─── Rates (Planillas → Cuotas): the contributions' settings, readable by every planilla user ───
  app.get(
    '/api/planillas/rates',
    {
      config: { access: { resource: 'contributions', action: 'READ' } },
      schema: {
        tags,
        summary: 'Cuotas y renglones sujetos en vigor y programados (los parámetros del tema «Cuotas y planillas»)',
        response: { 200: settingsOverviewSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const all = await listSettings(request.ctx);
      return { ...all, items: all.items.filter((i) => i.topic === 'contributions') };
    },
  );

  app.get(
    '/api/planillas/rates/:key/history',
    {
      config: { access: { resource: 'contributions', action: 'READ' } },
      schema: {
        tags,
        summary: 'Historial de un parámetro de cuotas: cada valor, desde cuándo, quién lo programó y por qué',
        params: z.object({ key: settingKeySchema }),
        response: { 200: settingHistorySchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      if (settingDefinitions[request.params.key].topic !== 'contributions') {
        throw new AppError('NOT_FOUND', 'Ese parámetro no es una cuota de planilla.');
      }
      return settingHistory(request.ctx, { key: request.params.key });
    },
  );

  // ─── Histories and employees ───
  app.get(
    '/api/contribution-history/contributor',
    {
      config: { access: { resource: 'employee-contribution-history', action: 'READ' } },
      schema: {
        tags,
        summary: 'Historial de cuotas de un afiliado (por CUI), mes a mes, con sus lagunas',
        querystring: contributionHistoryQuerySchema,
        response: { 200: contributionHistorySchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => contributorHistory(request.ctx, request.query),
  );

  app.get(
    '/api/contribution-history/entity',
    {
      config: { access: { resource: 'employer-contribution-history', action: 'READ' } },
      schema: {
        tags,
        summary: 'Historial de cuotas de una entidad, mes a mes, con sus lagunas',
        querystring: entityContributionHistoryQuerySchema,
        response: { 200: entityContributionHistorySchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => entityHistory(request.ctx, request.query),
  );

  app.get(
    '/api/planilla-employees',
    {
      config: { access: { resource: 'planilla-employees', action: 'READ' } },
      schema: {
        tags,
        summary: 'Empleados declarados por las entidades a lo largo del tiempo (o una persona en varias entidades)',
        querystring: planillaEmployeesQuerySchema,
        response: { 200: listResponse(planillaEmployeeSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findPlanillaEmployees(request.ctx, request.query),
  );
};
