/** Bank-file routes: the banks a file may name, importing one, its rows, resolving a row, applying again what was not applied. */
import {
  bankFileCreateSchema,
  bankFileRowSchema,
  bankFileSchema,
  bankOptionListSchema,
  bankRowResolveSchema,
  bankRowStates,
  idParamsSchema,
  idTextSchema,
  listQuerySchema,
  listResponse,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/http.ts';
import { findBankFileRows, findBankFiles, getBankFile, importBankFile, resolveBankRow, retryBankFile } from './bank-files.ts';
import { findBankOptions } from './banks.ts';

const tags = ['pagos'];

const rowParams = z.object({ id: idTextSchema, rowId: idTextSchema });

export const bankFileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/bank-files',
    {
      config: { access: { resource: 'planilla-payments', action: 'READ' } },
      schema: {
        tags,
        summary: 'Archivos bancarios importados (NO_APLICADAS: los que tienen filas conciliadas sin pago registrado)',
        querystring: listQuerySchema.extend({ state: z.enum(['NO_APLICADAS']).optional() }),
        response: { 200: listResponse(bankFileSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      return findBankFiles(request.ctx, request.query);
    },
  );

  app.get(
    '/api/bank-files/banks',
    {
      config: { access: { resource: 'planilla-payments', action: 'READ' } },
      schema: {
        tags,
        summary: 'Bancos activos del catálogo que puede nombrar un archivo bancario, por nombre',
        response: { 200: bankOptionListSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => findBankOptions(request.ctx),
  );

  app.post(
    '/api/bank-files',
    {
      config: { access: { resource: 'planilla-payments', action: 'CREATE' } },
      schema: {
        tags,
        summary: 'Importar un archivo del banco (csv: fecha, referencia, monto): conciliar por referencia y registrar los pagos',
        body: bankFileCreateSchema,
        response: { 201: bankFileSchema, ...errorResponses(400, 401, 403) },
      },
      bodyLimit: 6 * 1024 * 1024,
    },
    async (request, reply) => reply.status(201).send(await importBankFile(request.ctx, request.body)),
  );

  app.get(
    '/api/bank-files/:id',
    {
      config: { access: { resource: 'planilla-payments', action: 'READ' } },
      schema: {
        tags,
        summary: 'Un archivo bancario y sus cuentas',
        params: idParamsSchema,
        response: { 200: bankFileSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      return getBankFile(request.ctx, { id: request.params.id });
    },
  );

  app.get(
    '/api/bank-files/:id/rows',
    {
      config: { access: { resource: 'planilla-payments', action: 'READ' } },
      schema: {
        tags,
        summary: 'Filas de un archivo bancario (todas, por estado o las pendientes de resolver)',
        params: idParamsSchema,
        querystring: listQuerySchema.extend({ state: z.enum([...bankRowStates, 'PENDIENTES']).optional() }),
        response: { 200: listResponse(bankFileRowSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      return findBankFileRows(request.ctx, { id: request.params.id, query: request.query });
    },
  );

  app.post(
    '/api/bank-files/:id/rows/:rowId/resolve',
    {
      config: { access: { resource: 'planilla-payments', action: 'CREATE' } },
      schema: {
        tags,
        summary: 'Resolver una fila no conciliada: pagarla contra órdenes elegidas o descartarla con una nota',
        params: rowParams,
        body: bankRowResolveSchema,
        response: { 200: bankFileRowSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      return resolveBankRow(request.ctx, { fileId: request.params.id, rowId: request.params.rowId, ...request.body });
    },
  );

  app.post(
    '/api/bank-files/:id/retry',
    {
      config: { access: { resource: 'planilla-payments', action: 'CREATE' } },
      schema: {
        tags,
        summary: 'Aplicar de nuevo las filas conciliadas cuyo pago no se registró (no aplicadas), en un proceso',
        params: idParamsSchema,
        response: { 200: bankFileSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => retryBankFile(request.ctx, { id: request.params.id }),
  );
};
