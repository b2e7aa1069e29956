import {
  collectionContractOf,
  collectionExportQuerySchemaOf,
  collectionListQuerySchemaOf,
  collectionNameParamsSchema,
  collectionNamesSchema,
  collectionSchemaSchema,
  collectionSummarySchema,
  idParamsSchema,
  listResponse,
  noContentSchema,
  recordHistoryEntrySchema,
  recordHistoryQuerySchema,
  referenceFieldParamsSchema,
  referenceOptionListSchema,
  referenceOptionsQuerySchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { inBatches, sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { collectionOf, type FindQuery } from './query.ts';
import { engineCollectionNames, registry, resourceOf } from './registry.ts';
import {
  collectionSummary,
  exportPlan,
  findRecords,
  getRecord,
  readableCollections,
  recordHistory,
  referenceOptions,
  schemaOf,
} from './service.ts';
import { createRecord, deleteRecord, updateRecord } from './writes.ts';

const idParams = idParamsSchema;

/**
 * The generic CRUD: for every collection of the registry, concrete routes guarded by the collection's
 * own permission (resource = collection name), so the authorization matrix and the OpenAPI document
 * cover each one. Unknown collection names fall through to a 404 naming the collection.
 */
export const collectionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/collections',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['collections'],
        summary: 'Colecciones que el usuario puede consultar',
        response: { 200: collectionNamesSchema, ...errorResponses(401) },
      },
    },
    async (request) => readableCollections(request.ctx),
  );

  app.get(
    '/api/collections/summary',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['collections'],
        summary: 'Cantidad de registros de cada colección visible',
        response: { 200: collectionSummarySchema, ...errorResponses(401) },
      },
    },
    async (request) => collectionSummary(request.ctx),
  );

  for (const name of engineCollectionNames) {
    const def = registry[name].def;
    const resource = resourceOf(def);
    const base = `/api/collections/${name}`;
    const tags = ['collections'];
    const { record, create, update } = collectionContractOf(def);
    const listQuery = collectionListQuerySchemaOf(def);

    app.get(
      base,
      {
        config: { access: { resource, action: 'READ' } },
        schema: {
          tags,
          summary: `Listar ${def.label.toLowerCase()}`,
          querystring: listQuery,
          response: { 200: listResponse(record), ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => findRecords(request.ctx, { name, query: request.query as FindQuery }),
    );

    app.get(
      `${base}/export`,
      {
        config: { access: { resource, action: 'EXPORT' }, heavy: true },
        schema: {
          tags,
          summary: `Exportar ${def.label.toLowerCase()} (xlsx o csv, con los mismos filtros)`,
          querystring: collectionExportQuerySchemaOf(def),
          response: { ...errorResponses(400, 401, 403) },
        },
      },
      async (request, reply) => {
        const { format, ...query } = request.query as { format: 'xlsx' | 'csv' };
        const plan = exportPlan(request.ctx, { name, query: query as Partial<FindQuery> });
        return sendExport(reply, {
          format,
          filename: plan.filename,
          sheetName: plan.sheetName,
          columns: plan.columns,
          batches: inBatches(plan.fetchPage, 500),
        });
      },
    );

    app.get(
      `${base}/schema`,
      {
        config: { access: { resource, action: 'READ' } },
        schema: {
          tags,
          summary: `Metadatos de ${def.label.toLowerCase()}`,
          response: { 200: collectionSchemaSchema, ...errorResponses(401, 403) },
        },
      },
      async (request) => schemaOf(request.ctx, { name }),
    );

    app.get(
      `${base}/options/:field`,
      {
        config: { access: { resource, action: 'READ' } },
        schema: {
          tags,
          summary: `Opciones de un campo de referencia de ${def.label.toLowerCase()}`,
          params: referenceFieldParamsSchema,
          querystring: referenceOptionsQuerySchema,
          response: { 200: referenceOptionListSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => referenceOptions(request.ctx, { name, field: request.params.field, ...request.query }),
    );

    app.get(
      `${base}/:id`,
      {
        config: { access: { resource, action: 'READ' } },
        schema: {
          tags,
          summary: `Consultar un registro de ${def.label.toLowerCase()}`,
          params: idParams,
          response: { 200: record, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => getRecord(request.ctx, { name, id: request.params.id }),
    );

    app.get(
      `${base}/:id/history`,
      {
        config: { access: { resource, action: 'READ' } },
        schema: {
          tags,
          summary: `Historial de cambios de un registro de ${def.label.toLowerCase()} (páginas, el más reciente primero)`,
          params: idParams,
          querystring: recordHistoryQuerySchema,
          response: { 200: listResponse(recordHistoryEntrySchema), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => recordHistory(request.ctx, { name, id: request.params.id, ...request.query }),
    );

    app.post(
      base,
      {
        config: { access: { resource, action: 'CREATE' } },
        schema: {
          tags,
          summary: `Crear un registro de ${def.label.toLowerCase()}`,
          body: create,
          response: { 201: record, ...errorResponses(400, 401, 403, 409) },
        },
      },
      async (request, reply) => {
        const created = await createRecord(request.ctx, { name, data: request.body as Record<string, unknown> });
        return reply.status(201).send(created as never);
      },
    );

    app.patch(
      `${base}/:id`,
      {
        config: { access: { resource, action: 'UPDATE' } },
        schema: {
          tags,
          summary: `Modificar un registro de ${def.label.toLowerCase()}`,
          params: idParams,
          body: update,
          response: { 200: record, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) =>
        updateRecord(request.ctx, { name, id: request.params.id, data: request.body as Record<string, unknown> }) as never,
    );

    app.delete(
      `${base}/:id`,
      {
        config: { access: { resource, action: 'DELETE' } },
        schema: {
          tags,
          summary: `Eliminar un registro de ${def.label.toLowerCase()}`,
          params: idParams,
          response: { 204: noContentSchema, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        await deleteRecord(request.ctx, { name, id: request.params.id });
        return reply.status(204).send(null);
      },
    );
  }

  // Any other collection name: a 404 that names it rather than a bare "route not found".
  const unknown = async (request: { params: unknown }) => {
    collectionOf((request.params as { name: string }).name);
  };
  const fallback = {
    config: { access: 'authenticated' as const },
    schema: { hide: true, params: collectionNameParamsSchema, response: { ...errorResponses(401, 404) } },
  };
  for (const path of ['/api/collections/:name', '/api/collections/:name/*']) {
    app.get(path, fallback, unknown);
    app.post(path, fallback, unknown);
    app.patch(path, fallback, unknown);
    app.delete(path, fallback, unknown);
  }
};
