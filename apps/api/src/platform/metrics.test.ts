import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { type Grant, guatemalaToday, periodOf, previousPeriod } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import { AggregatorRegistry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { attachUserToEntity, contributorFixtures, newCui } from '../modules/contributors/fixtures.ts';
import { clonePgDatabase, createTestApp, type TestApp, type TestUser } from '../test/harness.ts';
import { countMetric, metricsRegistry, metricsTokenMatches, Readiness, startMetricsServer } from './metrics.ts';

/**
 * Metrics, liveness and readiness (issue 30; platform/metrics.ts): `/metrics` refused without its token and
 * absent when not configured; the request histogram by route template; the job queue gauge; a business counter
 * after a planilla is submitted; the metrics port; readiness 503 when the database is gone, migrations are
 * missing or the process is shutting down.
 */
const token = `m-${randomBytes(24).toString('hex')}`;
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: token });
  admin = await t.createUser({ system: true });
});
afterAll(() => t.close());

const scrape = async () => {
  const res = await t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
};

/** The value of one series (`name{labels}`) in a scrape, or null when absent. */
const seriesValue = (text: string, series: string): number | null => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line == null ? null : Number(line.slice(series.length + 1));
};

describe('/metrics behind its token', () => {
  it('is refused without the token or with a wrong one (401), in constant time; served with it', async () => {
    const none = await t.request({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expect(none.json().error).toMatchObject({ code: 'UNAUTHENTICATED', key: 'errors.UNAUTHENTICATED' });
    expect(none.body).not.toContain('http_request');
    for (const authorization of [`Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, token, `Basic ${token}`, 'Bearer ']) {
      const res = await t.request({ method: 'GET', url: '/metrics', headers: { authorization } });
      expect(res.statusCode, authorization).toBe(401);
    }
    // A user's session token is not the metrics token.
    expect((await t.request({ method: 'GET', url: '/metrics', token: admin.token })).statusCode).toBe(401);

    const ok = await t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.headers['cache-control']).toBe('no-store');
    // Node's own metrics, the build, the search gate.
    expect(ok.body).toContain('process_cpu_user_seconds_total');
    expect(ok.body).toContain('nodejs_heap_size_used_bytes');
    expect(ok.body).toMatch(/aporta_build_info\{version="[^"]+",database="(pglite|postgresql)"\} 1/);
    expect(seriesValue(ok.body, 'aporta_search_slots')).toBe(t.config.SEARCH_CONCURRENCY);
    expect(seriesValue(ok.body, 'aporta_search_slots_in_use')).toBe(0);
    expect(seriesValue(ok.body, 'aporta_search_waiting')).toBe(0);
    // Business and refusal series exist from the start (at 0 until the first event).
    expect(seriesValue(ok.body, 'aporta_emails_sent_total{event="planilla.approved"}')).toBe(0);
    expect(seriesValue(ok.body, 'aporta_emails_failed_total{event="auth.passwordReset"}')).toBe(0);
    expect(seriesValue(ok.body, 'aporta_payments_registered_total{source="bank_file"}')).toBe(0);
    expect(seriesValue(ok.body, 'aporta_search_refused_total{reason="queue_full"}')).toBe(0);
    expect(ok.body).toContain('# TYPE aporta_planillas_submitted_total counter');
    if (t.database.kind === 'postgresql') {
      // The pools: open connections in use or idle, their size, checkouts measured.
      expect(seriesValue(ok.body, 'aporta_db_pool_max{pool="main"}')).toBe(4);
      expect(seriesValue(ok.body, 'aporta_db_pool_max{pool="priority"}')).toBe(2);
      expect(seriesValue(ok.body, 'aporta_db_pool_connections{pool="main",state="idle"}')).toBeGreaterThanOrEqual(0);
      expect(seriesValue(ok.body, 'aporta_db_pool_waiting{pool="main"}')).toBe(0);
      expect(seriesValue(ok.body, 'aporta_db_pool_acquire_seconds_count{pool="priority"}')).toBeGreaterThan(0);
    } else {
      // The embedded database has no pool: no pool series at all.
      expect(ok.body).not.toMatch(/^aporta_db_pool_connections\{/m);
    }
  });

  it('compares tokens by their digests: only the exact bearer token matches', () => {
    expect(metricsTokenMatches(`Bearer ${token}`, token)).toBe(true);
    expect(metricsTokenMatches(`bearer  ${token} `, token)).toBe(true);
    expect(metricsTokenMatches(undefined, token)).toBe(false);
    expect(metricsTokenMatches(`Bearer ${token} extra`, token)).toBe(false);
    expect(metricsTokenMatches(`Bearer ${token.toUpperCase()}`, token)).toBe(false);
  });

  it('measures requests by route template and status, never by raw URL', async () => {
    const fx = await contributorFixtures(t.database.db);
    const created = await t.request({
      method: 'POST',
      url: '/api/planillas',
      token: admin.token,
      payload: { entityId: fx.entityA.id, period: previousPeriod(periodOf(guatemalaToday())) },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    const before = await scrape();
    const series = 'http_request_duration_seconds_count{method="GET",route="/api/planillas/:id",status_code="200"}';
    const had = seriesValue(before, series) ?? 0;
    for (let i = 0; i < 3; i++)
      expect((await t.request({ method: 'GET', url: `/api/planillas/${id}`, token: admin.token })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/planillas/999999999', token: admin.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/no-existe/${id}?x=1` })).statusCode).toBe(404);

    const text = await scrape();
    expect(seriesValue(text, series)).toBe(had + 3);
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/planillas\/:id",status_code="200"\} \d+/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/api\/planillas\/:id",status_code="200"\} \d+/,
    );
    expect(
      seriesValue(text, 'http_request_duration_seconds_count{method="GET",route="/api/planillas/:id",status_code="404"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(seriesValue(text, 'http_requests_total{method="GET",route="/api/planillas/:id",status_code="200"}')).toBe(had + 3);
    // A path no route matched is one series; no id, query or raw path in any label.
    expect(text).toMatch(/route="unmatched",status_code="404"/);
    expect(text).not.toContain(`/api/planillas/${id}`);
    expect(text).not.toContain('/api/planillas/999999999');
    expect(text).not.toContain('no-existe');
  });

  it('shows the job queue by kind and state (cached a few seconds), and counts a submitted planilla after its commit', async () => {
    const db = t.database.db;
    const fx = await contributorFixtures(db);
    const grants: Grant[] = (['READ', 'CREATE', 'UPDATE'] as const).map((action) => ({
      resource: 'planillas',
      action,
      scope: 'ENTITY',
    }));
    const operator = await t.createUser({ grants });
    await attachUserToEntity(db, operator.id, fx.entityA.id);
    const draft = await t.request({
      method: 'POST',
      url: '/api/planillas',
      token: operator.token,
      payload: { entityId: fx.entityA.id, period: previousPeriod(previousPeriod(periodOf(guatemalaToday()))) },
    });
    expect(draft.statusCode, draft.body).toBe(201);
    const id = draft.json().id as number;
    for (let i = 0; i < 2; i++) {
      const line = await t.request({
        method: 'POST',
        url: `/api/planillas/${id}/lines`,
        token: operator.token,
        payload: { cui: newCui(), fullName: 'Ana López', budgetLine: '011', salary: '3000.00' },
      });
      expect(line.statusCode, line.body).toBe(201);
    }

    const queued = 'aporta_jobs{kind="planillas.submit",state="QUEUED"}';
    const oldest = 'aporta_jobs_oldest_age_seconds{kind="planillas.submit",state="QUEUED"}';
    const submittedBefore = seriesValue(await scrape(), 'aporta_planillas_submitted_total') ?? 0;
    const cached = seriesValue(await scrape(), queued) ?? 0;

    // The job waits: the worker of this test app is not running yet.
    const submit = await t.request({
      method: 'POST',
      url: `/api/planillas/${id}/transitions`,
      token: operator.token,
      payload: { to: 'ENVIANDO' },
    });
    expect(submit.statusCode, submit.body).toBe(200);
    expect(submit.json().state).toBe('ENVIANDO');
    // Within the cache's few seconds the figure is the one read before; once they pass, the table is read again.
    expect(seriesValue(await scrape(), queued) ?? 0).toBe(cached);
    const realNow = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(realNow + 6_000);
    let text: string;
    try {
      text = await scrape();
    } finally {
      clock.mockRestore();
    }
    expect(seriesValue(text, queued)).toBe(cached + 1);
    expect(seriesValue(text, oldest)).toBeGreaterThanOrEqual(0);
    expect(text).toContain('# TYPE aporta_jobs gauge');
    // Nothing counted as submitted while it waits.
    expect(seriesValue(text, 'aporta_planillas_submitted_total')).toBe(submittedBefore);

    // The worker sends it: ENVIADA, counted once, the job's run counted; the queue empties (its series shows 0).
    await t.app.jobs.start();
    const deadline = Date.now() + 60_000;
    let state = 'ENVIANDO';
    while (state === 'ENVIANDO' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      state = (await t.request({ method: 'GET', url: `/api/planillas/${id}`, token: operator.token })).json().state;
    }
    expect(state).toBe('ENVIADA');
    await t.app.jobs.stop();
    const later = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 12_000);
    try {
      text = await scrape();
    } finally {
      later.mockRestore();
    }
    expect(seriesValue(text, 'aporta_planillas_submitted_total')).toBe(submittedBefore + 1);
    expect(seriesValue(text, queued)).toBe(0);
    expect(seriesValue(text, 'aporta_jobs_ended_total{kind="planillas.submit",outcome="done"}')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/aporta_job_duration_seconds_count\{kind="planillas.submit",outcome="done"\} \d+/);
  });

  it('countMetric never throws, whatever the labels', async () => {
    const before = seriesValue(await scrape(), 'aporta_receipts_issued_total{kind="reissue"}') ?? 0;
    countMetric('receiptsIssued', { kind: 'reissue' });
    expect(() => countMetric('receiptsIssued', { nope: 'x' })).not.toThrow();
    expect(seriesValue(await scrape(), 'aporta_receipts_issued_total{kind="reissue"}')).toBe(before + 1);
  });
});

describe('processes of a cluster, aggregated', () => {
  it('sums counters and histograms; the job queue, read by every process from one table, is taken once', async () => {
    const one = await metricsRegistry.getMetricsAsJSON();
    const text = await AggregatorRegistry.aggregate([one, one]).metrics();
    const single = await metricsRegistry.metrics();
    const series = 'http_requests_total{method="GET",route="/api/planillas/:id",status_code="200"}';
    expect(seriesValue(text, series)).toBe(2 * (seriesValue(single, series) ?? 0));
    for (const line of single.split('\n').filter((l) => l.startsWith('aporta_jobs{'))) {
      const [name, value] = line.split(' ');
      expect(seriesValue(text, name)).toBe(Number(value));
    }
    expect(text).toMatch(/aporta_build_info\{[^}]+\} 1\n/);
  });
});

describe('/metrics off, or on a port of its own', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await createTestApp();
  });
  afterAll(() => off.close());

  it('without METRICS_TOKEN nor METRICS_PORT there is no /metrics (404) — with or without a token', async () => {
    for (const headers of [{}, { authorization: `Bearer ${token}` }]) {
      const res = await off.request({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toMatchObject({ code: 'ROUTE_NOT_FOUND', key: 'platform.routeNotFound' });
    }
    expect((await off.request({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
  });

  it('the metrics port answers only /metrics, with the token when one is set', async () => {
    const open = await startMetricsServer({ host: '127.0.0.1', port: 0 });
    const guarded = await startMetricsServer({ host: '127.0.0.1', port: 0, token });
    try {
      const res = await fetch(`http://127.0.0.1:${open.port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(await res.text()).toContain('# TYPE http_request_duration_seconds histogram');
      expect((await fetch(`http://127.0.0.1:${open.port}/`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${open.port}/api/health`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${open.port}/metrics`, { method: 'POST' })).status).toBe(404);

      expect((await fetch(`http://127.0.0.1:${guarded.port}/metrics`)).status).toBe(401);
      const withToken = await fetch(`http://127.0.0.1:${guarded.port}/metrics`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(withToken.status).toBe(200);
      expect(await withToken.text()).toContain('aporta_jobs');
    } finally {
      await open.close();
      await guarded.close();
    }
  });
});

describe('liveness and readiness', () => {
  it('answer 200 with one word, public, outside the API and its document', async () => {
    for (const url of ['/livez', '/readyz']) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => /livez|readyz|metrics/.test(p))).toEqual([]);
  });

  it('readiness is 503 while shutting down, when migrations are missing, and when the database is gone; liveness stays 200', async () => {
    const x = await createTestApp();
    try {
      expect((await x.request({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      x.app.readiness.shuttingDown = true;
      const closing = await x.request({ method: 'GET', url: '/readyz' });
      expect(closing.statusCode).toBe(503);
      expect(closing.json()).toEqual({ status: 'unavailable' });
      x.app.readiness.shuttingDown = false;
      expect((await x.request({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);

      // A process started on a database that lacks this build's newest migration is not ready (this one checked
      // its own at its first answer, and a build never loses a migration).
      await x.database.db.execute(
        sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
      );
      expect(await new Readiness(x.database).ready()).toBe(false);
      expect((await x.request({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);

      await x.database.close();
      const gone = await x.request({ method: 'GET', url: '/readyz' });
      expect(gone.statusCode).toBe(503);
      expect(gone.json()).toEqual({ status: 'unavailable' });
      expect((await x.request({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    } finally {
      await x.close().catch(() => {});
    }
  }, 120_000);
});

/**
 * `serve` with API_PROCESSES=2 (PostgreSQL): the primary sums both processes' metrics — on the metrics port it
 * opened, and for a process asked on the main port with the token (passed to the primary). 20 requests on fresh
 * connections are shared between both processes (round robin); the sum says 20 however they were shared.
 */
describe.runIf(!!process.env.TEST_DATABASE_URL)('metrics of API_PROCESSES=2, aggregated by the primary', () => {
  const api = fileURLToPath(new URL('../..', import.meta.url));
  let primary: ChildProcess;
  let dropDatabase: (() => Promise<void>) | undefined;
  let out = '';
  let base = '';
  let metricsUrl = '';

  beforeAll(async () => {
    const cloned = await clonePgDatabase();
    dropDatabase = cloned.drop;
    primary = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
      cwd: api,
      // Its own process group: the primary and its server processes are ended together.
      detached: true,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: cloned.url,
        API_PROCESSES: '2',
        PORT: '0',
        HOST: '127.0.0.1',
        METRICS_PORT: '0',
        METRICS_TOKEN: token,
        DEMO_DATA: 'false',
        JOBS_CONCURRENCY: '0',
        LOG_LEVEL: 'silent',
        ADMIN_EMAIL: 'admin@metricas.local',
        ADMIN_PASSWORD: 'Tortuga-Verde-2026',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    primary.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const end = Date.now() + 110_000;
    while (!/Listo en (http:\/\/\S+)/.test(out) && primary.exitCode === null && Date.now() < end)
      await new Promise((r) => setTimeout(r, 200));
    base = /Listo en (http:\/\/\S+)/.exec(out)?.[1] ?? '';
    metricsUrl = /Métricas en (http:\/\/\S+)/.exec(out)?.[1] ?? '';
  }, 120_000);

  afterAll(async () => {
    if (primary?.pid && primary.exitCode === null) {
      try {
        process.kill(-primary.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await dropDatabase?.().catch(() => {});
  }, 30_000);

  it('sums both processes on the metrics port and on the main port', async () => {
    expect(base, out).not.toBe('');
    expect(metricsUrl, out).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${base}/livez`, { headers: { connection: 'close' } }).then((r) => r.status)),
    );
    expect(statuses).toEqual(Array(20).fill(200));
    const auth = { authorization: `Bearer ${token}` };
    expect((await fetch(metricsUrl)).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { connection: 'close' } })).status).toBe(401);
    const series = 'http_requests_total{method="GET",route="/livez",status_code="200"}';
    for (const url of [metricsUrl, `${base}/metrics`, `${base}/metrics`]) {
      const res = await fetch(url, { headers: { ...auth, connection: 'close' } });
      expect(res.status, url).toBe(200);
      const text = await res.text();
      expect(seriesValue(text, series), url).toBe(20);
      // Two processes' pools of 10 (DB_POOL_SIZE) and 2; the build once.
      expect(seriesValue(text, 'aporta_db_pool_max{pool="main"}'), url).toBe(20);
      expect(seriesValue(text, 'aporta_db_pool_max{pool="priority"}'), url).toBe(4);
      expect(text.match(/^aporta_build_info\{/gm), url).toHaveLength(1);
    }
    expect((await fetch(`${base}/readyz`, { headers: { connection: 'close' } })).status).toBe(200);

    const exited = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)));
    primary.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);
});
