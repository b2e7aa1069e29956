import {
  auditEntrySchema,
  type CollectionDefinition,
  collectionNames,
  collectionNamesSchema,
  collectionSchemaSchema,
  collectionSummarySchema,
  exportFormatSchema,
  type FieldMeta,
  idParamsSchema,
  idTextSchema,
  intTextSchema,
  listQuerySchema,
  listResponse,
  moneyDecimalSchema,
  moneyInputSchema,
  referenceOptionSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inBatches, sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { registry } from './registry.ts';
import {
  collectionOf,
  collectionSummary,
  createRecord,
  deleteRecord,
  exportPlan,
  findRecords,
  getRecord,
  readableCollections,
  recordHistory,
  referenceOptions,
  schemaOf,
  updateRecord,
} from './service.ts';

const valueSchema = (f: FieldMeta) => {
  switch (f.type) {
    case 'boolean':
      return z.boolean();
    case 'number':
      return z.number().nullable();
    case 'money':
      return moneyDecimalSchema.nullable();
    case 'reference':
      return z.number().int().nullable();
    default:
      return z.string().nullable();
  }
};

const recordSchemaOf = (def: CollectionDefinition) =>
  z.object({
    id: z.number().int(),
    label: z.string(),
    labels: z.record(z.string(), z.string().nullable()),
    ...Object.fromEntries(def.fields.map((f) => [f.name, valueSchema(f)])),
  });

/** Exact-match filters a list accepts: `?<field>=value` for boolean, enum and reference fields. */
const filtersOf = (def: CollectionDefinition) =>
  Object.fromEntries(
    def.fields
      .filter((f) => f.filterable)
      .map((f) => {
        if (f.type === 'boolean')
          return [
            f.name,
            z
              .enum(['true', 'false'])
              .transform((v) => v === 'true')
              .optional(),
          ];
        if (f.type === 'enum' && f.options) return [f.name, z.enum(f.options as [string, ...string[]]).optional()];
        if (f.type === 'reference') return [f.name, idTextSchema.optional()];
        if (f.type === 'number') return [f.name, intTextSchema().optional()];
        if (f.type === 'money') return [f.name, moneyInputSchema(f.label, { allowNegative: true }).optional()];
        return [f.name, z.string().max(200).optional()];
      }),
  );

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
    async (request) => readableCollections(request.auth!.user),
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
    async (request) => collectionSummary({ db: app.db, user: request.auth!.user }),
  );

  for (const name of collectionNames) {
    const def = registry[name].def;
    const base = `/api/collections/${name}`;
    const tags = ['collections'];
    const record = recordSchemaOf(def);
    const listQuery = listQuerySchema.extend(filtersOf(def));
    const ctx = (request: { auth: { user: unknown; actor: unknown } | null }) => ({
      db: app.db,
      user: request.auth!.user as never,
      actor: request.auth!.actor as never,
      name,
    });

    app.get(
      base,
      {
        config: { access: { resource: name, action: 'READ' } },
        schema: {
          tags,
          summary: `Listar ${def.label.toLowerCase()}`,
          querystring: listQuery,
          response: { 200: listResponse(record), ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => findRecords({ ...ctx(request), query: request.query as never }),
    );

    app.get(
      `${base}/export`,
      {
        config: { access: { resource: name, action: 'EXPORT' } },
        schema: {
          tags,
          summary: `Exportar ${def.label.toLowerCase()} (xlsx o csv, con los mismos filtros)`,
          querystring: listQuery.omit({ page: true, pageSize: true }).extend({ format: exportFormatSchema.default('xlsx') }),
          response: { ...errorResponses(400, 401, 403) },
        },
      },
      async (request, reply) => {
        const { format, ...query } = request.query as { format: 'xlsx' | 'csv' };
        const plan = exportPlan({ ...ctx(request), query: query as never });
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
        config: { access: { resource: name, action: 'READ' } },
        schema: {
          tags,
          summary: `Metadatos de ${def.label.toLowerCase()}`,
          response: { 200: collectionSchemaSchema, ...errorResponses(401, 403) },
        },
      },
      async (request) => schemaOf(request.auth!.user, name),
    );

    app.get(
      `${base}/options/:field`,
      {
        config: { access: { resource: name, action: 'READ' } },
        schema: {
          tags,
          summary: `Opciones de un campo de referencia de ${def.label.toLowerCase()}`,
          params: z.object({ field: z.string().max(60) }),
          querystring: z.object({
            q: z.string().trim().max(100).optional(),
            ids: z
              .string()
              .regex(/^\d+(,\d+)*$/, { error: 'Lista de identificadores separados por comas.' })
              .transform((s) => s.split(',').slice(0, 100))
              .pipe(z.array(z.string().pipe(idTextSchema)))
              .optional(),
          }),
          response: { 200: z.array(referenceOptionSchema), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => referenceOptions({ ...ctx(request), field: request.params.field, ...request.query }),
    );

    app.get(
      `${base}/:id`,
      {
        config: { access: { resource: name, action: 'READ' } },
        schema: {
          tags,
          summary: `Consultar un registro de ${def.label.toLowerCase()}`,
          params: idParams,
          response: { 200: record, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => getRecord({ ...ctx(request), id: request.params.id }),
    );

    app.get(
      `${base}/:id/history`,
      {
        config: { access: { resource: name, action: 'READ' } },
        schema: {
          tags,
          summary: `Historial de cambios de un registro de ${def.label.toLowerCase()}`,
          params: idParams,
          response: { 200: z.array(auditEntrySchema), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => recordHistory({ ...ctx(request), id: request.params.id }),
    );

    app.post(
      base,
      {
        config: { access: { resource: name, action: 'CREATE' } },
        schema: {
          tags,
          summary: `Crear un registro de ${def.label.toLowerCase()}`,
          body: def.input,
          response: { 201: record, ...errorResponses(400, 401, 403, 409) },
        },
      },
      async (request, reply) => {
        const created = await createRecord({ ...ctx(request), data: request.body as Record<string, unknown> });
        return reply.status(201).send(created as never);
      },
    );

    app.patch(
      `${base}/:id`,
      {
        config: { access: { resource: name, action: 'UPDATE' } },
        schema: {
          tags,
          summary: `Modificar un registro de ${def.label.toLowerCase()}`,
          params: idParams,
          body: def.input.partial(),
          response: { 200: record, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) =>
        updateRecord({ ...ctx(request), id: request.params.id, data: request.body as Record<string, unknown> }) as never,
    );

    app.delete(
      `${base}/:id`,
      {
        config: { access: { resource: name, action: 'DELETE' } },
        schema: {
          tags,
          summary: `Eliminar un registro de ${def.label.toLowerCase()}`,
          params: idParams,
          response: { 204: z.null(), ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        await deleteRecord({ ...ctx(request), id: request.params.id });
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
    schema: { hide: true, params: z.object({ name: z.string() }).loose(), response: { ...errorResponses(401, 404) } },
  };
  for (const path of ['/api/collections/:name', '/api/collections/:name/*']) {
    app.get(path, fallback, unknown);
    app.post(path, fallback, unknown);
    app.patch(path, fallback, unknown);
    app.delete(path, fallback, unknown);
  }
};
