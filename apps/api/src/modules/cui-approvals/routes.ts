import {
  cuiApprovalListQuerySchema,
  cuiApprovalSchema,
  cuiDecisionSchema,
  cuiReviewSchema,
  idParamsSchema,
  listResponse,
  stateTransitionListSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http.ts';
import { renapAdapterFor } from '../renap/adapter.ts';
import { decideCuiApproval, findCuiApprovalHistory, findCuiApprovals, getCuiApproval, reviewCuiApproval } from './service.ts';

const idParams = idParamsSchema;

export const cuiApprovalRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/cui-approvals',
    {
      config: { access: { resource: 'cui-approval', action: 'READ' } },
      schema: {
        tags: ['cui-approvals'],
        summary: 'Solicitudes de aprobación de CUI, cada una con las acciones que el usuario puede tomar',
        querystring: cuiApprovalListQuerySchema,
        response: { 200: listResponse(cuiApprovalSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findCuiApprovals(request.ctx, request.query),
  );

  app.get(
    '/api/cui-approvals/:id',
    {
      config: { access: { resource: 'cui-approval', action: 'READ' } },
      schema: {
        tags: ['cui-approvals'],
        summary: 'Solicitud de aprobación de CUI',
        params: idParams,
        response: { 200: cuiApprovalSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => getCuiApproval(request.ctx, { id: request.params.id }),
  );

  app.get(
    '/api/cui-approvals/:id/history',
    {
      config: { access: { resource: 'cui-approval', action: 'READ' } },
      schema: {
        tags: ['cui-approvals'],
        summary: 'Historial de estados de una solicitud de CUI (quién, cuándo, de qué a qué, motivo)',
        params: idParams,
        response: { 200: stateTransitionListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({ items: await findCuiApprovalHistory(request.ctx, { id: request.params.id }) }),
  );

  app.get(
    '/api/cui-approvals/:id/review',
    {
      config: { access: { resource: 'cui-approval', action: 'APPROVE' } },
      schema: {
        tags: ['cui-approvals'],
        summary: 'Solicitud con los datos de RENAP del CUI propuesto',
        params: idParams,
        response: { 200: cuiReviewSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => reviewCuiApproval(request.ctx, { id: request.params.id, adapter: renapAdapterFor(app.config, app.db) }),
  );

  app.post(
    '/api/cui-approvals/:id/transitions',
    {
      config: { access: { resource: 'cui-approval', action: 'APPROVE' } },
      schema: {
        tags: ['cui-approvals'],
        summary: 'Aprobar (to: APROBADO) o rechazar (to: RECHAZADO, con motivo) una solicitud de CUI; nunca la propia',
        params: idParams,
        body: cuiDecisionSchema,
        response: { 200: cuiApprovalSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => decideCuiApproval(request.ctx, { id: request.params.id, data: request.body }),
  );
};
