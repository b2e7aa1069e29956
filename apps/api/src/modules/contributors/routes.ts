import {
  type Action,
  type CurrentUser,
  contributorInputSchema,
  contributorListQuerySchema,
  contributorSchema,
  contributorUpdateSchema,
  cuiSchema,
  exportFormatSchema,
  idParamsSchema,
  intTextSchema,
  jobStartedSchema,
  listResponse,
  type Resource,
  renapLookupResponseSchema,
  scopeFor,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import './queues.ts';
import './statistics.ts';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { scopedEntityIdSet } from '../../platform/scope.ts';
import { renapAdapterFor } from '../renap/adapter.ts';
import { lookupForScreen } from '../renap/service.ts';
import { contributorExportColumns, startContributorExport } from './export-job.ts';
import {
  type ContributorView,
  contributorFormOptions,
  contributorHistory,
  contributorOptions,
  contributorOverview,
  createContributor,
  exportContributorBatches,
  findContributors,
  getContributor,
  municipalityOfCui,
  searchContributors,
  updateContributor,
} from './service.ts';

const idParams = idParamsSchema;
const saveResponse = z.object({
  contributor: contributorSchema,
  warnings: z.array(z.string()),
  approvalRequestId: z.number().int().nullable().optional(),
});

const contributorOptionsResponse = z.object({
  types: z.array(z.object({ id: z.number().int(), code: z.string(), name: z.string(), isActive: z.boolean() })),
  entities: z.array(z.object({ id: z.number().int(), code: z.string(), name: z.string() })),
  municipalities: z.array(
    z.object({
      id: z.number().int(),
      code: z.string(),
      name: z.string(),
      departmentName: z.string(),
      departmentId: z.number().int(),
    }),
  ),
  budgetLines: z.array(z.object({ code: z.string(), name: z.string() })),
});

/** The scope the route's own permission grants (the guard has already checked it is held). */
export const scopeOf = (user: CurrentUser, resource: Resource, action: Action) =>
  scopeFor(user.permissions as never, resource, action) ?? 'ENTITY';

export const contributorRoutes: FastifyPluginAsyncZod = async (app) => {
  const adapter = () => renapAdapterFor(app.config, app.db);

  app.get(
    '/api/contributors',
    {
      config: { access: { resource: 'contributor-list', action: 'READ' } },
      schema: {
        tags: ['contributors'],
        summary: 'Buscar afiliados (CUI exacto o prefijo, nombre aproximado, filtros)',
        querystring: contributorListQuerySchema,
        response: { 200: listResponse(contributorSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const user = request.auth!.user;
      return findContributors({ db: app.db, user, scope: scopeOf(user, 'contributor-list', 'READ'), query: request.query });
    },
  );

  app.get(
    '/api/contributors/export',
    {
      config: { access: { resource: 'contributor-list', action: 'EXPORT' } },
      schema: {
        tags: ['contributors'],
        summary: 'Exportar afiliados (xlsx o csv) con los mismos filtros',
        querystring: contributorListQuerySchema
          .omit({ page: true, pageSize: true })
          .extend({ format: exportFormatSchema.default('xlsx') }),
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const user = request.auth!.user;
      const ctx = { db: app.db, user, scope: scopeOf(user, 'contributor-list', 'EXPORT'), query: request.query };
      return sendExport<ContributorView>(reply, {
        format: request.query.format,
        filename: 'afiliados',
        sheetName: 'Afiliados',
        columns: contributorExportColumns,
        batches: exportContributorBatches(ctx),
      });
    },
  );

  app.post(
    '/api/contributors/export-jobs',
    {
      config: { access: { resource: 'contributor-list', action: 'EXPORT' } },
      schema: {
        tags: ['contributors'],
        summary: 'Exportar afiliados en segundo plano (proceso con avance; el archivo se descarga del proceso)',
        querystring: contributorListQuerySchema
          .omit({ page: true, pageSize: true })
          .extend({ format: exportFormatSchema.default('xlsx') }),
        response: { 202: jobStartedSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      return reply.status(202).send(await startContributorExport(request.ctx, { format, query }));
    },
  );

  app.get(
    '/api/contributors/search',
    {
      config: { access: { resource: 'contributors', action: 'READ' } },
      schema: {
        tags: ['contributors'],
        summary: 'Búsqueda rápida de afiliados (paleta de comandos)',
        querystring: z.object({ q: z.string().trim().min(2).max(100) }),
        response: {
          200: z.array(
            z.object({
              id: z.number().int(),
              cui: z.string(),
              fullName: z.string(),
              entityName: z.string().nullable(),
              state: z.string(),
            }),
          ),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) => {
      const user = request.auth!.user;
      return searchContributors({ db: app.db, user, scope: scopeOf(user, 'contributors', 'READ'), q: request.query.q });
    },
  );

  app.get(
    '/api/contributors/overview',
    {
      config: { access: { resource: 'contributors', action: 'READ' } },
      schema: {
        tags: ['contributors'],
        summary: 'Resumen de afiliados',
        response: {
          200: z.object({
            total: z.number().int(),
            byState: z.array(z.object({ key: z.string(), total: z.number().int() })),
            byType: z.array(z.object({ key: z.string(), total: z.number().int() })),
            pendingApprovals: z.number().int(),
            recent: z.array(contributorSchema),
          }),
          ...errorResponses(401, 403),
        },
      },
    },
    async (request) => {
      const user = request.auth!.user;
      return contributorOverview({ db: app.db, user, scope: scopeOf(user, 'contributors', 'READ') });
    },
  );

  app.get(
    '/api/contributors/options',
    {
      config: { access: { resource: 'contributors', action: 'READ' } },
      schema: {
        tags: ['contributors'],
        summary: 'Catálogos del formulario de afiliado',
        response: {
          200: contributorOptionsResponse,
          ...errorResponses(401, 403),
        },
      },
    },
    async (request) => {
      const user = request.auth!.user;
      return contributorOptions({ db: app.db, user, scope: scopeOf(user, 'contributors', 'READ') });
    },
  );

  // The form's own permission opens its choices: a clerk who may create or edit contributors but not
  // read the catalogues still gets the selects filled (issue 9). The service checks either grant.
  app.get(
    '/api/contributors/form-options',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['contributors'],
        summary: 'Opciones del formulario de afiliado (para quien puede crear o editar afiliados)',
        response: { 200: contributorOptionsResponse, ...errorResponses(401, 403) },
      },
    },
    async (request) => contributorFormOptions({ db: app.db, user: request.auth!.user }),
  );

  app.get(
    '/api/contributors/renap/:cui',
    {
      config: { access: { resource: 'contributors', action: 'READ' } },
      schema: {
        tags: ['contributors'],
        summary: 'Consultar RENAP para prellenar o comparar un afiliado',
        params: z.object({ cui: cuiSchema }),
        response: {
          200: renapLookupResponseSchema.extend({ municipalityId: z.number().int().nullable() }),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) => {
      const { actor, user } = request.auth!;
      const res = await lookupForScreen({
        db: app.db,
        adapter: adapter(),
        actor,
        user,
        resource: 'contributors',
        cui: request.params.cui,
      });
      return { ...res, municipalityId: await municipalityOfCui(app.db, request.params.cui) };
    },
  );

  app.get(
    '/api/contributors/:id',
    {
      config: { access: { resource: 'contributors', action: 'READ' } },
      schema: {
        tags: ['contributors'],
        summary: 'Afiliado',
        params: idParams,
        response: { 200: contributorSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const user = request.auth!.user;
      return getContributor({ db: app.db, user, scope: scopeOf(user, 'contributors', 'READ'), id: request.params.id });
    },
  );

  app.get(
    '/api/contributors/:id/history',
    {
      config: { access: { resource: 'contributors', action: 'READ' } },
      schema: {
        tags: ['contributors'],
        summary: 'Historial de cambios de un afiliado',
        params: idParams,
        querystring: z.object({
          page: intTextSchema({ min: 1 }).default(1),
          pageSize: intTextSchema({ min: 1, max: 100 }).default(20),
        }),
        response: {
          200: listResponse(
            z.object({
              id: z.number().int(),
              at: z.string(),
              actorEmail: z.string().nullable(),
              action: z.string(),
              changes: z.array(z.object({ field: z.string(), before: z.string().nullable(), after: z.string().nullable() })),
            }),
          ),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      const user = request.auth!.user;
      return contributorHistory({
        db: app.db,
        user,
        scope: scopeOf(user, 'contributors', 'READ'),
        id: request.params.id,
        ...request.query,
      });
    },
  );

  app.post(
    '/api/contributors',
    {
      config: { access: { resource: 'contributor-new', action: 'CREATE' } },
      schema: {
        tags: ['contributors'],
        summary: 'Registrar afiliado (abre la aprobación del CUI)',
        body: contributorInputSchema,
        response: { 201: saveResponse, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const { user, actor } = request.auth!;
      const scope = scopeOf(user, 'contributor-new', 'CREATE');
      const result = await createContributor({
        db: app.db,
        actor,
        user,
        scope,
        allowed: await scopedEntityIdSet(app.db, user.id, scope),
        adapter: adapter(),
        data: request.body,
      });
      return reply.status(201).send(result);
    },
  );

  app.put(
    '/api/contributors/:id',
    {
      config: { access: { resource: 'contributors', action: 'UPDATE' } },
      schema: {
        tags: ['contributors'],
        summary: 'Modificar afiliado (un CUI nuevo queda pendiente de aprobación)',
        params: idParams,
        body: contributorUpdateSchema,
        response: { 200: saveResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { user, actor } = request.auth!;
      const scope = scopeOf(user, 'contributors', 'UPDATE');
      return updateContributor({
        db: app.db,
        actor,
        user,
        scope,
        allowed: await scopedEntityIdSet(app.db, user.id, scope),
        adapter: adapter(),
        id: request.params.id,
        data: request.body,
      });
    },
  );
};
