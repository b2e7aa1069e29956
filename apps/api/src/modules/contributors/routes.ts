import {
  contributorExportQuerySchema,
  contributorHistoryEntrySchema,
  contributorHistoryQuerySchema,
  contributorInputSchema,
  contributorListQuerySchema,
  contributorOptionsSchema,
  contributorOverviewSchema,
  contributorRenapLookupSchema,
  contributorSaveResponseSchema,
  contributorSchema,
  contributorSearchQuerySchema,
  contributorSearchResultSchema,
  contributorUpdateSchema,
  cuiParamsSchema,
  exportQueryOf,
  idParamsSchema,
  jobStartedSchema,
  listResponse,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendExport } from '../../platform/export.ts';
import { errorResponses } from '../../platform/http.ts';
import { renapAdapterFor } from '../renap/adapter.ts';
import { createContributor, updateContributor } from './editing.ts';
import { contributorExportColumns, startContributorExport } from './export-job.ts';
import {
  contributorFormOptions,
  contributorHistory,
  contributorOptions,
  contributorOverview,
  lookupContributorRenap,
} from './overview.ts';
import {
  type ContributorView,
  exportContributorBatches,
  findContributors,
  getContributor,
  searchContributors,
} from './queries.ts';
import { registerContributorQueues } from './queues.ts';
import { registerContributorStatistics } from './statistics.ts';

const idParams = idParamsSchema;

export const contributorRoutes: FastifyPluginAsyncZod = async (app) => {
  registerContributorQueues();
  registerContributorStatistics();

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
    async (request) => findContributors(request.ctx, request.query),
  );

  app.get(
    '/api/contributors/export',
    {
      config: { access: { resource: 'contributor-list', action: 'EXPORT' }, heavy: true },
      schema: {
        tags: ['contributors'],
        summary: 'Exportar afiliados (xlsx o csv) con los mismos filtros',
        querystring: contributorExportQuerySchema,
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      return sendExport<ContributorView>(reply, {
        format,
        filename: 'afiliados',
        sheetName: 'Afiliados',
        columns: contributorExportColumns,
        batches: exportContributorBatches(request.ctx, query),
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
        querystring: exportQueryOf(contributorListQuerySchema),
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
        querystring: contributorSearchQuerySchema,
        response: { 200: contributorSearchResultSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => searchContributors(request.ctx, request.query),
  );

  app.get(
    '/api/contributors/overview',
    {
      config: { access: { resource: 'contributors', action: 'READ' } },
      schema: {
        tags: ['contributors'],
        summary: 'Resumen de afiliados',
        response: { 200: contributorOverviewSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => contributorOverview(request.ctx),
  );

  app.get(
    '/api/contributors/options',
    {
      config: { access: { resource: 'contributors', action: 'READ' } },
      schema: {
        tags: ['contributors'],
        summary: 'Catálogos del formulario de afiliado',
        response: { 200: contributorOptionsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => contributorOptions(request.ctx),
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
        response: { 200: contributorOptionsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => contributorFormOptions(request.ctx),
  );

  app.get(
    '/api/contributors/renap/:cui',
    {
      config: { access: { resource: 'contributors', action: 'READ' } },
      schema: {
        tags: ['contributors'],
        summary: 'Consultar RENAP para prellenar o comparar un afiliado',
        params: cuiParamsSchema,
        response: { 200: contributorRenapLookupSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => lookupContributorRenap(request.ctx, { adapter: adapter(), cui: request.params.cui }),
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
    async (request) => getContributor(request.ctx, request.params),
  );

  app.get(
    '/api/contributors/:id/history',
    {
      config: { access: { resource: 'contributors', action: 'READ' } },
      schema: {
        tags: ['contributors'],
        summary: 'Historial de cambios de un afiliado',
        params: idParams,
        querystring: contributorHistoryQuerySchema,
        response: { 200: listResponse(contributorHistoryEntrySchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => contributorHistory(request.ctx, { id: request.params.id, ...request.query }),
  );

  app.post(
    '/api/contributors',
    {
      config: { access: { resource: 'contributor-new', action: 'CREATE' } },
      schema: {
        tags: ['contributors'],
        summary: 'Registrar afiliado (abre la aprobación del CUI)',
        body: contributorInputSchema,
        response: { 201: contributorSaveResponseSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createContributor(request.ctx, { adapter: adapter(), data: request.body })),
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
        response: { 200: contributorSaveResponseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => updateContributor(request.ctx, { adapter: adapter(), id: request.params.id, data: request.body }),
  );
};
