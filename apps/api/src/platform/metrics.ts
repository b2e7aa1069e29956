import cluster from 'node:cluster';
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { AppError, MAIL_EVENTS, msg, WEBHOOK_DELIVERY_EVENTS } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AggregatorRegistry, Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../config.ts';
import { type Database, migrationsFolder, onPoolAcquire, type PoolStats, rowsOf } from '../db/client.ts';
import { errorBody } from './errors.ts';
import { HealthProbe } from './health.ts';
import type { Gate } from './load.ts';

/**
 * Metrics in Prometheus's text format, liveness and readiness (issue 30; docs/decisions.md, "Metrics,
 * liveness and readiness").
 *
 * - **Where `/metrics` is served.** Off unless configured: on a port of its own (`METRICS_PORT`, bound to
 *   `METRICS_HOST`, 127.0.0.1 unless set: reachable only from the machine or a network the operator opens) and/or
 *   on the main port with `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time (the token is then
 *   asked on the metrics port too). With neither, `/metrics` on the main port is a 404 and nothing is measured.
 * - **Several processes** (`API_PROCESSES`, node:cluster): the primary answers for all of them — prom-client's
 *   `AggregatorRegistry` asks every server process for its metrics and sums them (counters, histograms, pool and
 *   search gauges); what every process reads from the same database (the job queue) is taken once (`max`), and
 *   the primary serves the metrics port. A process asked on the main port passes the question to the primary.
 * - **What is measured**: HTTP requests by route *template* (`/api/planillas/:id`, never the raw URL) method and
 *   status, with their latency; the job queue by kind and state (from the jobs table on scrape, cached a few
 *   seconds); the PostgreSQL pools (connections in use and idle, requests waiting, checkout time, checkouts that
 *   found the pool full); the expensive-search gate (slots in use, waiting, refused); jobs ended by kind and
 *   outcome; business counters (`countMetric`); Node's own process metrics.
 * - **`/livez`** answers 200 while the process answers; **`/readyz`** 200 when the database answers, every
 *   migration is applied and the process is not shutting down, else 503. Both public, a one-word status only.
 */

/** The registry of this process (the cluster's primary aggregates the registries of its server processes). */
export const metricsRegistry = new Registry();

// ─── Counters the code paths call ────────────────────────────────────────────────────────────────────

const businessCounters = {
  /** A planilla sent to review (ENVIADA), counted when its submit job commits it. */
  planillasSubmitted: new Counter({
    name: 'aporta_planillas_submitted_total',
    help: 'Planillas enviadas a revisión',
    registers: [metricsRegistry],
  }),
  /** A payment registered (at the window or from a bank file's row). */
  paymentsRegistered: new Counter({
    name: 'aporta_payments_registered_total',
    help: 'Pagos registrados, por origen (window: en ventanilla o por la API; bank_file: fila de un archivo bancario)',
    labelNames: ['source'],
    registers: [metricsRegistry],
  }),
  /** A 7-B receipt issued (with its payment, or again for a payment whose receipt was voided). */
  receiptsIssued: new Counter({
    name: 'aporta_receipts_issued_total',
    help: 'Recibos 7-B emitidos, por tipo (payment: con su pago; reissue: reposición de uno anulado)',
    labelNames: ['kind'],
    registers: [metricsRegistry],
  }),
  /** An e-mail handed to the SMTP server. */
  emailsSent: new Counter({
    name: 'aporta_emails_sent_total',
    help: 'Correos entregados al servidor SMTP, por evento',
    labelNames: ['event'],
    registers: [metricsRegistry],
  }),
  /** An e-mail that failed for good (its attempts spent, or refused for good by the server). */
  emailsFailed: new Counter({
    name: 'aporta_emails_failed_total',
    help: 'Correos que fallaron definitivamente, por evento',
    labelNames: ['event'],
    registers: [metricsRegistry],
  }),
  /** A webhook delivery answered 2xx by its receiver (issue 30). */
  webhooksSent: new Counter({
    name: 'aporta_webhooks_sent_total',
    help: 'Envíos de webhooks respondidos con 2xx, por evento',
    labelNames: ['event'],
    registers: [metricsRegistry],
  }),
  /** A webhook delivery that failed for good (its attempts spent, or its endpoint deactivated). */
  webhooksFailed: new Counter({
    name: 'aporta_webhooks_failed_total',
    help: 'Envíos de webhooks que fallaron definitivamente, por evento',
    labelNames: ['event'],
    registers: [metricsRegistry],
  }),
} as const;

export type BusinessMetric = keyof typeof businessCounters;

// Every known series at 0 from the start: a first event is then an increase rate() sees, not a new series.
for (const source of ['window', 'bank_file']) businessCounters.paymentsRegistered.inc({ source }, 0);
for (const kind of ['payment', 'reissue']) businessCounters.receiptsIssued.inc({ kind }, 0);
for (const event of MAIL_EVENTS) {
  businessCounters.emailsSent.inc({ event }, 0);
  businessCounters.emailsFailed.inc({ event }, 0);
}
for (const event of WEBHOOK_DELIVERY_EVENTS) {
  businessCounters.webhooksSent.inc({ event }, 0);
  businessCounters.webhooksFailed.inc({ event }, 0);
}

/**
 * Counts one business event (`n` of them), after the transaction that did it committed. Its labels are the
 * counter's (`paymentsRegistered`: source; `receiptsIssued`: kind; `emailsSent`/`emailsFailed`: event). Never
 * throws: a metric must not fail what it counts.
 */
export function countMetric(name: BusinessMetric, labels: Record<string, string> = {}, n = 1): void {
  try {
    businessCounters[name].inc(labels, n);
  } catch {
    // An unknown label: the event happened all the same.
  }
}

const searchRefused = new Counter({
  name: 'aporta_search_refused_total',
  help: 'Búsquedas costosas rechazadas con 503, por motivo (queue_full: cola llena; wait_timeout: esperó demasiado)',
  labelNames: ['reason'],
  registers: [metricsRegistry],
});

for (const reason of ['queue_full', 'wait_timeout']) searchRefused.inc({ reason }, 0);

/** An expensive search refused by its gate (platform/load.ts). */
export function countRefusedSearch(reason: 'queue_full' | 'wait_timeout'): void {
  searchRefused.inc({ reason });
}

const jobsEnded = new Counter({
  name: 'aporta_jobs_ended_total',
  help: 'Ejecuciones de trabajos terminadas en este proceso, por tipo y resultado',
  labelNames: ['kind', 'outcome'],
  registers: [metricsRegistry],
});
const jobDuration = new Histogram({
  name: 'aporta_job_duration_seconds',
  help: 'Duración de cada ejecución de un trabajo, por tipo y resultado',
  labelNames: ['kind', 'outcome'],
  buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
  registers: [metricsRegistry],
});

export type JobOutcome = 'done' | 'failed' | 'cancelled' | 'retried' | 'requeued';

/** One run of a job ended (platform/jobs.ts): its kind, how, and how long it ran. */
export function countJobEnded(kind: string, outcome: JobOutcome, seconds: number): void {
  jobsEnded.inc({ kind, outcome });
  jobDuration.observe({ kind, outcome }, seconds);
}

// ─── HTTP ────────────────────────────────────────────────────────────────────────────────────────────

const httpLabels = ['method', 'route', 'status_code'] as const;
const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Duración de las peticiones HTTP, por método, ruta (su plantilla) y estado',
  labelNames: httpLabels,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});
const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'Peticiones HTTP atendidas, por método, ruta (su plantilla) y estado',
  labelNames: httpLabels,
  registers: [metricsRegistry],
});

/** What a request not matching any route is counted under: never its raw path (one series per URL). */
export const UNMATCHED_ROUTE = 'unmatched';

// ─── What this process's apps expose (one app per process; several in a test file) ──────────────────

interface Source {
  database: Database;
  gate: Gate;
  jobs: { at: number; rows: Promise<JobQueueRow[]> | null };
}
interface JobQueueRow {
  kind: string;
  state: 'QUEUED' | 'RUNNING';
  n: number;
  oldest: number;
}
const sources = new Set<Source>();

/** How long the job queue's figures are reused: a scrape every few seconds costs one query per interval. */
export const JOB_QUEUE_CACHE_MS = 5_000;

/**
 * The queued and running jobs by kind: a count and the age of the oldest (queued: since created; running:
 * since started). Each state through its partial index (jobs_claim_idx, jobs_lease_idx), so finished jobs,
 * however many, are never read.
 */
async function readJobQueue(db: Database['db']): Promise<JobQueueRow[]> {
  const rows = rowsOf<{ kind: string; state: 'QUEUED' | 'RUNNING'; n: number; oldest: number | string | null }>(
    await db.execute(sql`
      select kind, 'QUEUED' as state, count(*)::int as n,
             extract(epoch from now() - min(created_at))::float8 as oldest
      from jobs where state = 'QUEUED' group by kind
      union all
      select kind, 'RUNNING', count(*)::int, extract(epoch from now() - min(coalesce(started_at, created_at)))::float8
      from jobs where state = 'RUNNING' group by kind`),
  );
  return rows.map((r) => ({ kind: r.kind, state: r.state, n: Number(r.n), oldest: Math.max(0, Number(r.oldest ?? 0)) }));
}

function jobQueueOf(source: Source): Promise<JobQueueRow[]> {
  const now = Date.now();
  if (!source.jobs.rows || now - source.jobs.at >= JOB_QUEUE_CACHE_MS) {
    source.jobs.at = now;
    // A failed read is not kept: the next scrape asks again.
    source.jobs.rows = readJobQueue(source.database.priorityDb).catch(() => {
      source.jobs.rows = null;
      return [];
    });
  }
  return source.jobs.rows;
}

/** Kinds seen on an earlier scrape: shown at 0 once their queue empties, instead of vanishing. */
const seenJobSeries = new Set<string>();

new Gauge({
  name: 'aporta_jobs',
  help: 'Trabajos en cola (QUEUED) o en ejecución (RUNNING), por tipo',
  labelNames: ['kind', 'state'],
  // Every process reads the same table: taken once, not summed.
  aggregator: 'max',
  registers: [metricsRegistry],
  async collect() {
    await collectJobQueue();
    this.reset();
    for (const key of seenJobSeries) {
      const [kind, state] = key.split('\u0000');
      this.set({ kind, state }, jobFigures.get(key)?.n ?? 0);
    }
  },
});

new Gauge({
  name: 'aporta_jobs_oldest_age_seconds',
  help: 'Antigüedad del trabajo más antiguo en cola (desde que se creó) o en ejecución (desde que empezó), por tipo',
  labelNames: ['kind', 'state'],
  aggregator: 'max',
  registers: [metricsRegistry],
  async collect() {
    await collectJobQueue();
    this.reset();
    for (const key of seenJobSeries) {
      const [kind, state] = key.split('\u0000');
      this.set({ kind, state }, jobFigures.get(key)?.oldest ?? 0);
    }
  },
});

let jobFigures = new Map<string, { n: number; oldest: number }>();

/** The job queue of every source, summed (one source outside tests). Shared by both job gauges of a scrape. */
async function collectJobQueue(): Promise<void> {
  const figures = new Map<string, { n: number; oldest: number }>();
  for (const source of sources) {
    for (const r of await jobQueueOf(source)) {
      const key = `${r.kind}\u0000${r.state}`;
      const f = figures.get(key) ?? { n: 0, oldest: 0 };
      figures.set(key, { n: f.n + r.n, oldest: Math.max(f.oldest, r.oldest) });
      seenJobSeries.add(key);
    }
  }
  jobFigures = figures;
}

const poolGauge = (name: string, help: string, read: (p: PoolStats) => number) =>
  new Gauge({
    name,
    help,
    labelNames: ['pool'],
    registers: [metricsRegistry],
    collect() {
      this.reset();
      const sums = new Map<string, number>();
      for (const s of sources) for (const p of s.database.poolStats()) sums.set(p.pool, (sums.get(p.pool) ?? 0) + read(p));
      for (const [pool, v] of sums) this.set({ pool }, v);
    },
  });

new Gauge({
  name: 'aporta_db_pool_connections',
  help: 'Conexiones abiertas de cada pool de PostgreSQL (main: el general; priority: sesiones y salud), en uso u ociosas',
  labelNames: ['pool', 'state'],
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const s of sources)
      for (const p of s.database.poolStats()) {
        this.inc({ pool: p.pool, state: 'in_use' }, p.total - p.idle);
        this.inc({ pool: p.pool, state: 'idle' }, p.idle);
      }
  },
});
poolGauge('aporta_db_pool_max', 'Conexiones que admite cada pool de PostgreSQL', (p) => p.max);
poolGauge('aporta_db_pool_waiting', 'Peticiones que esperan ahora una conexión de cada pool', (p) => p.waiting);

const poolAcquireSeconds = new Histogram({
  name: 'aporta_db_pool_acquire_seconds',
  help: 'Tiempo hasta obtener una conexión de cada pool de PostgreSQL',
  labelNames: ['pool'],
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});
const poolWaits = new Counter({
  name: 'aporta_db_pool_waits_total',
  help: 'Conexiones pedidas con el pool lleno (tuvieron que esperar turno)',
  labelNames: ['pool'],
  registers: [metricsRegistry],
});
const poolFailures = new Counter({
  name: 'aporta_db_pool_acquire_failures_total',
  help: 'Conexiones pedidas que no se obtuvieron (tiempo agotado o base caída)',
  labelNames: ['pool'],
  registers: [metricsRegistry],
});

const gateGauge = (name: string, help: string, read: (g: Gate) => number) =>
  new Gauge({
    name,
    help,
    registers: [metricsRegistry],
    collect() {
      let v = 0;
      for (const s of sources) v += read(s.gate);
      this.set(v);
    },
  });
gateGauge('aporta_search_slots', 'Búsquedas costosas que pueden correr a la vez', (g) => g.slots);
gateGauge('aporta_search_slots_in_use', 'Búsquedas costosas corriendo ahora', (g) => g.active);
gateGauge('aporta_search_waiting', 'Búsquedas costosas esperando un turno', (g) => g.queued);

const buildInfo = new Gauge({
  name: 'aporta_build_info',
  help: 'Versión de Aporta y tipo de base de datos (siempre 1)',
  labelNames: ['version', 'database'],
  aggregator: 'first',
  registers: [metricsRegistry],
});

let processMetricsStarted = false;

/** Node's own metrics (CPU, memory, event loop, GC), once per process and only when metrics are on. */
function startProcessMetrics(): void {
  if (processMetricsStarted) return;
  processMetricsStarted = true;
  collectDefaultMetrics({ register: metricsRegistry });
  onPoolAcquire((a) => {
    poolAcquireSeconds.observe({ pool: a.pool }, a.seconds);
    if (a.waited) poolWaits.inc({ pool: a.pool });
    if (a.failed) poolFailures.inc({ pool: a.pool });
  });
  // A server process of several: answers its primary's requests for this registry (AggregatorRegistry).
  if (cluster.isWorker) {
    AggregatorRegistry.setRegistries(metricsRegistry);
    new AggregatorRegistry();
  }
}

// ─── Scraping: this process, or the cluster through its primary ──────────────────────────────────────

export const metricsEnabled = (config: Pick<Config, 'METRICS_PORT' | 'METRICS_TOKEN'>): boolean =>
  config.METRICS_PORT != null || !!config.METRICS_TOKEN;

export const METRICS_CONTENT_TYPE = metricsRegistry.contentType;

const ASK = 'aporta:metrics-ask';
const ANSWER = 'aporta:metrics-answer';
/** The primary waits 5 s for its processes (prom-client); a process waits a little longer for the primary. */
const ASK_TIMEOUT_MS = 7_000;

let asked = 0;
const waitingAnswers = new Map<
  number,
  { resolve: (text: string) => void; reject: (err: Error) => void; timer: NodeJS.Timeout }
>();
let answersHeard = false;

/** A server process of several: the cluster's metrics, aggregated by the primary (`serveClusterMetrics`). */
function askPrimary(): Promise<string> {
  if (!answersHeard) {
    answersHeard = true;
    process.on('message', (m: { type?: string; id?: number; text?: string; error?: string }) => {
      if (m?.type !== ANSWER || m.id == null) return;
      const waiting = waitingAnswers.get(m.id);
      if (!waiting) return;
      waitingAnswers.delete(m.id);
      clearTimeout(waiting.timer);
      if (m.error != null) waiting.reject(new Error(m.error));
      else waiting.resolve(m.text ?? '');
    });
  }
  asked += 1;
  const id = asked;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waitingAnswers.delete(id);
      reject(new Error('metrics: the primary did not answer'));
    }, ASK_TIMEOUT_MS);
    waitingAnswers.set(id, { resolve, reject, timer });
    process.send?.({ type: ASK, id });
  });
}

/** The metrics as Prometheus reads them: this process's, or the whole cluster's in a server process of several. */
export function scrapeMetrics(): Promise<string> {
  if (cluster.isWorker && process.send) return askPrimary();
  return metricsRegistry.metrics();
}

/**
 * The cluster's primary (`serve` with API_PROCESSES > 1): answers its processes' questions (a scrape on the main
 * port) with every process's metrics aggregated, and returns the same scrape for its metrics port.
 */
export function serveClusterMetrics(): () => Promise<string> {
  const aggregator = new AggregatorRegistry();
  const scrape = () => aggregator.clusterMetrics();
  cluster.on('message', (worker, m: { type?: string; id?: number }) => {
    if (m?.type !== ASK) return;
    scrape().then(
      (text) => worker.isConnected() && worker.send({ type: ANSWER, id: m.id, text }),
      (err: Error) => worker.isConnected() && worker.send({ type: ANSWER, id: m.id, error: err.message }),
    );
  });
  return scrape;
}

// ─── Token ───────────────────────────────────────────────────────────────────────────────────────────

const digest = (s: string) => createHash('sha256').update(s).digest();

/** The bearer token of `authorization` equals `token`, compared in constant time (digests of equal length). */
export function metricsTokenMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

// ─── The metrics port ────────────────────────────────────────────────────────────────────────────────

/**
 * `/metrics` on a port of its own (`METRICS_PORT` on `METRICS_HOST`): nothing else is answered there (404), and
 * with `METRICS_TOKEN` set the token is asked there too. Returns the port it listens on and how to close it.
 */
export async function startMetricsServer(opts: {
  host: string;
  port: number;
  token?: string;
  scrape?: () => Promise<string>;
}): Promise<{ port: number; close: () => Promise<void> }> {
  const scrape = opts.scrape ?? scrapeMetrics;
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const plain = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end(`${text}\n`);
    };
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) return plain(404, 'No encontrado');
    if (opts.token && !metricsTokenMatches(req.headers.authorization, opts.token)) {
      res.setHeader('www-authenticate', 'Bearer');
      return plain(401, 'No autorizado');
    }
    scrape().then(
      (text) => {
        res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => plain(503, 'Métricas no disponibles'),
    );
  });
  server.requestTimeout = 15_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : opts.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// ─── Readiness ───────────────────────────────────────────────────────────────────────────────────────

/** The newest migration this build has (its folder's journal), read once. */
let newestMigration: number | null = null;
function newestMigrationOfBuild(): number {
  if (newestMigration == null) {
    const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
      entries: { when: number }[];
    };
    newestMigration = Math.max(0, ...journal.entries.map((e) => e.when));
  }
  return newestMigration;
}

/** Every migration of this build is applied to `db` (drizzle's own record; false when it cannot be read). */
async function migrationsApplied(db: Database['db']): Promise<boolean> {
  try {
    const [row] = rowsOf<{ last: string | number | null }>(
      await db.execute(sql`select max(created_at) as last from drizzle.__drizzle_migrations`),
    );
    return Number(row?.last ?? 0) >= newestMigrationOfBuild();
  } catch {
    return false;
  }
}

const withTimeout = <T>(promise: Promise<T>, ms: number, otherwise: T): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((resolve) => {
      timer = setTimeout(() => resolve(otherwise), ms);
    }),
  ]).finally(() => clearTimeout(timer));
};

/** Whether this process should be sent requests: the database answers, migrations applied, not shutting down. */
export class Readiness {
  private migrated = false;
  shuttingDown = false;
  private readonly probe: HealthProbe;

  constructor(private readonly database: Database) {
    // The priority pool, never queued behind a burst on the embedded database (platform/health.ts).
    this.probe = new HealthProbe(database.priorityDb);
  }

  async ready(): Promise<boolean> {
    if (this.shuttingDown) return false;
    if (!(await this.probe.healthy())) return false;
    // Once applied, applied for the life of the process (a build never loses a migration).
    if (!this.migrated) this.migrated = await withTimeout(migrationsApplied(this.database.priorityDb), 2_000, false);
    return this.migrated && !this.shuttingDown;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Readiness of this process (`/readyz`); `shuttingDown` is set when the server starts closing. */
    readiness: Readiness;
  }
}

// ─── The routes and the HTTP measurements ────────────────────────────────────────────────────────────

const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

/**
 * `/livez`, `/readyz` and `/metrics` on the main port, and, when metrics are on, the HTTP measurements of every
 * request. Called early in buildApp, so its hook sees every route.
 */
export function registerMetrics(app: FastifyInstance): void {
  const { config, database } = app;
  const readiness = new Readiness(database);
  app.decorate('readiness', readiness);
  // Set before the server stops: a balancer asking /readyz sees 503 while the last requests end.
  app.addHook('preClose', async () => {
    readiness.shuttingDown = true;
  });

  const hidden = { schema: { hide: true } } as const;
  app.get('/livez', hidden, async (_request, reply) => {
    noStore(reply);
    return { status: 'ok' };
  });
  app.get('/readyz', hidden, async (_request, reply) => {
    noStore(reply);
    if (await readiness.ready()) return { status: 'ok' };
    return reply.status(503).send({ status: 'unavailable' });
  });

  const enabled = metricsEnabled(config);
  const token = config.METRICS_TOKEN;
  app.get('/metrics', hidden, async (request: FastifyRequest, reply) => {
    noStore(reply);
    // Off on this port (not configured, or served on METRICS_PORT only): as absent as any unknown path.
    if (!enabled || !token) {
      return reply
        .status(404)
        .send(errorBody('ROUTE_NOT_FOUND', msg('platform.routeNotFound', { method: request.method, path: '/metrics' })));
    }
    if (!metricsTokenMatches(request.headers.authorization, token)) {
      reply.header('www-authenticate', 'Bearer');
      throw new AppError('UNAUTHENTICATED');
    }
    const text = await scrapeMetrics().catch(() => null);
    if (text == null) throw new AppError('SERVICE_UNAVAILABLE');
    return reply.type(METRICS_CONTENT_TYPE).send(text);
  });

  if (!enabled) return;
  startProcessMetrics();
  buildInfo.set({ version: config.version, database: database.kind }, 1);
  const source: Source = { database, gate: app.searchGate, jobs: { at: 0, rows: null } };
  sources.add(source);
  app.addHook('onClose', async () => {
    sources.delete(source);
  });
  app.addHook('onResponse', (request, reply, done) => {
    // The route's template (`/api/planillas/:id`); a path no route matched is counted as one series.
    const labels = { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status_code: reply.statusCode };
    httpDuration.observe(labels, reply.elapsedTime / 1000);
    httpRequests.inc(labels);
    done();
  });
}
