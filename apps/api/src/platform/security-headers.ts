import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

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
 * Every answer carries the security headers (CSP, HSTS, nosniff, frame options…). `@fastify/helmet`
 * rebuilt helmet's middleware on every request (5 % of the CPU of a CUI lookup); the headers are the
 * same for every request, so they are computed once and added by one synchronous hook. A route that
 * needs another policy sets its own header (the API docs' CSP), which wins over this one.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const headers = securityHeadersOf(options);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
