import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalCases } from '../db/schema/index.ts';
import { contributorFixtures } from '../modules/contributors/fixtures.ts';
import { seedRoles } from '../seed/accounts.ts';
import { createTestApp, type TestApp, type TestUser } from '../test/harness.ts';
import { routeTable } from '../test/openapi.ts';
import { registerErrorHandling } from './errors.ts';
import { sendExport } from './export.ts';

/**
 * Every read ends (issue 25): walks the OpenAPI document for every export and report download (a GET whose
 * path ends in /export, or whose query takes a `format`) and sends each one the boundary parameters of a
 * list — cursors `before=0`, `after=0`, `after=-1`, huge ids, an empty search, inverted ranges — as a
 * super administrator and as the read-only Consulta role. Each must answer, and a file must come whole,
 * within a few seconds: before the fix `GET /api/legal/cases/export?before=0` paged for as long as the
 * client stayed. And the export itself stops at its row cap, and when its client goes away.
 */
let t: TestApp;
let admin: TestUser;
let consulta: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  const role = seedRoles.find((r) => r.name === 'Consulta');
  if (!role) throw new Error('the Consulta role is not seeded');
  consulta = await t.createUser({ grants: role.grants });
  const fx = await contributorFixtures(t.database.db);
  // Two legal cases (no items), so the legal export has rows to page past.
  await t.database.db.insert(legalCases).values([
    { number: 'EXP-2026-900001', entityId: fx.entityA.id, openedOn: '2026-01-05', amountAtOpening: 10_000n },
    { number: 'EXP-2026-900002', entityId: fx.entityB.id, openedOn: '2026-01-06', amountAtOpening: 20_000n },
  ]);
}, 60_000);
afterAll(() => t.close());

interface Param {
  in: string;
  name: string;
  schema?: { enum?: string[] };
}
type OpenApi = { paths: Record<string, Record<string, { parameters?: Param[] }>> };

/** The export and report routes, with their query parameters. */
async function exportRoutes(): Promise<{ path: string; query: Param[] }[]> {
  const doc = routeTable<OpenApi>(t.app);
  return Object.entries(doc.paths)
    .filter(([, ops]) => ops.get)
    .map(([path, ops]) => ({ path, query: (ops.get.parameters ?? []).filter((p) => p.in === 'query') }))
    .filter(({ path, query }) => path.endsWith('/export') || query.some((p) => p.name === 'format'));
}

/** Pairs of range parameters a route may take, sent inverted (the start after the end). */
const ranges: [string, string, string, string][] = [
  ['from', 'to', '2026-12-31', '2026-01-01'],
  ['fromPeriod', 'toPeriod', '2026-12', '2026-01'],
  ['periodFrom', 'periodTo', '2026-12', '2026-01'],
  ['dateFrom', 'dateTo', '2026-12-31', '2026-01-01'],
];

/** The boundary queries for a route: the list cursors and filters it declares, or would ignore. */
function boundaryQueries(query: Param[]): Record<string, string>[] {
  const names = new Set(query.map((p) => p.name));
  const out: Record<string, string>[] = [
    {},
    { before: '0' },
    { after: '0' },
    { after: '-1' },
    { after: '999999999999' },
    { q: '' },
  ];
  for (const name of names) if (/Id$/.test(name)) out.push({ [name]: '2147483647' });
  for (const [from, to, late, early] of ranges) if (names.has(from) && names.has(to)) out.push({ [from]: late, [to]: early });
  return out;
}

const concrete = (path: string) => path.replace(/\{[^}]+\}/g, (m) => (/period/i.test(m) ? '2026-01' : '1'));

/** The answer, or a failure naming the request when it does not come whole within `ms`. */
async function answered(url: string, token: string, ms = 15_000) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${url}: no complete answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([t.request({ method: 'GET', url, token }), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('every export and report download ends', () => {
  it('answers every boundary query on every export route, whole and in time', async () => {
    const routes = await exportRoutes();
    expect(routes.length).toBeGreaterThan(25);
    expect(routes.map((r) => r.path)).toContain('/api/legal/cases/export');
    let sent = 0;
    const statuses = new Map<number, number>();
    for (const { path, query } of routes) {
      for (const params of boundaryQueries(query)) {
        const url = `${concrete(path)}?${new URLSearchParams(params)}`;
        for (const user of params.before === '0' ? [admin, consulta] : [admin]) {
          const res = await answered(url, user.token);
          sent += 1;
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
          if (res.statusCode >= 400) expect(res.json().error.code, url).toBeTruthy();
        }
      }
    }
    console.info(
      `[export bounds] ${routes.length} export and report routes, ${sent} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  }, 600_000);

  it('ignores a page cursor in an export: the file is the whole filtered list', async () => {
    for (const params of ['', 'before=0', 'after=999999999999', 'after=0&page=7&pageSize=1']) {
      const res = await answered(`/api/legal/cases/export?format=csv&${params}`, consulta.token);
      expect(res.statusCode, params).toBe(200);
      // The header and both cases.
      expect(
        res.body
          .replace(/^\uFEFF/, '')
          .trim()
          .split(/\r?\n/),
        params,
      ).toHaveLength(3);
    }
  });
});

describe('an export stops by itself', () => {
  /** A bare server whose export reads from a source that never runs dry. */
  async function endlessServer(format: 'csv' | 'xlsx', maxRows?: number) {
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    const state = { read: 0, stopped: false };
    app.get('/x', async (request, reply) => {
      request.log.error = () => {};
      return sendExport(reply, {
        format,
        filename: 'sin-fin',
        columns: [{ header: 'N', value: (r: { n: number }) => r.n }],
        maxRows,
        batches: (async function* () {
          try {
            for (let i = 0; ; i++) {
              state.read += 1;
              yield Array.from({ length: 100 }, (_, k) => ({ n: i * 100 + k }));
            }
          } finally {
            state.stopped = true;
          }
        })(),
      });
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    return { app, port: (app.server.address() as AddressInfo).port, state };
  }

  const fetchAll = (port: number) =>
    new Promise<{ status: number; complete: boolean }>((resolve) => {
      get({ host: '127.0.0.1', port, path: '/x' }, (res) => {
        res.resume();
        const done = (complete: boolean) => resolve({ status: res.statusCode ?? 0, complete });
        res.on('end', () => done(res.complete));
        res.on('error', () => done(false));
        res.on('aborted', () => done(false));
      }).on('error', () => resolve({ status: 0, complete: false }));
    });

  for (const format of ['csv', 'xlsx'] as const) {
    it(`fails a ${format} export past its row cap: the download is aborted, never a short file that looks whole`, async () => {
      const { app, port, state } = await endlessServer(format, 2_500);
      const res = await fetchAll(port);
      await app.close();
      expect(res).toEqual({ status: 200, complete: false });
      expect(state.stopped).toBe(true);
      expect(state.read).toBeLessThanOrEqual(27);
    });
  }

  it('stops reading an endless source when the client goes away', async () => {
    const { app, port, state } = await endlessServer('csv');
    await new Promise<void>((resolve) => {
      const req = get({ host: '127.0.0.1', port, path: '/x' }, (r) => {
        let bytes = 0;
        r.on('data', (c: Buffer) => {
          bytes += c.length;
          if (bytes > 100_000) {
            req.destroy();
            resolve();
          }
        });
      });
      req.on('error', () => {});
    });
    const deadline = Date.now() + 10_000;
    while (!state.stopped && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await app.close();
    expect(state.stopped).toBe(true);
  });
});
