import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { msg } from '@aporta/domain';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransformObject, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { agreementRoutes } from './modules/agreements/routes.ts';
import { apiTokenRoutes } from './modules/api-tokens/routes.ts';
import { appInfoRoutes } from './modules/app-info/routes.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { chatRoutes } from './modules/chat/routes.ts';
import { collectionRoutes } from './modules/collections/routes.ts';
import { contributorImportRoutes } from './modules/contributor-imports/routes.ts';
import { contributorReportRoutes } from './modules/contributor-reports/routes.ts';
import { contributorRoutes } from './modules/contributors/routes.ts';
import { cuiApprovalRoutes } from './modules/cui-approvals/routes.ts';
import { documentRoutes } from './modules/documents/routes.ts';
import { financialRoutes } from './modules/financial/routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { homeRoutes } from './modules/home/routes.ts';
import { institutionRoutes } from './modules/institutions/routes.ts';
import { jobRoutes } from './modules/jobs/routes.ts';
import { legalRoutes } from './modules/legal/routes.ts';
import { mailRoutes } from './modules/mail/routes.ts';
import { notificationRoutes } from './modules/notifications/routes.ts';
import { paymentRoutes } from './modules/payments/routes.ts';
import { pensionRoutes } from './modules/pensions/routes.ts';
import { planillaRoutes } from './modules/planillas/routes.ts';
import { profileRoutes } from './modules/profile/routes.ts';
import { renapRoutes } from './modules/renap/routes.ts';
import { roleRoutes } from './modules/roles/routes.ts';
import { settingsRoutes } from './modules/settings/routes.ts';
import { signingRoutes } from './modules/signing/routes.ts';
import { statisticsRoutes } from './modules/statistics/routes.ts';
import { templateRoutes } from './modules/template/routes.ts';
import { userSettingsRoutes } from './modules/user-settings/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { webhookRoutes } from './modules/webhooks/routes.ts';
import { workflowRoutes } from './modules/workflow/routes.ts';
import {
  INTEGRATION_SECURITY_SCHEME,
  INTEGRATION_TAG,
  isGuardedUrl,
  markIntegrationRoute,
  registerAccessGuard,
} from './platform/access.ts';
import { AuditSealer } from './platform/audit-chain.ts';
import { contractTransform, nameContractSchemas } from './platform/contract.ts';
import { errorBody, frameworkErrors, registerErrorHandling } from './platform/errors.ts';
import { createFileStore } from './platform/files.ts';
import type { Access, RouteInfo } from './platform/http.ts';
import { registerInputGuard } from './platform/input.ts';
import { JobWorker, wakeJobWorkers } from './platform/jobs.ts';
import { configureLoad, registerHeavyLimit } from './platform/load.ts';
import { MailDispatcher, messageIdHost } from './platform/mail-dispatcher.ts';
import { configureMailSiteFrom } from './platform/mail-templates.ts';
import { registerMetrics } from './platform/metrics.ts';
import { databaseRateLimitStore } from './platform/rate-limit-store.ts';
import { registerSecurityHeaders } from './platform/security-headers.ts';
import { serializerCompiler } from './platform/serialize.ts';
import { SessionCache } from './platform/session.ts';
import { WebhookDispatcher } from './platform/webhook-dispatcher.ts';
import { configureWebhooks } from './platform/webhooks.ts';

// Spanish messages for every schema violation, in the browser and on the server alike.
z.config(z.locales.es());
nameContractSchemas();

/** Every module's routes; a new module adds one line here. */
const modules = [
  healthRoutes,
  authRoutes,
  userRoutes,
  roleRoutes,
  institutionRoutes,
  profileRoutes,
  collectionRoutes,
  auditRoutes,
  statisticsRoutes,
  appInfoRoutes,
  homeRoutes,
  notificationRoutes,
  userSettingsRoutes,
  settingsRoutes,
  renapRoutes,
  contributorRoutes,
  cuiApprovalRoutes,
  contributorImportRoutes,
  planillaRoutes,
  paymentRoutes,
  agreementRoutes,
  financialRoutes,
  legalRoutes,
  mailRoutes,
  apiTokenRoutes,
  webhookRoutes,
  contributorReportRoutes,
  documentRoutes,
  signingRoutes,
  jobRoutes,
  pensionRoutes,
  templateRoutes,
  chatRoutes,
  workflowRoutes,
];

/**
 * Builds the application: platform plugins, every module, and the built web app. Used by `main.ts`
 * and by the tests, which pass their own database.
 */
export async function buildApp(opts: {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** Start the background-job worker; default: JOBS_CONCURRENCY > 0. API tests pass false and start `app.jobs` themselves. */
  startJobs?: boolean;
}): Promise<FastifyInstance> {
  const { config, database } = opts;
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: false,
    frameworkErrors,
    // Start-up work (the signing authority's keys on a first start, taking back jobs) may take longer than
    // Fastify's 10 s on a loaded two-core machine; a slow start is not a failed one.
    pluginTimeout: 120_000,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  // Mail templates name the institution and link back to this address (platform/mail-templates.ts).
  configureMailSiteFrom(config);
  // Webhooks: https only (http to loopback outside production), private addresses refused in production (platform/webhooks.ts).
  configureWebhooks({
    production: config.NODE_ENV === 'production',
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    masterKey: config.SIGNING_MASTER_KEY,
  });
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate(
    'searchGate',
    configureLoad(database.db, {
      searchSlots: config.SEARCH_CONCURRENCY,
      searchQueue: config.SEARCH_QUEUE,
      searchWaitMs: config.SEARCH_WAIT_MS,
      jobsPerUser: config.JOBS_PER_USER,
    }),
  );
  app.decorate('sessionCache', await startSessionCache(app, database, config.SESSION_CACHE_SECONDS));
  app.decorate('authPolicy', {
    sessionIdleHours: config.SESSION_IDLE_HOURS,
    sessionAbsoluteDays: config.SESSION_ABSOLUTE_DAYS,
    maxFailures: config.LOGIN_MAX_FAILURES,
    lockMinutes: config.LOGIN_LOCK_MINUTES,
  });

  // Routes added by third-party plugins under /api/docs are public documentation. Every /api route is
  // recorded so the authorization matrix test can walk them all.
  const routeTable: RouteInfo[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/docs')) route.config = { ...(route.config ?? {}), access: 'public' };
    if (!isGuardedUrl(route.url)) return;
    // Integration tokens (issue 30): the routes they may call are tagged «Integraciones» in the OpenAPI document.
    markIntegrationRoute(route);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') {
        const config = route.config as { access?: Access; heavy?: boolean } | undefined;
        routeTable.push({ method, url: route.url, access: config?.access, heavy: config?.heavy === true });
      }
    }
  });

  registerErrorHandling(app);
  // /livez, /readyz, /metrics; and, with metrics on, every request measured (its hook before every route's).
  registerMetrics(app);
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        // Served over plain HTTP on an office network too: do not force https sub-requests.
        upgradeInsecureRequests: null,
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
      },
    },
  });
  // The builder's result is thrown: it needs its statusCode for the error handler to answer 429, not 500.
  await app.register(rateLimit, {
    global: false,
    // Counted in the database: several API processes share one limit per address.
    store: databaseRateLimitStore(database.priorityDb),
    errorResponseBuilder: (_request, context) => ({ statusCode: context.statusCode, ...errorBody('RATE_LIMITED') }),
  });
  registerAccessGuard(app);
  registerInputGuard(app);
  registerHeavyLimit(app, config.HEAVY_REQUESTS_PER_USER);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: `${config.APP_TITLE} API`, version: config.version, description: 'API de Aporta' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          [INTEGRATION_SECURITY_SCHEME]: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'apt_…',
            description:
              'Token de integración de una entidad (Administración → Tokens de integración): solo las rutas de «Integraciones». Guía: docs/integraciones.md.',
          },
        },
      },
      security: [{ bearer: [] }],
      tags: [
        {
          name: INTEGRATION_TAG,
          description:
            'Lo que el sistema de nómina de una municipalidad hace con un token de integración (Authorization: Bearer apt_…): cargar, validar y enviar su planilla; consultar sus órdenes de pago, pagos, recibos 7-B y estado de cuenta. Solo su entidad; máximo API_TOKEN_RATE_PER_MINUTE solicitudes por minuto (429 con Retry-After).',
        },
      ],
    },
    transform: contractTransform,
    // The domain's named schemas as components.schemas, referred to by every route that uses them.
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  app.get('/api/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());

  for (const m of modules) await app.register(m);

  const files = createFileStore(config);
  app.decorate('files', files);
  const jobs = new JobWorker({
    db: database.db,
    files,
    concurrency: Math.max(1, config.JOBS_CONCURRENCY),
    pollMs: config.JOBS_POLL_MS,
    // Only one process can open the embedded database: whatever it left RUNNING is orphaned.
    reclaimAllOnStart: database.kind === 'pglite',
    log: app.log,
    // The daily jobs (scheduleDaily) run wherever jobs run; the claim on job_schedules keeps it to one process.
    schedules: true,
  });
  app.decorate('jobs', jobs);
  // Runs before the database is closed by the caller: running jobs are given back to the queue.
  app.addHook('onClose', async () => jobs.stop());
  // The outbox's dispatcher runs where jobs run; without SMTP_URL it sends nothing (mail stays in the outbox).
  const mail = new MailDispatcher({
    db: database.db,
    files,
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    host: messageIdHost(config.PUBLIC_URL, config.MAIL_FROM),
    maxAttempts: config.MAIL_MAX_ATTEMPTS,
    log: app.log,
  });
  app.decorate('mail', mail);
  app.addHook('onClose', async () => mail.stop());
  // The webhooks' dispatcher (issue 30) runs where jobs run, as the mail's does.
  const webhooks = new WebhookDispatcher({ db: database.db, maxAttempts: config.WEBHOOK_MAX_ATTEMPTS, log: app.log });
  app.decorate('webhooks', webhooks);
  app.addHook('onClose', async () => webhooks.stop());
  // Chains the audit rows (platform/audit-chain.ts): every second, and soon after a request that may have written.
  const auditSealer = new AuditSealer(database.db, { log: app.log });
  app.addHook('onClose', async () => auditSealer.stop());
  if (opts.startJobs ?? config.JOBS_CONCURRENCY > 0) {
    app.addHook('onReady', async () => jobs.start());
    // A job queued by another process (its worker may be full) is claimed here at once, not at the next poll.
    await keepListening(app, database, 'aporta_jobs', { onNotify: wakeJobWorkers });
    app.addHook('onReady', async () => mail.start());
    app.addHook('onReady', async () => webhooks.start());
    app.addHook('onReady', async () => auditSealer.start());
    app.addHook('onResponse', async (request) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') auditSealer.nudge();
    });
  }

  const hasWeb = !!config.webDist && existsSync(join(config.webDist, 'index.html'));
  if (hasWeb) await app.register(fastifyStatic, { root: config.webDist, wildcard: false, index: false });
  app.setNotFoundHandler((request, reply) => {
    // Every other GET path is a screen of the single-page app.
    if (hasWeb && request.method === 'GET' && !isGuardedUrl(request.url)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply
      .status(404)
      .send(
        errorBody('ROUTE_NOT_FOUND', msg('platform.routeNotFound', { method: request.method, path: request.url.split('?')[0] })),
      );
  });
  return app;
}

/**
 * The session cache of this process, emptied by every 'aporta_auth' notification (a change to sessions,
 * users, roles, grants or institutions in any process). While the channel is down nothing is cached,
 * and it is opened again every 5 s.
 */
async function startSessionCache(app: FastifyInstance, database: Database, ttlSeconds: number): Promise<SessionCache> {
  const cache = new SessionCache(ttlSeconds);
  if (ttlSeconds <= 0) return cache;
  if (!database.listen) {
    // PGlite: one process; its changes go through this process's API (the access guard clears the cache)
    // or through a job of this process. Jobs do not change sessions or grants.
    return cache;
  }
  await keepListening(app, database, 'aporta_auth', {
    onNotify: () => cache.clear(),
    onUp: () => {
      cache.clear();
      cache.enabled = true;
    },
    onDown: () => {
      cache.enabled = false;
      cache.clear();
    },
  });
  return cache;
}

/**
 * Listens on a NOTIFY channel (PostgreSQL) for the life of the app: when the connection is lost (or cannot be
 * opened) `onDown` runs and it is opened again every 5 s, then `onUp`.
 */
async function keepListening(
  app: FastifyInstance,
  database: Database,
  channel: string,
  on: { onNotify: (payload: string) => void; onUp?: () => void; onDown?: () => void },
): Promise<void> {
  if (!database.listen) return;
  let stop: (() => Promise<void>) | null = null;
  let retry: NodeJS.Timeout | null = null;
  let closed = false;
  const open = async () => {
    retry = null;
    try {
      stop = await database.listen!(channel, on.onNotify, () => {
        on.onDown?.();
        stop = null;
        if (!closed && !retry) retry = setTimeout(open, 5_000);
      });
      on.onUp?.();
    } catch (err) {
      app.log.warn({ err, channel }, 'cannot listen for notifications; trying again in 5 s');
      on.onDown?.();
      if (!closed) retry = setTimeout(open, 5_000);
    }
  };
  await open();
  app.addHook('onClose', async () => {
    closed = true;
    if (retry) clearTimeout(retry);
    await stop?.();
  });
}
