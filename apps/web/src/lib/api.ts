import type { ErrorBody, ErrorCode, ErrorDetail } from '@aporta/domain';
import { clearSession, getToken } from './session.ts';

/** An API answer with the error shape; `code` is one of the catalogue in @aporta/domain. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'NETWORK',
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const LOGIN_URL = '/api/auth/login';

/** Called on a 401 outside login: the session is gone, so forget it and reload into the login page. */
let onUnauthorized = () => {
  clearSession();
  window.location.reload();
};
export const setUnauthorizedHandler = (fn: () => void) => {
  onUnauthorized = fn;
};

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
}

export function buildUrl(path: string, query?: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** The one way the web app calls the API: bearer token, JSON in and out, errors as ApiError. */
export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.query), {
      method: opts.method ?? 'GET',
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK', 'No se pudo conectar con el servidor. Revise su conexión.');
  }
  if (res.status === 401 && path !== LOGIN_URL) onUnauthorized();
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  const data = text ? safeJson(text) : undefined;
  if (!res.ok) {
    const e = (data as ErrorBody | undefined)?.error;
    throw new ApiError(res.status, e?.code ?? 'INTERNAL', e?.message ?? `Error ${res.status}`, e?.details ?? []);
  }
  return data as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
