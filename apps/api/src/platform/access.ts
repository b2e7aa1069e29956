import { AppError, scopeFor } from '@aporta/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate } from '../modules/auth/service.ts';

const bearer = (request: FastifyRequest): string | null => {
  const header = request.headers.authorization;
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m ? m[1] : null;
};

/**
 * Authenticated by default: every /api route passes here. A route opts out with access 'public'; a
 * route that declares nothing is refused (fail closed) and the authorization matrix test names it.
 */
export function registerAccessGuard(app: FastifyInstance): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    if (!url?.startsWith('/api')) return;
    const access = request.routeOptions.config.access;
    if (access === 'public') return;
    const token = bearer(request);
    if (!token) throw new AppError('UNAUTHENTICATED');
    request.auth = await authenticate({ db: app.db, policy: app.authPolicy, token, ip: request.ip });
    if (access === 'authenticated') return;
    if (!access) {
      request.log.error({ url }, 'route without declared access');
      throw new AppError('FORBIDDEN');
    }
    if (request.auth.user.mustChangePassword) throw new AppError('PASSWORD_CHANGE_REQUIRED');
    if (!scopeFor(request.auth.user.permissions, access.resource, access.action)) throw new AppError('FORBIDDEN');
  });
}
