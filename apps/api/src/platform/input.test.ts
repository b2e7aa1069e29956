import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../test/harness.ts';
import { routeTable } from '../test/openapi.ts';

/**
 * Input at the platform, walked over the route table so a new route is covered without touching this
 * file: ids, control characters, search text, dates and exports.
 */
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
});
afterAll(() => t.close());

const routes = () => t.app.routeTable.filter((r) => !r.url.startsWith('/api/docs') && r.access !== 'public');
// Upload batches are addressed by a uuid, not an int4 id.
const withId = () =>
  routes().filter((r) => r.url.includes('/:id') && !r.url.includes('contributor-imports') && !r.url.includes('planilla-uploads'));
const concrete = (url: string, id: string) =>
  url
    .replace(':id', id)
    .replace(/:[A-Za-z]+/g, 'x')
    .replace(/\*/g, 'x');

interface OpenApi {
  paths: Record<string, Record<string, { parameters?: { in: string; name: string; schema?: { pattern?: string } }[] }>>;
}

describe('ids', () => {
  it('has routes with an id to walk', () => {
    expect(withId().length).toBeGreaterThan(15);
  });

  for (const bad of ['0x1', '1e0', '%201', '+1', '01', '0', '-1', '1.0', '2147483648', '99999999999999999999']) {
    it(`refuses the id "${decodeURIComponent(bad)}" with 400 naming ruta.id on every route`, async () => {
      for (const r of withId()) {
        const res = await t.request({ method: r.method as 'GET', url: concrete(r.url, bad), token: admin.token, payload: {} });
        expect(res.statusCode, `${r.method} ${r.url}`).toBe(400);
        expect(res.json().error.details, `${r.method} ${r.url}`).toContainEqual(expect.objectContaining({ path: 'ruta.id' }));
      }
    });
  }

  it('answers a path value over the length limit or a broken percent-encoding with the error shape', async () => {
    const long = await t.request({ method: 'GET', url: `/api/users/${'9'.repeat(500)}`, token: admin.token });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.details).toEqual([expect.objectContaining({ path: 'ruta' })]);
    const broken = await t.request({ method: 'GET', url: '/api/users/%E0%A4%A', token: admin.token });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.code).toBe('BAD_REQUEST');
  });

  it('accepts the largest int4 id as an id (not a 400 on ruta.id, never a 500)', async () => {
    for (const r of withId()) {
      const res = await t.request({
        method: r.method as 'GET',
        url: concrete(r.url, '2147483647'),
        token: admin.token,
        payload: {},
      });
      expect(res.statusCode, `${r.method} ${r.url}`).toBeLessThan(500);
      const paths = (res.json().error?.details ?? []).map((d: { path: string }) => d.path);
      expect(paths, `${r.method} ${r.url}`).not.toContain('ruta.id');
    }
  });

  it('refuses out-of-range ids in query filters and bodies, naming the field', async () => {
    const list = await t.request({ method: 'GET', url: '/api/contributors?entityId=2147483648', token: admin.token });
    expect(list.statusCode).toBe(400);
    expect(list.json().error.details).toContainEqual(expect.objectContaining({ path: 'consulta.entityId' }));
    const hex = await t.request({ method: 'GET', url: '/api/audit?actorId=0x1', token: admin.token });
    expect(hex.statusCode).toBe(400);
    expect(hex.json().error.details).toContainEqual(expect.objectContaining({ path: 'consulta.actorId' }));
    const body = await t.request({
      method: 'POST',
      url: '/api/notifications/read',
      token: admin.token,
      payload: { ids: [2147483648] },
    });
    expect(body.statusCode).toBe(400);
    expect(body.json().error.details[0].path).toMatch(/^ids/);
  });
});

describe('control characters', () => {
  it('refuses a NUL or control character in the query of every route with 400 naming the field', {
    timeout: 120_000,
  }, async () => {
    for (const r of routes()) {
      for (const ch of ['%00', '%1B', '%7F']) {
        const res = await t.request({ method: r.method as 'GET', url: `${concrete(r.url, '1')}?q=a${ch}b`, token: admin.token });
        expect(res.statusCode, `${r.method} ${r.url} ${ch}`).toBe(400);
        expect(res.json().error.details, `${r.method} ${r.url}`).toContainEqual(expect.objectContaining({ path: 'consulta.q' }));
      }
    }
  });

  it('refuses a control character anywhere in a JSON body, naming the field; tab and new lines pass', async () => {
    const doc = routeTable(t.app) as { paths: Record<string, Record<string, { requestBody?: { content?: object } }>> };
    const jsonBodies = routes().filter((r) => {
      const op = doc.paths[r.url.replace(/:([A-Za-z]+)/g, '{$1}')]?.[r.method.toLowerCase()];
      return op?.requestBody?.content && 'application/json' in op.requestBody.content;
    });
    expect(jsonBodies.length).toBeGreaterThan(10);
    for (const r of jsonBodies) {
      const res = await t.request({
        method: r.method as 'POST',
        url: concrete(r.url, '1'),
        token: admin.token,
        payload: { nombre: 'ok', anidado: { lista: ['x', 'y\u0000z'] } },
      });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(400);
      expect(res.json().error.details, `${r.method} ${r.url}`).toContainEqual(
        expect.objectContaining({ path: 'anidado.lista.1' }),
      );
    }
    const multiLine = await t.request({
      method: 'PUT',
      url: '/api/profile',
      token: admin.token,
      payload: { firstName: 'Ana\tMaría', lastName: 'López\r\n' },
    });
    expect(multiLine.json().error?.details ?? []).not.toContainEqual(
      expect.objectContaining({ message: expect.stringMatching(/control/) }),
    );
  });
});

describe('nesting', () => {
  const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  const deepArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  const send = (method: string, url: string, body: string, token?: string) =>
    t.request({ method: method as 'POST', url, token, payload: body, headers: { 'content-type': 'application/json' } });

  it('answers a body nested 5 000 levels with 400 and a Spanish message on every JSON route, the anonymous login included', {
    timeout: 120_000,
  }, async () => {
    // It overflowed the recursive control-character guard: a 500 on all of them.
    const doc = routeTable(t.app) as { paths: Record<string, Record<string, { requestBody?: { content?: object } }>> };
    const jsonBodies = t.app.routeTable.filter((r) => {
      const op = doc.paths[r.url.replace(/:([A-Za-z]+)/g, '{$1}')]?.[r.method.toLowerCase()];
      return op?.requestBody?.content && 'application/json' in op.requestBody.content;
    });
    expect(jsonBodies.map((r) => r.url)).toContain('/api/auth/login');
    expect(jsonBodies.length).toBeGreaterThan(100);
    for (const r of jsonBodies) {
      for (const body of [deepObject(5000), deepArray(5000)]) {
        const res = await send(r.method, concrete(r.url, '1'), body, r.access === 'public' ? undefined : admin.token);
        expect(res.statusCode, `${r.method} ${r.url}`).toBe(400);
        expect(res.json().error.message, `${r.method} ${r.url}`).toBe('Los datos anidan demasiados niveles (más de 400).');
      }
    }
    const anonymous = await send('POST', '/api/auth/login', deepObject(5000));
    expect(anonymous.statusCode).toBe(400);
  });

  it('lets a body just within the limit reach validation, and stores and answers it where a route keeps free JSON', async () => {
    const login = await send('POST', '/api/auth/login', deepObject(399));
    expect(login.statusCode).toBe(400);
    expect(login.json().error.message).not.toMatch(/anidan/);
    // A form's JSON Schema is kept as given: 398 levels inside it go to jsonb, the audit and back.
    const schema = JSON.parse(deepObject(397)) as Record<string, unknown>;
    const form = await t.request({
      method: 'POST',
      url: '/api/wf/forms',
      token: admin.token,
      payload: { title: 'Anidado', schema: { type: 'object', properties: {}, deep: schema } },
    });
    expect(form.statusCode).toBeLessThan(500);
  });
});

describe('search text', () => {
  const lists = () =>
    routes().filter((r) => {
      const doc = routeTable(t.app) as OpenApi;
      const op = doc.paths[r.url.replace(/:([A-Za-z]+)/g, '{$1}')]?.[r.method.toLowerCase()];
      return r.method === 'GET' && !r.url.includes(':') && op?.parameters?.some((p) => p.in === 'query' && p.name === 'q');
    });

  it('answers every list searched with LIKE wildcards, a backslash or one character (never an empty clause)', {
    timeout: 120_000,
  }, async () => {
    expect(lists().length).toBeGreaterThan(5);
    for (const r of lists()) {
      for (const q of ['%', '_', '\\', '%%', '% _', 'a', 'ñ', '%a%', "'", '"']) {
        const res = await t.request({ method: 'GET', url: `${r.url}?q=${encodeURIComponent(q)}`, token: admin.token });
        expect([200, 400], `${r.url}?q=${q}: ${res.body}`).toContain(res.statusCode);
      }
    }
  });

  it('q=% on the contributor list answers 200 and matches a literal percent sign only', async () => {
    const res = await t.request({ method: 'GET', url: '/api/contributors?q=%25', token: admin.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ items: [], total: 0, totalKind: 'exact', next: null, prev: null });
  });
});

describe('dates', () => {
  for (const bad of ['0000-00-00', '2026-02-30', '1899-12-31', '2101-01-01', '9999-12-31', '2026-1-1', '20260101']) {
    it(`refuses from/to=${bad} on the audit and RENAP logs with 400 naming the field`, async () => {
      for (const url of [
        '/api/audit',
        '/api/audit/export',
        '/api/audit/planillas',
        '/api/audit/planillas/export',
        '/api/renap/lookups',
      ]) {
        for (const field of ['from', 'to']) {
          const res = await t.request({ method: 'GET', url: `${url}?${field}=${bad}`, token: admin.token });
          expect(res.statusCode, `${url}?${field}=${bad}`).toBe(400);
          expect(res.json().error.details).toContainEqual(expect.objectContaining({ path: `consulta.${field}` }));
        }
      }
    });
  }
  it('accepts the first and last day of the range', async () => {
    const res = await t.request({ method: 'GET', url: '/api/audit?from=1900-01-01&to=2100-12-31', token: admin.token });
    expect(res.statusCode).toBe(200);
  });
});

describe('exports', () => {
  // Every streamed export takes the list's sort (the contributor reports are fixed aggregates without one).
  const exports = () =>
    routes().filter((r) => {
      const op = (routeTable(t.app) as OpenApi).paths[r.url]?.get;
      return r.method === 'GET' && /\/export$/.test(r.url) && op?.parameters?.some((p) => p.in === 'query' && p.name === 'sort');
    });

  it('answers a bad sort on every export with a JSON 400 before any byte of the file', async () => {
    expect(exports().length).toBeGreaterThan(5);
    for (const r of exports()) {
      for (const format of ['xlsx', 'csv']) {
        const res = await t.request({ method: 'GET', url: `${r.url}?format=${format}&sort=noExiste`, token: admin.token });
        expect(res.statusCode, `${r.url} ${format}`).toBe(400);
        expect(res.headers['content-type'], r.url).toMatch(/application\/json/);
        expect(res.json().error.details, r.url).toContainEqual(expect.objectContaining({ path: 'consulta.sort' }));
      }
    }
  });
});
