import type { ErrorBody } from '@aporta/domain';
import { ApiError, buildUrl, type RequestOptions } from './api.ts';
import { getToken } from './session.ts';

/**
 * Downloads a file from the API (an export, a template, an exceptions file). A plain link could not
 * send the bearer token, so: fetch with the token → blob → a temporary link named as the server's
 * Content-Disposition says. A refusal is thrown as ApiError with the server's Spanish message.
 */
export async function downloadFile(path: string, query?: RequestOptions['query']): Promise<void> {
  const token = getToken();
  const res = await fetch(buildUrl(path, query), { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!res.ok) {
    const e = ((await res.json().catch(() => null)) as ErrorBody | null)?.error;
    throw new ApiError(res.status, e?.code ?? 'INTERNAL', e?.message ?? `Error ${res.status}`, e?.details ?? []);
  }
  const name = fileNameOf(res.headers.get('content-disposition') ?? '');
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The file name of a Content-Disposition: the whole name of `filename*` (UTF-8), else `filename`. */
export function fileNameOf(disposition: string): string {
  const extended = /filename\*=UTF-8''([^;\s]+)/i.exec(disposition)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended);
    } catch {
      // A malformed encoding: the plain name below.
    }
  }
  return /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'descarga';
}
