import { AppError, isIntegrationRoute, msg, type Scope, scopeFor } from '@aporta/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Db } from '../db/client.ts';
import { createContext } from './context.ts';
import { busy } from './load.ts';
import { databaseRateLimitStore } from './rate-limit-store.ts';
import { withEntityPin } from './scope.ts';
import { type AuthContext, authenticate, authenticateApiToken, isApiToken } from './session.ts';

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

/** The OpenAPI tag of the routes an integration token may call, and its security scheme (app.ts). */
export const INTEGRATION_TAG = 'Integraciones';
export const INTEGRATION_SECURITY_SCHEME = 'apiToken';

/**
 * Called for every route as it is added (app.ts): a route of INTEGRATION_ROUTES joins the «Integraciones»
 * tag of the OpenAPI document, and declares that a session's token or an integration token opens it.
 */
export function markIntegrationRoute(route: RouteOptions): void {
  if (![route.method].flat().some((m) => isIntegrationRoute(m, route.url))) return;
  const schema = (route.schema ?? {}) as { tags?: string[]; security?: unknown };
  route.schema = {
    ...route.schema,
    tags: [...(schema.tags ?? []), INTEGRATION_TAG],
    security: [{ bearer: [] }, { [INTEGRATION_SECURITY_SCHEME]: [] }],
  } as RouteOptions['schema'];
}

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
  const tokenLimit = tokenRateLimit(app.database.priorityDb, app.config.API_TOKEN_RATE_PER_MINUTE);
  app.decorateRequest('auth', null);
  app.decorateRequest('ctx', null as never);
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (!readOnly(request.method) && isGuardedUrl(request.routeOptions.url)) app.sessionCache.clear();
    done(null, payload);
  });
  app.addHook('onRequest', async (request, reply) => {
    const url = request.routeOptions.url;
    if (!isGuardedUrl(url)) return;
    const access = request.routeOptions.config.access;
    if (access === 'public') return;
    const token = bearer(request);
    if (!token) throw new AppError('UNAUTHENTICATED');
    const auth = isApiToken(token)
      ? await integrationAuth(request, reply, token)
      : await authenticate({
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

  /**
   * A request with an integration token (issue 30): only the routes of INTEGRATION_ROUTES (403 naming the
   * route otherwise), at most API_TOKEN_RATE_PER_MINUTE a minute per token (429 with Retry-After), then the
   * token's context as for a session.
   */
  async function integrationAuth(request: FastifyRequest, reply: FastifyReply, token: string): Promise<AuthContext> {
    const auth = await authenticateApiToken({ db: app.database.priorityDb, token, ip: request.ip, cache: app.sessionCache });
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    if (!isIntegrationRoute(method, request.routeOptions.url ?? '')) {
      throw new AppError(
        'FORBIDDEN',
        msg('integrations.routeNotAllowed', { method: request.method, path: request.url.split('?')[0].slice(0, 200) }),
      );
    }
    const { current, ttl } = await tokenLimit.hit(`api-token:${auth.apiToken?.id}`);
    if (current > app.config.API_TOKEN_RATE_PER_MINUTE) {
      const seconds = Math.max(1, Math.ceil(ttl / 1000));
      reply.header('retry-after', String(seconds));
      throw new AppError('RATE_LIMITED', msg('integrations.rateLimited', { max: app.config.API_TOKEN_RATE_PER_MINUTE, seconds }));
    }
    return auth;
  }

  // The route of a token's request runs with its creator's scopes pinned to the token's entity (platform/scope.ts).
  // Here, after the body is read and validated, so the handler and everything it awaits run inside the pin.
  app.addHook('preHandler', (request, _reply, done) => {
    const token = request.auth?.apiToken;
    if (!token || !request.auth) {
      done();
      return;
    }
    withEntityPin({ userId: request.auth.user.id, entityId: token.entityId }, () => done());
  });
}

/** Counts a token's requests in the shared rate-limit table (fixed one-minute windows), across processes. */
function tokenRateLimit(db: Db, max: number) {
  const Store = databaseRateLimitStore(db);
  const store = new Store();
  return {
    max,
    hit: (key: string) =>
      new Promise<{ current: number; ttl: number }>((resolve, reject) =>
        store.incr(key, (err, res) => (err || !res ? reject(err ?? new Error('rate limit store')) : resolve(res)), 60_000),
      ),
  };
}
