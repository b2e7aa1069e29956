import { apiErrorOf, buildUrl, type QueryRecord } from './api.ts';
import { getToken } from './session.ts';

/**
 * Downloads a file from the API (an export, a template, an exceptions file). A plain link could not
 * send the bearer token, so: fetch with the token → blob → a temporary link named as the server's
 * Content-Disposition says. A refusal is thrown as ApiError with the server's Spanish message.
 */
export async function downloadFile(path: string, query?: QueryRecord): Promise<void> {
  const res = await fetchFile(buildUrl(path, query));
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

/** A file of the API with the session's token; a refusal thrown as ApiError with the server's message. */
async function fetchFile(url: string): Promise<Response> {
  const token = getToken();
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!res.ok) throw apiErrorOf(res.status, await res.json().catch(() => null));
  return res;
}

/**
 * A file of the API for the browser to show itself (a PDF in its viewer): an object URL (the caller
 * revokes it) and the answer's headers.
 */
export async function fileUrl(url: string): Promise<{ url: string; headers: Headers }> {
  const res = await fetchFile(url);
  return { url: URL.createObjectURL(await res.blob()), headers: res.headers };
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
