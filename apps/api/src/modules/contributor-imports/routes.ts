import {
  contributorImportListSchema,
  contributorImportSchema,
  exportFormatSchema,
  importColumns,
  importRowSchema,
  importRowsQuerySchema,
  listResponse,
} from '@aporta/domain';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { receiveUpload, sendImportTemplate } from '../../platform/imports/http.ts';
import { IMPORT_LIMITS } from '../../platform/imports/reader.ts';
import {
  commitImport,
  discardImport,
  findImportRows,
  findOpenImports,
  getImport,
  importExceptions,
  templateCatalogues,
  validateImport,
} from './service.ts';

const idParams = z.object({ id: z.uuid() });

export const contributorImportRoutes: FastifyPluginAsyncZod = async (app) => {
  // Registered in this plugin's scope only: the upload route is the one that takes files.
  await app.register(multipart, {
    limits: { fileSize: IMPORT_LIMITS.maxFileBytes, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
  });

  app.get(
    '/api/contributor-imports/template',
    {
      config: { access: { resource: 'contributor-bulk-upload', action: 'READ' }, heavy: true },
      schema: {
        tags: ['contributor-imports'],
        summary: 'Plantilla de carga masiva de afiliados (xlsx o csv)',
        querystring: z.object({ format: exportFormatSchema.default('xlsx') }),
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { types, lines } = await templateCatalogues(request.ctx);
      return sendImportTemplate(reply, {
        format: request.query.format,
        filename: 'plantilla-afiliados',
        sheetName: 'Afiliados',
        columns: importColumns,
        explain: {
          CUI: '13 dígitos, con o sin espacios (formato de texto para no perder dígitos).',
          NIT: 'Con dígito verificador, por ejemplo 576937-K.',
          FECHA_NACIMIENTO:
            'dd/mm/aaaa (año con cuatro cifras) o una celda con formato de fecha. Un número solo (1980) no es una fecha.',
          FECHA_INGRESO: 'dd/mm/aaaa (año con cuatro cifras) o una celda con formato de fecha.',
          SEXO: 'M o F.',
          ESTADO_CIVIL: 'SOLTERO, CASADO, UNIDO, DIVORCIADO o VIUDO.',
          MUNICIPIO: 'Código de 4 dígitos (departamento y municipio), por ejemplo 0101.',
          TIPO: `Código del tipo de afiliado: ${types.map((t) => `${t.code} (${t.name})`).join(', ')}.`,
          ESTADO: 'ACTIVO, INACTIVO o FALLECIDO (ACTIVO si se deja vacío).',
          ENTIDAD: 'Código de la entidad municipal.',
          RENGLON: `Renglón presupuestario: ${lines.map((l) => l.code).join(', ') || 'según el catálogo'}.`,
          SALARIO:
            'Monto con punto decimal y, si quiere, coma de miles: 1234.50 o 1,234.50 (también Q 1,234.50). No use coma decimal (1.234,50).',
        },
        footer: 'Las fórmulas no se aceptan: pegue solo valores. Máximo 200 000 filas y 20 MB por archivo.',
      });
    },
  );

  app.post(
    '/api/contributor-imports',
    {
      config: { access: { resource: 'contributor-bulk-upload', action: 'CREATE' } },
      schema: {
        tags: ['contributor-imports'],
        summary:
          'Cargar un archivo de afiliados (multipart, campo "file"): se lee y su validación sigue en segundo plano (consulte GET /api/contributor-imports/:id)',
        consumes: ['multipart/form-data'],
        querystring: z.object({ id: z.uuid().optional() }),
        response: { 201: contributorImportSchema, ...errorResponses(400, 401, 403, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const result = await receiveUpload(request, (file) => validateImport(request.ctx, { id: request.query.id, ...file }));
      return reply.status(201).send(result);
    },
  );

  app.get(
    '/api/contributor-imports',
    {
      config: { access: { resource: 'contributor-bulk-upload', action: 'READ' } },
      schema: {
        tags: ['contributor-imports'],
        summary: 'Cargas propias sin terminar (validando, por confirmar o fallidas), las más recientes primero',
        response: { 200: contributorImportListSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => findOpenImports(request.ctx),
  );

  app.get(
    '/api/contributor-imports/:id',
    {
      config: { access: { resource: 'contributor-bulk-upload', action: 'READ' } },
      schema: {
        tags: ['contributor-imports'],
        summary: 'Estado y avance de una carga',
        params: idParams,
        response: { 200: contributorImportSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getImport(request.ctx, { id: request.params.id }),
  );

  app.get(
    '/api/contributor-imports/:id/rows',
    {
      config: { access: { resource: 'contributor-bulk-upload', action: 'READ' } },
      schema: {
        tags: ['contributor-imports'],
        summary: 'Filas válidas o excepciones de una carga',
        params: idParams,
        querystring: importRowsQuerySchema,
        response: { 200: listResponse(importRowSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => findImportRows(request.ctx, { id: request.params.id, query: request.query }),
  );

  app.get(
    '/api/contributor-imports/:id/exceptions',
    {
      config: { access: { resource: 'contributor-bulk-upload', action: 'READ' }, heavy: true },
      schema: {
        tags: ['contributor-imports'],
        summary: 'Descargar las excepciones (xlsx) para corregirlas y volver a cargarlas',
        params: idParams,
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { columns, batches } = await importExceptions(request.ctx, { id: request.params.id });
      return sendExport(reply, {
        format: 'xlsx',
        filename: 'excepciones-afiliados',
        sheetName: 'Excepciones',
        columns,
        batches,
      });
    },
  );

  app.post(
    '/api/contributor-imports/:id/commit',
    {
      config: { access: { resource: 'contributor-bulk-upload', action: 'CREATE' } },
      schema: {
        tags: ['contributor-imports'],
        summary:
          'Confirmar las filas válidas (todas o ninguna) como proceso: responde 202 CONFIRMANDO con el jobId; la carga pasa a CONFIRMADO al terminar',
        params: idParams,
        response: { 202: contributorImportSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.code(202).send(await commitImport(request.ctx, { id: request.params.id })),
  );

  app.post(
    '/api/contributor-imports/:id/discard',
    {
      config: { access: { resource: 'contributor-bulk-upload', action: 'CREATE' } },
      schema: {
        tags: ['contributor-imports'],
        summary: 'Descartar una carga sin guardar nada',
        params: idParams,
        response: { 200: contributorImportSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => discardImport(request.ctx, { id: request.params.id }),
  );
};
