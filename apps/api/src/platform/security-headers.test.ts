import { describe, expect, it } from 'vitest';
import { securityHeadersOf } from './security-headers.ts';

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
