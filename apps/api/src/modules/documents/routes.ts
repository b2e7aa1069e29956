import { documentVerificationSchema } from '@aporta/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/http.ts';
import { verifyDocument } from './service.ts';

export const documentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/documents/verify/:code',
    {
      // Public (see verifyDocument): a printed report is checked by whoever received it. Rate-limited
      // like sign-in, so the route cannot be used to probe codes at speed.
      config: { access: 'public', rateLimit: { max: app.config.LOGIN_RATE_PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        tags: ['documents'],
        summary: 'Verificar un documento generado por su código (título, fecha, páginas y SHA-256)',
        params: z.object({ code: z.string().max(40, 'El código de verificación tiene 16 caracteres.') }),
        response: { 200: documentVerificationSchema, ...errorResponses(400, 404, 429) },
      },
    },
    async (request) => verifyDocument(app.db, { code: request.params.code }),
  );
};
