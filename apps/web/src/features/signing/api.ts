import type { ErrorBody } from '@aporta/domain';
import type { ListResponse } from '@aporta/domain/list';
import type {
  DocumentOptions,
  Folder,
  LibraryDocument,
  SigningCertificate,
  SigningRequest,
  SigningSettings,
  VerificationReport,
} from '@aporta/domain/signing';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, buildUrl } from '../../lib/api.ts';
import { getToken } from '../../lib/session.ts';
import { signingKeys } from './keys.ts';

type Params = Record<string, string | number | boolean | null | undefined>;

/** A multipart POST (a file and text fields) with the session's token; errors as ApiError. */
export async function postForm<T>(path: string, fields: Record<string, string | undefined>, file?: File | null): Promise<T> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, v);
  if (file) form.append('file', file);
  const token = getToken();
  let res: Response;
  try {
    res = await fetch(path, { method: 'POST', body: form, headers: token ? { authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new ApiError(0, 'NETWORK', 'No se pudo conectar con el servidor. Revise su conexión.');
  }
  const body = (await res.json().catch(() => null)) as (T & ErrorBody) | null;
  if (!res.ok) {
    const e = body?.error;
    throw new ApiError(res.status, e?.code ?? 'INTERNAL', e?.message ?? `Error ${res.status}`, e?.details ?? []);
  }
  return body as T;
}

/** A PDF of the API as an object URL for the browser's viewer, with the SHA-256 the server reports. */
export async function fetchPdf(path: string): Promise<{ url: string; sha256: string | null }> {
  const token = getToken();
  const res = await fetch(buildUrl(path), { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!res.ok) {
    const e = ((await res.json().catch(() => null)) as ErrorBody | null)?.error;
    throw new ApiError(res.status, e?.code ?? 'INTERNAL', e?.message ?? `Error ${res.status}`, e?.details ?? []);
  }
  return { url: URL.createObjectURL(await res.blob()), sha256: res.headers.get('x-document-sha256') };
}

const invalidate = (client: ReturnType<typeof useQueryClient>) => () => client.invalidateQueries({ queryKey: signingKeys.all });

// ---------------------------------------------------------------- certificates
export const useCertificates = (params: Params) =>
  useQuery({
    queryKey: signingKeys.certificates(params),
    queryFn: ({ signal }) => api<ListResponse<SigningCertificate>>('/api/signing/certificates', { query: params, signal }),
    placeholderData: keepPreviousData,
  });

export function useIssueCertificate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { userId: number; position: string; years: number; passphrase: string }) =>
      api<SigningCertificate>('/api/signing/certificates', { method: 'POST', body }),
    onSuccess: invalidate(client),
  });
}

export function useCertificateAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, body }: { id: number; action: 'revoke' | 'renew'; body: object }) =>
      api<SigningCertificate>(`/api/signing/certificates/${id}/${action}`, { method: 'POST', body }),
    onSuccess: invalidate(client),
  });
}

export const useSigningSettings = () =>
  useQuery({
    queryKey: signingKeys.settings(),
    queryFn: ({ signal }) => api<SigningSettings>('/api/signing/settings', { signal }),
  });

export function useUpdateSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { showName: boolean; showPosition: boolean; showDate: boolean; timestampUrl: string | null }) =>
      api<SigningSettings>('/api/signing/settings', { method: 'PUT', body }),
    onSuccess: invalidate(client),
  });
}

export function useUploadSeal() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, password }: { file: File; password: string }) =>
      postForm<SigningSettings>('/api/signing/seal', { password }, file),
    onSuccess: invalidate(client),
  });
}

export function useSignatureImage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File | null) =>
      file
        ? postForm<SigningSettings>('/api/signing/settings/image', {}, file)
        : api<SigningSettings>('/api/signing/settings/image', { method: 'DELETE' }),
    onSuccess: invalidate(client),
  });
}

// ---------------------------------------------------------------- signing flow
export const useSignerOptions = () =>
  useQuery({
    queryKey: signingKeys.signers(),
    queryFn: ({ signal }) => api<{ items: { id: number; name: string; email: string }[] }>('/api/signing/signers', { signal }),
  });

export function useCreateRequest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ fields, file }: { fields: Record<string, string | undefined>; file: File | null }) =>
      postForm<SigningRequest>('/api/signing/requests', fields, file),
    onSuccess: invalidate(client),
  });
}

export type RequestListKind = 'pending' | 'signed' | 'rejected' | 'sent';
export const useRequests = (kind: RequestListKind, params: Params) =>
  useQuery({
    queryKey: signingKeys.requests(kind, params),
    queryFn: ({ signal }) => api<ListResponse<SigningRequest>>(`/api/signing/requests/${kind}`, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

/** How many documents wait for the user's signature (the menu's count), refreshed every 30 s. */
export const usePendingCount = (enabled: boolean) =>
  useQuery({
    queryKey: signingKeys.count(),
    queryFn: ({ signal }) => api<{ pending: number }>('/api/signing/requests/count', { signal }),
    enabled,
    refetchInterval: 30_000,
  });

export function useRequestAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, body }: { id: number; action: 'sign' | 'reject' | 'send'; body?: object }) =>
      api<SigningRequest>(`/api/signing/requests/${id}/${action}`, { method: 'POST', body }),
    onSuccess: invalidate(client),
  });
}

export const verifyPdf = (file: File) => postForm<VerificationReport>('/api/signing/verify', {}, file);

// ---------------------------------------------------------------- automatic signing
export interface Rule {
  id: number;
  name: string;
  documentKind: string;
  isActive: boolean;
  createdAt: string;
}
export const useRules = () =>
  useQuery({
    queryKey: signingKeys.rules(),
    queryFn: ({ signal }) => api<{ items: Rule[]; kinds: { kind: string; label: string }[] }>('/api/signing/rules', { signal }),
  });

export function useRuleAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (
      a: { kind: 'create'; body: object } | { kind: 'toggle'; id: number; isActive: boolean } | { kind: 'delete'; id: number },
    ): Promise<Rule | undefined> =>
      a.kind === 'create'
        ? api<Rule>('/api/signing/rules', { method: 'POST', body: a.body })
        : a.kind === 'toggle'
          ? api<Rule>(`/api/signing/rules/${a.id}`, { method: 'PUT', body: { isActive: a.isActive } })
          : api<undefined>(`/api/signing/rules/${a.id}`, { method: 'DELETE' }),
    onSuccess: invalidate(client),
  });
}

export const startBatch = (body: { folderId?: number; docType?: string; q?: string }) =>
  api<{ jobId: number; total: number }>('/api/signing/batch', { method: 'POST', body });

// ---------------------------------------------------------------- library
export const useFolders = (parentId: number | null) =>
  useQuery({
    queryKey: signingKeys.folders(parentId),
    queryFn: ({ signal }) =>
      api<{ items: Folder[]; path: { id: number; name: string }[] }>('/api/folders', {
        query: { parentId: parentId ?? undefined },
        signal,
      }),
  });

export const useDocumentOptions = (enabled = true) =>
  useQuery({
    queryKey: signingKeys.documentOptions(),
    queryFn: ({ signal }) => api<DocumentOptions>('/api/folders/options', { signal }),
    enabled,
    staleTime: 5 * 60_000,
  });

export function useDeleteLibraryItem() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, id }: { kind: 'folder' | 'document'; id: number }) =>
      api<undefined>(kind === 'folder' ? `/api/folders/${id}` : `/api/library/documents/${id}`, { method: 'DELETE' }),
    onSuccess: invalidate(client),
  });
}

export function useUploadVersion() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, file, note }: { id: number; file: File; note?: string }) =>
      postForm<LibraryDocument>(`/api/library/documents/${id}/versions`, { note }, file),
    onSuccess: invalidate(client),
  });
}

export function useCreateFolder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; parentId: number | null; entityId: number | null }) =>
      api<Folder>('/api/folders', { method: 'POST', body }),
    onSuccess: invalidate(client),
  });
}

export const useDocuments = (params: Params, enabled = true) =>
  useQuery({
    queryKey: signingKeys.documents(params),
    queryFn: ({ signal }) => api<ListResponse<LibraryDocument>>('/api/library/documents', { query: params, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });

export function useUploadDocument() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ fields, file }: { fields: Record<string, string | undefined>; file: File }) =>
      postForm<LibraryDocument>('/api/library/documents', fields, file),
    onSuccess: invalidate(client),
  });
}
