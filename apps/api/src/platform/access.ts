import { AppError, type Scope, scopeFor } from '@aporta/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createContext } from './context.ts';
import { busy } from './load.ts';
import { authenticate } from './session.ts';

const bearer = (request: FastifyRequest): string | null => {
  const header = request.headers.authorization;
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m ? m[1] : null;
};

/**
 * The routes the guard covers: the API, and the template's data calls of spec §7 (`/app/{collection}`),
 * which are bearer-token authenticated like any API route.
 */
export const isGuardedUrl = (url: string | undefined): boolean => !!url && (url.startsWith('/api') || url.startsWith('/app/'));

const readOnly = (method: string) => method === 'GET' || method === 'HEAD' || method === 'OPTIONS';

/**
 * Authenticated by default: every /api route passes here. A route opts out with access 'public'; a
 * route that declares nothing is refused (fail closed) and the authorization matrix test names it.
 *
 * The session is resolved on the priority pool (never behind a slow search) through this process's
 * session cache; any change made through the API empties the cache before its answer is sent, and
 * other processes hear of it through the database (platform/session.ts). A read asked while the main
 * pool has a long line waiting for connections is answered 503 with Retry-After at once.
 */
export function registerAccessGuard(app: FastifyInstance): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('ctx', null as never);
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (!readOnly(request.method) && isGuardedUrl(request.routeOptions.url)) app.sessionCache.clear();
    done(null, payload);
  });
  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    if (!isGuardedUrl(url)) return;
    const access = request.routeOptions.config.access;
    if (access === 'public') return;
    const token = bearer(request);
    if (!token) throw new AppError('UNAUTHENTICATED');
    const auth = await authenticate({
      db: app.database.priorityDb,
      policy: app.authPolicy,
      token,
      ip: request.ip,
      cache: app.sessionCache,
    });
    if (readOnly(request.method) && app.database.poolWaiting() > app.config.MAX_POOL_WAITING) throw busy();
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
