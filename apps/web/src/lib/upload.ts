import { ApiError, buildUrl, type RequestOptions } from './api.ts';
import { getToken } from './session.ts';

/**
 * Sends one file (multipart field `file`) to an upload route with its progress (XMLHttpRequest: fetch
 * reports no upload progress). Resolves with the 201 answer; a refusal rejects with the API's error.
 */
export function uploadFile<T>(
  path: string,
  query: RequestOptions['query'],
  file: File,
  onProgress: (fraction: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl(path, query));
    const token = getToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status === 201) return resolve(body as T);
      const e = (body as { error?: { code: string; message: string; details?: [] } } | undefined)?.error;
      reject(new ApiError(xhr.status, (e?.code as never) ?? 'INTERNAL', e?.message ?? `Error ${xhr.status}`, e?.details ?? []));
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK', 'No se pudo conectar con el servidor. Revise su conexión.'));
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}
