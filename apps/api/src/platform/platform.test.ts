import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ BODY_LIMIT_BYTES: '4096' });
});
afterAll(() => t.close());

describe('platform', () => {
  it('reports health with the database kind and version', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      database: process.env.TEST_DATABASE_URL ? 'postgresql' : 'pglite',
      version: t.config.version,
    });
  });

  it('answers an unknown /api route with the JSON error shape', async () => {
    const res = await t.request({ method: 'GET', url: '/api/no-existe?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: {
        code: 'ROUTE_NOT_FOUND',
        message: 'La ruta GET /api/no-existe no existe.',
        key: 'platform.routeNotFound',
        params: { method: 'GET', path: '/api/no-existe' },
      },
    });
  });

  it('refuses malformed JSON with 400, not 500', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('MALFORMED_JSON');
  });

  it('refuses a body over the limit with 413', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'a@b.gt', password: 'x'.repeat(10_000) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses an unsupported content type with 415', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'text/xml' },
      payload: '<a/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('names each bad field in Spanish', async () => {
    const res = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: 'no-es-correo' } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('VALIDATION');
    expect(body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['email', 'password']);
    expect(body.error.details.find((d: { path: string }) => d.path === 'email').message).toBe('Correo electrónico no válido.');
  });

  it('sends the security headers on every kind of answer (success, refusal, error, not found)', async () => {
    const answers = await Promise.all([
      t.request({ method: 'GET', url: '/api/health' }),
      t.request({ method: 'GET', url: '/api/contributors' }),
      t.request({ method: 'POST', url: '/api/auth/login', payload: { email: 'x' } }),
      t.request({ method: 'GET', url: '/api/no-existe' }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 401, 400, 404]);
    for (const res of answers) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).not.toContain('upgrade-insecure-requests');
    }
    // The API docs page keeps its own policy (set by its route, over the general one).
    const docs = await t.request({ method: 'GET', url: '/api/docs/static/index.html' });
    expect(docs.headers['x-content-type-options']).toBe('nosniff');
  });

  it('publishes an OpenAPI 3.1 document and a docs page', async () => {
    const doc = await t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toBe('3.1.0');
    expect(Object.keys(doc.json().paths)).toContain('/api/auth/login');
    const page = await t.request({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });
});

describe('config', () => {
  it('stops on a bad value naming the variable', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  });

  it('uses the embedded database and demo data by default, not with DATABASE_URL', () => {
    expect(loadConfig({}).demoData).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/x' }).demoData).toBe(false);
    expect(loadConfig({}).PORT).toBe(3000);
  });
});
