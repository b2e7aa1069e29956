import {
  AppError,
  detail,
  type ErrorBody,
  type ErrorCode,
  type ErrorDetail,
  errorCatalogue,
  keyOfText,
  type Message,
  messageOfText,
  msg,
} from '@aporta/domain';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { toAppError } from './db-errors.ts';
import { RETRY_AFTER_SECONDS } from './load.ts';

/** The error shape every route declares for its 4xx/5xx answers (the domain's, named in the contract). */
export { errorBodySchema } from '@aporta/domain';

/**
 * The one error body. Every message in it carries its key (messages.ts) when it has one: given as a
 * keyed message, as the code's own text (`errors.<CODE>`), or found for a fixed Spanish text (a
 * schema's or a domain rule's message). The web translates by key; the text is the Spanish fallback.
 */
export function errorBody(
  code: ErrorCode,
  message?: string | Message,
  details?: ErrorDetail[],
  keyed?: { key?: string; params?: Record<string, string | number> },
): ErrorBody {
  const text = typeof message === 'object' ? message.text : (message ?? errorCatalogue[code].message);
  const found = typeof message === 'string' && !keyed?.key ? messageOfText(text) : undefined;
  const key = typeof message === 'object' ? message.key : (keyed?.key ?? (message === undefined ? `errors.${code}` : found?.key));
  const params = typeof message === 'object' ? message.params : (keyed?.params ?? found?.params);
  return {
    error: {
      code,
      message: text,
      ...(key ? { key } : {}),
      ...(params ? { params } : {}),
      ...(details?.length ? { details: details.map(keyedDetail) } : {}),
    },
  };
}

function keyedDetail(d: ErrorDetail): ErrorDetail {
  if (d.key) return d;
  const found = messageOfText(d.message);
  return found ? { ...d, ...found } : d;
}

/** The scalar facts of a schema issue (no input value): what the web needs to say it with zod's locales. */
function zodIssueParams(code: string, params: Record<string, unknown> | undefined): Record<string, string | number> {
  const out: Record<string, string | number> = { code };
  for (const [k, v] of Object.entries(params ?? {})) {
    if (k === 'input' || k === 'issue') continue;
    if (typeof v === 'string' || typeof v === 'number') out[k] = v;
    else if (typeof v === 'bigint') out[k] = String(v);
    else if (typeof v === 'boolean') out[k] = v ? 1 : 0;
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number')) out[k] = v.join('|');
  }
  return out;
}

/** Fastify's own error codes for client mistakes, mapped onto the catalogue. */
const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_REQ_FILE_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_FILES_LIMIT: 'PAYLOAD_TOO_LARGE',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
};

const where: Record<string, string> = { body: '', querystring: 'consulta', params: 'ruta', headers: 'encabezado' };

/**
 * One error handler: known errors keep their code and Spanish message; anything else is logged and
 * answered as INTERNAL without its message, so no stack or internal detail reaches the client.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    // A database constraint no service check caught (a race, a rule only the database enforces) is the
    // caller's 4xx too, answered in Spanish through the one mapping, never a 500 with the driver's text.
    const known = err instanceof AppError ? err : toAppError(err);
    if (known) {
      if (known.cause) request.log.warn({ err: known.cause, code: known.code }, 'underlying error of an answered failure');
      // Saturated (platform/load.ts): the client is told when to try again.
      if (known.status === 503) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return reply
        .status(known.status)
        .send(errorBody(known.code, known.message, known.details, { key: known.key, params: known.params }));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const prefix = where[err.validationContext ?? 'body'] ?? '';
      const details = err.validation.map((v) => {
        const field =
          v.instancePath.replace(/^\//, '').replace(/\//g, '.') ||
          (v.params?.issue as { path?: string[] })?.path?.join('.') ||
          '';
        const path = [prefix, field].filter(Boolean).join('.') || '(raíz)';
        const message = v.message ?? 'Valor no válido.';
        // A schema's own message is a catalogue text (keyed by errorBody); zod's built-in ones are keyed
        // `zod.<code>` with the issue's facts, which the web words with zod's locale of its language.
        if (keyOfText(message)) return { path, message };
        return { path, message, key: `zod.${v.keyword}`, params: zodIssueParams(v.keyword, v.params as Record<string, unknown>) };
      });
      return reply.status(400).send(errorBody('VALIDATION', undefined, details));
    }
    if (err.statusCode === 429) return reply.status(429).send(errorBody('RATE_LIMITED'));
    const mapped = err.code ? fastifyCodes[err.code] : undefined;
    if (mapped) return reply.status(errorCatalogue[mapped].status).send(errorBody(mapped));
    if (err instanceof SyntaxError && err.statusCode === 400) return reply.status(400).send(errorBody('MALFORMED_JSON'));
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send(errorBody(err.statusCode === 404 ? 'NOT_FOUND' : 'BAD_REQUEST'));
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send(errorBody('INTERNAL'));
  });
}

/**
 * Errors the router raises before any route or error handler runs (a malformed percent-encoding, a
 * path parameter over `maxParamLength`): answered with the one error shape too, not Fastify's own.
 * Passed as the `frameworkErrors` option of the server.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.status(400).send(errorBody('VALIDATION', undefined, [{ path: 'ruta', ...detail(msg('platform.routeValueTooLong')) }]));
    return;
  }
  reply.status(400).send(errorBody('BAD_REQUEST', msg('platform.requestAddressInvalid')));
}
