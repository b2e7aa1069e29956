import { AppError, type Scope, scopeFor } from '@aporta/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createContext } from './context.ts';
import { authenticate } from './session.ts';

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
  app.decorateRequest('ctx', null as never);
  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    if (!url?.startsWith('/api')) return;
    const access = request.routeOptions.config.access;
    if (access === 'public') return;
    const token = bearer(request);
    if (!token) throw new AppError('UNAUTHENTICATED');
    const auth = await authenticate({ db: app.db, policy: app.authPolicy, token, ip: request.ip });
    request.auth = auth;
    const context = (scope: Scope | null) =>
      createContext({ db: app.db, user: auth.user, actor: auth.actor, sessionId: auth.sessionId, scope });
    if (access === 'authenticated') {
      request.ctx = context(null);
      return;
    }
    if (!access) {
      request.log.error({ url }, 'route without declared access');
      throw new AppError('FORBIDDEN');
    }
    if (auth.user.mustChangePassword) throw new AppError('PASSWORD_CHANGE_REQUIRED');
    const scope = scopeFor(auth.user.permissions, access.resource, access.action);
    if (!scope) throw new AppError('FORBIDDEN');
    request.ctx = context(scope);
  });
}
