import { type ApiAnswer, type ApiPath, apiErrorOf, buildUrl, fillPath, networkError, type QueryRecord } from './api.ts';
import { getToken } from './session.ts';

/** A multipart upload: the route's `{param}`s, its query, text fields besides the file, and progress. */
export interface UploadOptions {
  path?: Record<string, string | number>;
  query?: QueryRecord;
  fields?: Record<string, string | undefined>;
  file?: File | null;
  onProgress?: (fraction: number) => void;
}

/**
 * Sends a multipart form (the file in field `file`, plus `fields`) to an upload route, with its progress
 * (XMLHttpRequest: fetch reports no upload progress). Resolves with what the route declares it answers;
 * a refusal rejects with the API's error. The one way the web app uploads.
 */
export function uploadFile<P extends ApiPath<'post'>>(route: P, options: UploadOptions = {}): Promise<ApiAnswer<P, 'post'>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl(fillPath(route, options.path), options.query));
    const token = getToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    const onProgress = options.onProgress;
    if (onProgress) xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(body as ApiAnswer<P, 'post'>);
      reject(apiErrorOf(xhr.status, body));
    };
    xhr.onerror = () => reject(networkError());
    const form = new FormData();
    for (const [k, v] of Object.entries(options.fields ?? {})) if (v !== undefined) form.append(k, v);
    if (options.file) form.append('file', options.file);
    xhr.send(form);
  });
}
