import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../test/harness.ts';
import { routeTable } from '../test/openapi.ts';
import { FAIR_SHARE_RETRY_AFTER_SECONDS } from './load.ts';

/**
 * A fair share of the machine per user (issue 25): every route that generates a file (a PDF, an xlsx/csv
 * export, a report) runs under the per-user limit of concurrent requests (`config.heavy`, platform/load.ts).
 * The class is read from the route table: every GET whose answer is not JSON (no 2xx schema) either declares
 * `heavy` or is one of the routes below, which read a stored file or hold a stream (and say why).
 */
const MAX = 2;

/** GET routes that answer something other than JSON and generate nothing: why each is not `heavy`. */
/** Reads that answer JSON but cost what a generated file does: each takes one of its user's shares too. */
const heavyReads: Record<string, string> = {
  '/api/audit/verify': 'walks and hashes the whole audit log (seals what waits first)',
};

const notGenerated: Record<string, string> = {
  '/api/library/documents/:id/content': 'a stored document, read from the file store',
  '/api/signing/requests/:id/pdf': 'the stored PDF of a signing request',
  '/api/jobs/:id/file': 'the stored result of a job (the job was under the job quota)',
  '/api/survival-checks/:id/attachment': 'a stored notarised act',
  '/api/chat/messages/:id/attachment': 'a stored chat attachment',
  '/api/sig/items/:id/documents/:documentId': 'a stored document of a request',
  '/api/pki/crl': 'public: the revocation list, signed when it changes',
  '/api/pki/ca.pem': 'public: the authority certificates',
  '/api/chat/stream': 'a live stream: under STREAMS_PER_USER (modules/chat)',
};

let t: TestApp;
let ana: TestUser;
let beto: TestUser;
beforeAll(async () => {
  t = await createTestApp({ HEAVY_REQUESTS_PER_USER: String(MAX) });
  ana = await t.createUser({ system: true });
  beto = await t.createUser({ system: true });
});
afterAll(() => t.close());

type Spec = { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };

/** `GET /api/x/{id}` of the OpenAPI document → `/api/x/:id` of the route table. */
const routeUrl = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '1');

function fileRoutes(): string[] {
  const spec = routeTable<Spec>(t.app);
  const out: string[] = [];
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const json2xx = Object.keys(op.responses ?? {}).some((c) => c.startsWith('2'));
      if (method === 'get' && !json2xx) out.push(routeUrl(path));
    }
  }
  return out;
}

describe('per-user limit on requests that generate a file', () => {
  it('is declared by every route that answers a generated file, and only by such routes', () => {
    const table = t.app.routeTable;
    const heavy = table.filter((r) => r.heavy);
    const files = fileRoutes();
    const undeclared = files.filter((url) => !notGenerated[url] && !heavy.some((r) => r.url === url));
    expect(undeclared).toEqual([]);
    // Nothing is excused that no longer exists (a stale list hides nothing).
    expect(Object.keys(notGenerated).filter((url) => !files.includes(url))).toEqual([]);
    // A heavy route is a download read by a signed-in user (the share is theirs), or a read as costly as one.
    expect(
      heavy.filter((r) => r.method !== 'GET' || r.access === 'public' || !(files.includes(r.url) || heavyReads[r.url])),
    ).toEqual([]);
    // PDFs, exports of every list, the reports: the class is large; a drop means the flag was lost somewhere.
    expect(heavy.length).toBeGreaterThanOrEqual(60);
    console.info(
      `[fair share] ${heavy.length} routes generate a file and are limited; ${files.length - heavy.length} file routes read a stored file or stream.`,
    );
  });

  it('answers 429 with Retry-After and a Spanish message on every heavy route once the user holds the limit', async () => {
    const held = Array.from({ length: MAX }, () => t.app.heavyLimit.tryAcquire(ana.id));
    try {
      expect(held.every(Boolean)).toBe(true);
      for (const r of t.app.routeTable.filter((x) => x.heavy)) {
        const res = await t.request({ method: 'GET', url: concrete(r.url), token: ana.token });
        expect(res.statusCode, r.url).toBe(429);
        expect(res.headers['retry-after'], r.url).toBe(String(FAIR_SHARE_RETRY_AFTER_SECONDS));
        expect(res.json().error, r.url).toMatchObject({
          code: 'RATE_LIMITED',
          message: expect.stringMatching(/^Tiene 2 descargas o reportes/),
        });
      }
      // Another user's share is untouched.
      expect((await t.request({ method: 'GET', url: '/api/roles/export?format=csv', token: beto.token })).statusCode).toBe(200);
    } finally {
      for (const release of held) release?.();
    }
    // Given back: the same user downloads again, and the slot of that answer is returned when it ends.
    expect((await t.request({ method: 'GET', url: '/api/roles/export?format=csv', token: ana.token })).statusCode).toBe(200);
    expect(t.app.heavyLimit.held(ana.id)).toBe(0);
  });

  it('lets at most the limit of a burst of PDFs run at once, refuses the rest at once, and health keeps answering', async () => {
    const url = '/api/contributor-reports/general/export?format=pdf';
    let most = 0;
    const watch = setInterval(() => {
      most = Math.max(most, t.app.heavyLimit.held(ana.id));
    }, 1);
    const burst = Array.from({ length: 16 }, () => t.request({ method: 'GET', url, token: ana.token }));
    const started = Date.now();
    const health = await t.request({ method: 'GET', url: '/api/health' });
    const healthMs = Date.now() - started;
    const answers = await Promise.all(burst);
    clearInterval(watch);
    expect(health.statusCode).toBe(200);
    const statuses = answers.map((a) => a.statusCode);
    // How many are refused depends on how fast a PDF is made: one that ends frees its slot for a later request
    // of the burst (PostgreSQL made 5 of 16 where PGlite made 2). What may never happen is more than MAX at once.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(MAX);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    expect(answers.find((a) => a.statusCode === 200)?.headers['content-type']).toBe('application/pdf');
    expect(most).toBeLessThanOrEqual(MAX);
    expect(t.app.heavyLimit.held(ana.id)).toBe(0);
    // Health answered (above) while the burst ran; how fast is a measurement, printed, not a threshold.
    console.info(
      `[fair share] 16 PDFs at once: ${statuses.filter((s) => s === 200).length} generated, ${statuses.filter((s) => s === 429).length} refused; health answered in ${healthMs} ms.`,
    );
  });
});
