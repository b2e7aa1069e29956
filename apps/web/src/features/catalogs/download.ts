import { ApiError, buildUrl, type RequestOptions } from '../../lib/api.ts';
import { getToken } from '../../lib/session.ts';

/**
 * Downloads an export with the bearer token (a plain link could not send it): fetch → blob → a
 * temporary link named as the server's Content-Disposition says.
 */
export async function downloadExport(path: string, query: RequestOptions['query']): Promise<void> {
  const token = getToken();
  const res = await fetch(buildUrl(path, query), { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
    throw new ApiError(res.status, (body?.error?.code as never) ?? 'INTERNAL', body?.error?.message ?? `Error ${res.status}`);
  }
  const blob = await res.blob();
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'exportacion';
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
