import type { ErrorBody, ErrorCode, ErrorDetail } from '@aporta/domain';
import type { components, paths } from './api-contract.ts';
import { clearSession, getToken } from './session.ts';

/** An API answer with the error shape; `code` is one of the catalogue in @aporta/domain. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'NETWORK',
    message: string,
    readonly details: ErrorDetail[] = [],
    /** The message's key and parameters (domain messages.ts); lib/server-messages.ts words them. */
    readonly keyed: { key?: string; params?: Record<string, string | number> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The refusal an error body describes (with its key and parameters); a body that is not one, by status. */
export function apiErrorOf(status: number, body: unknown): ApiError {
  const e = (body as ErrorBody | undefined)?.error;
  return new ApiError(status, e?.code ?? 'INTERNAL', e?.message ?? `Error ${status}`, e?.details ?? [], {
    key: e?.key ?? (e ? undefined : 'errors.INTERNAL'),
    params: e?.params,
  });
}

/** The server could not be reached (lib/server-messages words it in the user's language). */
export const networkError = (): ApiError =>
  new ApiError(0, 'NETWORK', 'No se pudo conectar con el servidor. Revise su conexión.', [], { key: 'platform.network' });

const LOGIN_URL = '/api/auth/login';

/** Called on a 401 outside login: the session is gone, so forget it and reload into the login page. */
let onUnauthorized = () => {
  clearSession();
  window.location.reload();
};
export const setUnauthorizedHandler = (fn: () => void) => {
  onUnauthorized = fn;
};

/** A query string's values; empty ones are left out. */
export type QueryRecord = Record<string, string | number | boolean | undefined | null>;

export function buildUrl(path: string, query?: QueryRecord): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

// ── The contract's types (apps/web/src/lib/api-contract.ts, generated from the API's OpenAPI document) ──

/** The domain's named schemas as the API declares them: `Schemas['Payment']`. */
export type Schemas = components['schemas'];
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** Every route path that answers method M, as the API declares it (`/api/payments/{id}`). */
export type ApiPath<M extends Method = 'get'> = {
  [P in keyof paths]: paths[P] extends Record<M, object> ? P : never;
}[keyof paths];
type Operation<P, M extends Method> = P extends keyof paths ? (paths[P] extends Record<M, infer O> ? O : never) : never;
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;
/** What route P answers to method M (its 200, 201 or 202; `undefined` for 204). */
export type ApiAnswer<P extends ApiPath<M>, M extends Method = 'get'> =
  Operation<P, M> extends { responses: infer R }
    ? 200 extends keyof R
      ? Json<R[200]>
      : 201 extends keyof R
        ? Json<R[201]>
        : 202 extends keyof R
          ? Json<R[202]>
          : undefined
    : never;
/** The JSON body route P takes with method M. */
export type ApiBody<P extends ApiPath<M>, M extends Method = 'post'> =
  Operation<P, M> extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;
/** The query route P takes with method M. */
export type ApiQuery<P extends ApiPath<M>, M extends Method = 'get'> = NonNullable<Param<P, M, 'query'>>;
type Param<P, M extends Method, K extends 'path' | 'query'> =
  Operation<P, M> extends { parameters: infer X } ? (X extends { [k in K]?: infer V } ? V : never) : never;

type Absent<T> = [T] extends [never] ? true : [T] extends [undefined] ? true : false;
/** A path parameter goes into the address as text: a number is as good as its digits. */
type PathPart<P, M extends Method> =
  Absent<Param<P, M, 'path'>> extends true
    ? { path?: never }
    : { path: { [K in keyof NonNullable<Param<P, M, 'path'>>]: string | number } };
type QueryPart<P, M extends Method> =
  Absent<Param<P, M, 'query'>> extends true ? { query?: never } : { query?: NonNullable<Param<P, M, 'query'>> };
type BodyPart<P, M extends Method> =
  Operation<P, M> extends { requestBody: object }
    ? { body: ApiBodyOf<P, M> }
    : Operation<P, M> extends { requestBody?: object }
      ? { body?: ApiBodyOf<P, M> }
      : { body?: never };
type ApiBodyOf<P, M extends Method> = Operation<P, M> extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;
/** A call's parts: path parameters, query and body exactly as the route declares them. */
export type CallOptions<P, M extends Method> = PathPart<P, M> & QueryPart<P, M> & BodyPart<P, M> & { signal?: AbortSignal };
type RequiredArgs<O> = object extends O ? [options?: O] : [options: O];

/** `/api/payments/{id}` with `{ id: 7 }` → `/api/payments/7`; each value encoded. */
export function fillPath(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Falta el parámetro ${name} de ${template}`);
    return encodeURIComponent(String(value));
  });
}

/** A route's address with its parameters and query filled in: for links and downloads. */
export function apiUrl<P extends ApiPath<'get'>>(path: P, ...[options]: RequiredArgs<PathPart<P, 'get'> & QueryPart<P, 'get'>>) {
  const o = options as { path?: Record<string, string | number>; query?: QueryRecord } | undefined;
  return buildUrl(fillPath(path, o?.path), o?.query);
}

/**
 * The one way the web app calls the API, typed by the contract: `api.get('/api/payments/{id}', { path:
 * { id } })` answers what that route declares. Bearer token, JSON in and out, errors as ApiError.
 */
export const api = {
  get: <P extends ApiPath<'get'>>(path: P, ...[options]: RequiredArgs<CallOptions<P, 'get'>>) =>
    call<ApiAnswer<P, 'get'>>('GET', path, options),
  post: <P extends ApiPath<'post'>>(path: P, ...[options]: RequiredArgs<CallOptions<P, 'post'>>) =>
    call<ApiAnswer<P, 'post'>>('POST', path, options),
  put: <P extends ApiPath<'put'>>(path: P, ...[options]: RequiredArgs<CallOptions<P, 'put'>>) =>
    call<ApiAnswer<P, 'put'>>('PUT', path, options),
  patch: <P extends ApiPath<'patch'>>(path: P, ...[options]: RequiredArgs<CallOptions<P, 'patch'>>) =>
    call<ApiAnswer<P, 'patch'>>('PATCH', path, options),
  delete: <P extends ApiPath<'delete'>>(path: P, ...[options]: RequiredArgs<CallOptions<P, 'delete'>>) =>
    call<ApiAnswer<P, 'delete'>>('DELETE', path, options),
};

interface RawOptions {
  path?: Record<string, string | number>;
  query?: QueryRecord;
  body?: unknown;
  signal?: AbortSignal;
}

async function call<T>(method: string, template: string, options?: object): Promise<T> {
  const opts = (options ?? {}) as RawOptions;
  const path = fillPath(template, opts.path);
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.query), {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw networkError();
  }
  if (res.status === 401 && path !== LOGIN_URL) onUnauthorized();
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  const data = text ? safeJson(text) : undefined;
  if (!res.ok) throw apiErrorOf(res.status, data);
  return data as T;
}

/**
 * A route that answers server-sent events (`text/event-stream`), read with fetch so the bearer token goes
 * with it: each event as its type and its parsed data, until the stream ends or `signal` aborts.
 */
export async function* eventStream(
  path: ApiPath<'get'>,
  signal: AbortSignal,
): AsyncGenerator<{ type: string; data: Record<string, unknown> }> {
  const token = getToken();
  const res = await fetch(path, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal });
  if (res.status === 401) onUnauthorized();
  if (!res.ok || !res.body) throw new ApiError(res.status, 'INTERNAL', `Error ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const type = /^event: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      const parsed = type && data ? safeJson(data) : undefined;
      if (type && parsed && typeof parsed === 'object') yield { type, data: parsed as Record<string, unknown> };
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
