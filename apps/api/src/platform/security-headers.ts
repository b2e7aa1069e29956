import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { isGuardedUrl } from './access.ts';

/**
 * The security headers helmet writes for `options`, computed once: helmet's middleware is run against a
 * response that only records what it sets. They depend on nothing of the request.
 */
export function securityHeadersOf(options: Readonly<HelmetOptions>): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return Object.freeze(headers);
}

/**
 * What the screens' PDF preview needs of the Content-Security-Policy, and nothing more: the screen fetches
 * the PDF with the session's token and shows it in an `<iframe>` from a `blob:` URL of this origin (e.g.
 * "Revisar y firmar"). Without a `frame-src`, frames fall back to `default-src 'self'`, which does not
 * match `blob:`, and Chromium shows "This content is blocked" instead of the document. Frames of this
 * origin stay allowed as before; no other origin may be framed, and `object-src` stays `'none'` (the
 * browser's viewer runs in the frame, not as a plugin of the page: checked in Chromium).
 */
export const PDF_PREVIEW_FRAME_SRC: readonly string[] = ["'self'", 'blob:'];

/** `options` with the PDF preview's `frame-src` added, unless they turn the CSP off or name their own. */
export function withPdfPreview(options: Readonly<HelmetOptions>): HelmetOptions {
  const csp = options.contentSecurityPolicy;
  if (csp === false) return { ...options };
  const given = csp === true || csp === undefined ? {} : csp;
  const directives = given.directives ?? {};
  if ('frameSrc' in directives || 'frame-src' in directives) return { ...options };
  return {
    ...options,
    contentSecurityPolicy: { ...given, directives: { ...directives, frameSrc: [...PDF_PREVIEW_FRAME_SRC] } },
  };
}

/** Public material any cache may keep: the API's documentation and the institution's certificates and CRL. */
const PUBLIC_MATERIAL = /^\/api\/(docs|pki)(\/|$)/;

/**
 * Every answer carries the security headers (CSP, HSTS, nosniff, frame options…). `@fastify/helmet`
 * rebuilt helmet's middleware on every request (5 % of the CPU of a CUI lookup); the headers are the
 * same for every request, so they are computed once and added by one synchronous hook. A route that
 * needs another policy sets its own header (the API docs' CSP), which wins over this one. The CSP always
 * lets the screens preview a PDF (`withPdfPreview`).
 *
 * Every answer to a request carrying a session, and every answer of the API but its public material,
 * is `cache-control: no-store`: JSON, errors and files alike hold what one user may read (a token, a
 * statement, a 401 that names the account), and a shared computer's browser cache or a proxy must not
 * keep them. A route that sets its own cache-control (the CRL's no-cache) wins, as above.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const headers = securityHeadersOf(withPdfPreview(options));
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    if (request.headers.authorization || (isGuardedUrl(request.url) && !PUBLIC_MATERIAL.test(request.url))) {
      reply.header('cache-control', 'no-store');
    }
    done();
  });
}
