import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../test/harness.ts';
import { securityHeadersOf, withPdfPreview } from './security-headers.ts';

describe('securityHeadersOf', () => {
  it('records what helmet writes, once, with the options applied', () => {
    const h = securityHeadersOf({
      contentSecurityPolicy: { directives: { upgradeInsecureRequests: null, imgSrc: ["'self'", 'data:'] } },
    });
    expect(h['x-content-type-options']).toBe('nosniff');
    expect(h['content-security-policy']).toContain("img-src 'self' data:");
    expect(h['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(Object.isFrozen(h)).toBe(true);
    // Names are lower case, as Fastify keeps them.
    expect(Object.keys(h).every((k) => k === k.toLowerCase())).toBe(true);
  });

  it('leaves out what the options turn off', () => {
    const h = securityHeadersOf({ contentSecurityPolicy: false, xFrameOptions: false });
    expect(h['content-security-policy']).toBeUndefined();
    expect(h['x-frame-options']).toBeUndefined();
    expect(h['x-content-type-options']).toBe('nosniff');
  });
});

describe('the PDF preview under the CSP', () => {
  const directivesOf = (csp: string) =>
    new Map(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((d) => d[0])
        .map(([name, ...values]) => [name, values]),
    );

  it("adds exactly frame-src 'self' blob: to the app's policy, and nothing else changes", () => {
    const options = { contentSecurityPolicy: { directives: { upgradeInsecureRequests: null, imgSrc: ["'self'", 'data:'] } } };
    const before = directivesOf(securityHeadersOf(options)['content-security-policy']);
    const after = directivesOf(securityHeadersOf(withPdfPreview(options))['content-security-policy']);
    expect(after.get('frame-src')).toEqual(["'self'", 'blob:']);
    after.delete('frame-src');
    expect(after).toEqual(before);
    // The options passed in are left as they were.
    expect('frameSrc' in options.contentSecurityPolicy.directives).toBe(false);
  });

  it('leaves a policy that is off, or names its own frame-src, as it is', () => {
    expect(withPdfPreview({ contentSecurityPolicy: false }).contentSecurityPolicy).toBe(false);
    const own = withPdfPreview({ contentSecurityPolicy: { directives: { frameSrc: ["'none'"] } } });
    expect(securityHeadersOf(own)['content-security-policy']).toContain("frame-src 'none'");
  });
});

describe('cache-control on authenticated answers', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.createUser({ system: true });
  }, 180_000);
  afterAll(() => t?.close());

  const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '1').replace(/\*/g, 'x');
  // Signing out would end the session walking the table; the chat's live stream never ends by design.
  const skip = new Set(['POST /api/auth/logout', 'GET /api/chat/stream']);

  it('answers no-store on every route of the table, signed in or not: JSON, errors and files', { timeout: 300_000 }, async () => {
    const missing: string[] = [];
    const kinds: Record<string, number> = {};
    const routes = t.app.routeTable.filter((r) => !r.url.startsWith('/api/docs') && !r.url.startsWith('/api/pki/'));
    expect(routes.length).toBeGreaterThan(150);
    for (const r of routes) {
      if (skip.has(`${r.method} ${r.url}`)) continue;
      for (const token of [admin.token, undefined]) {
        const res = await t.request({
          method: r.method as 'GET',
          url: concrete(r.url),
          token,
          ...(r.method === 'GET' ? {} : { payload: {} }),
        });
        const type = String(res.headers['content-type'] ?? '').split(';')[0];
        const kind = `${res.statusCode < 400 ? 'ok' : 'error'} ${type}`;
        kinds[kind] = (kinds[kind] ?? 0) + 1;
        if (!String(res.headers['cache-control'] ?? '').includes('no-store')) {
          missing.push(
            `${r.method} ${r.url} ${token ? 'con sesión' : 'sin sesión'} → ${res.statusCode} ${type}: ${res.headers['cache-control']}`,
          );
        }
        if (res.statusCode === 401 && token) admin = await t.createUser({ system: true });
      }
    }
    // Every kind of answer was seen: JSON, errors, a file (an export) and a login's token.
    expect(Object.keys(kinds).some((k) => k.startsWith('ok application/json'))).toBe(true);
    expect(Object.keys(kinds).some((k) => k.startsWith('error application/json'))).toBe(true);
    expect(Object.keys(kinds).some((k) => /^ok (text\/csv|application\/(vnd|pdf|octet))/.test(k))).toBe(true);
    expect(missing).toEqual([]);
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: admin.email, password: admin.password },
    });
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control']).toBe('no-store');
    const unknown = await t.request({ method: 'GET', url: '/api/no-existe', token: admin.token });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['cache-control']).toBe('no-store');
  });

  it("every answer's CSP lets a screen preview a PDF from a blob: URL, and no more", async () => {
    const page = await t.request({ method: 'GET', url: '/api/signing/signers', token: admin.token });
    const csp = String(page.headers['content-security-policy']);
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values];
      }),
    );
    expect(directives['frame-src']).toEqual(["'self'", 'blob:']);
    // The preview needs no plugin: object-src stays closed, and nothing is a wildcard.
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(csp.split(/[\s;]+/)).not.toContain('*');
  });

  it('leaves the public material cacheable', async () => {
    const docs = await t.request({ method: 'GET', url: '/api/docs/json' });
    expect(docs.headers['cache-control'] ?? '').not.toContain('no-store');
  });
});
