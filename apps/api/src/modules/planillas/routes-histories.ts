// Routes that read planillas over time: the contributions' rates, histories and the employees declared.
import {
  AppError,
  contributionHistoryQuerySchema,
  contributionHistorySchema,
  entityContributionHistoryQuerySchema,
  entityContributionHistorySchema,
  listResponse,
  msg,
  planillaEmployeeSchema,
  planillaEmployeesQuerySchema,
  settingDefinitions,
  settingHistorySchema,
  settingKeySchema,
  settingsOverviewSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/http.ts';
import { listSettings, settingHistory } from '../settings/service.ts';
import { contributorHistory, entityHistory, findPlanillaEmployees } from './histories.ts';

const tags = ['planillas'];

export const planillaHistoryRoutes: FastifyPluginAsyncZod = async (app) => {
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
        throw new AppError('NOT_FOUND', msg('planillas.notContributionSetting'));
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
