import {
  cuiApprovalListQuerySchema,
  cuiApprovalSchema,
  cuiDecisionSchema,
  idParamsSchema,
  listResponse,
  renapPersonSchema,
  renapResultSchema,
} from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/http.ts';
import { scopeOf } from '../contributors/routes.ts';
import { renapAdapterFor } from '../renap/adapter.ts';
import { decideCuiApproval, findCuiApprovals, getCuiApproval, reviewCuiApproval } from './service.ts';

const idParams = idParamsSchema;

export const cuiApprovalRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/cui-approvals',
    {
      config: { access: { resource: 'cui-approval', action: 'READ' } },
      schema: {
        tags: ['cui-approvals'],
        summary: 'Solicitudes de aprobación de CUI',
        querystring: cuiApprovalListQuerySchema,
        response: { 200: listResponse(cuiApprovalSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const user = request.auth!.user;
      return findCuiApprovals({ db: app.db, user, scope: scopeOf(user, 'cui-approval', 'READ'), query: request.query });
    },
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
    async (request) => {
      const user = request.auth!.user;
      return getCuiApproval({ db: app.db, user, scope: scopeOf(user, 'cui-approval', 'READ'), id: request.params.id });
    },
  );

  app.get(
    '/api/cui-approvals/:id/review',
    {
      config: { access: { resource: 'cui-approval', action: 'APPROVE' } },
      schema: {
        tags: ['cui-approvals'],
        summary: 'Solicitud con los datos de RENAP del CUI propuesto',
        params: idParams,
        response: {
          200: z.object({
            request: cuiApprovalSchema,
            renap: z.object({ result: renapResultSchema, person: renapPersonSchema.nullable(), warning: z.string().nullable() }),
          }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      const { user, actor } = request.auth!;
      return reviewCuiApproval({
        db: app.db,
        user,
        actor,
        scope: scopeOf(user, 'cui-approval', 'APPROVE'),
        adapter: renapAdapterFor(app.config, app.db),
        id: request.params.id,
      });
    },
  );

  app.post(
    '/api/cui-approvals/:id/decision',
    {
      config: { access: { resource: 'cui-approval', action: 'APPROVE' } },
      schema: {
        tags: ['cui-approvals'],
        summary: 'Aprobar o rechazar una solicitud de CUI (nunca la propia)',
        params: idParams,
        body: cuiDecisionSchema,
        response: { 200: cuiApprovalSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { user, actor } = request.auth!;
      return decideCuiApproval({
        db: app.db,
        user,
        actor,
        scope: scopeOf(user, 'cui-approval', 'APPROVE'),
        id: request.params.id,
        data: request.body,
      });
    },
  );
};
