// Routes of planilla spreadsheets: template, upload, rows, exceptions, commit and discard.
import {
  exportFormatSchema,
  importRowSchema,
  importRowsQuerySchema,
  listResponse,
  planillaImportColumns,
  planillaUploadListSchema,
  planillaUploadParamsSchema,
  planillaUploadSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { receiveUpload, sendImportTemplate } from '../../platform/imports/http.ts';
import {
  commitPlanillaUpload,
  discardPlanillaUpload,
  findOpenPlanillaUploads,
  findPlanillaUploadRows,
  getPlanillaUpload,
  planillaUploadExceptions,
  uploadPlanilla,
} from './upload.ts';

const tags = ['planillas'];
const uploadParams = z.object({ id: z.uuid() });

export const planillaUploadRoutes: FastifyPluginAsyncZod = async (app) => {
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
        response: { 200: planillaUploadListSchema, ...errorResponses(401, 403) },
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
};
