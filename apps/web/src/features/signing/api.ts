import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiAnswer, type ApiBody, type ApiPath, type ApiQuery, api, apiUrl } from '../../lib/api.ts';
import { downloadFile, fileUrl } from '../../lib/download.ts';
import { uploadFile } from '../../lib/upload.ts';
import { signingKeys } from './keys.ts';

/** One automatic-sealing rule. */
type Rule = ApiAnswer<'/api/signing/rules'>['items'][number];

/** The text fields of a multipart upload (the file goes apart); an absent value is not sent. */
type FormFields = Record<string, string | undefined>;

/** A PDF of the API as an object URL for the browser's viewer, with the SHA-256 the server reports. */
async function fetchPdf(url: string): Promise<{ url: string; sha256: string | null }> {
  const file = await fileUrl(url);
  return { url: file.url, sha256: file.headers.get('x-document-sha256') };
}

const invalidate = (client: ReturnType<typeof useQueryClient>) => () => client.invalidateQueries({ queryKey: signingKeys.all });

// ---------------------------------------------------------------- certificates
export const useCertificates = (query: ApiQuery<'/api/signing/certificates'>) =>
  useQuery({
    queryKey: signingKeys.certificates(query),
    queryFn: ({ signal }) => api.get('/api/signing/certificates', { query, signal }),
    placeholderData: keepPreviousData,
  });

/** The users a certificate can be issued to (the first 200), asked for only while the dialog is open. */
export const useCertificateHolders = (enabled: boolean) =>
  useQuery({
    queryKey: signingKeys.userOptions(),
    queryFn: ({ signal }) => api.get('/api/users', { query: { pageSize: 200 }, signal }),
    enabled,
  });

export function useIssueCertificate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'/api/signing/certificates'>) => api.post('/api/signing/certificates', { body }),
    onSuccess: invalidate(client),
  });
}

export type CertificateAction =
  | { id: number; action: 'revoke'; body: ApiBody<'/api/signing/certificates/{id}/revoke'> }
  | { id: number; action: 'renew'; body: ApiBody<'/api/signing/certificates/{id}/renew'> };
export function useCertificateAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (a: CertificateAction) =>
      a.action === 'revoke'
        ? api.post('/api/signing/certificates/{id}/revoke', { path: { id: a.id }, body: a.body })
        : api.post('/api/signing/certificates/{id}/renew', { path: { id: a.id }, body: a.body }),
    onSuccess: invalidate(client),
  });
}

export const useSigningSettings = () =>
  useQuery({
    queryKey: signingKeys.settings(),
    queryFn: ({ signal }) => api.get('/api/signing/settings', { signal }),
  });

export function useUpdateSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'/api/signing/settings', 'put'>) => api.put('/api/signing/settings', { body }),
    onSuccess: invalidate(client),
  });
}

export function useUploadSeal() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, password }: { file: File; password: string }) =>
      uploadFile('/api/signing/seal', { fields: { password }, file }),
    onSuccess: invalidate(client),
  });
}

export function useSignatureImage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File | null) =>
      file ? uploadFile('/api/signing/settings/image', { file }) : api.delete('/api/signing/settings/image'),
    onSuccess: invalidate(client),
  });
}

// ---------------------------------------------------------------- signing flow
export const useSignerOptions = () =>
  useQuery({
    queryKey: signingKeys.signers(),
    queryFn: ({ signal }) => api.get('/api/signing/signers', { signal }),
  });

export function useCreateRequest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ fields, file }: { fields: FormFields; file: File | null }) =>
      uploadFile('/api/signing/requests', { fields, file }),
    onSuccess: invalidate(client),
  });
}

export type RequestListKind = 'pending' | 'signed' | 'rejected' | 'sent';
const requestLists = {
  pending: '/api/signing/requests/pending',
  signed: '/api/signing/requests/signed',
  rejected: '/api/signing/requests/rejected',
  sent: '/api/signing/requests/sent',
} as const satisfies Record<RequestListKind, ApiPath>;

export const useRequests = (kind: RequestListKind, query: ApiQuery<'/api/signing/requests/pending'>) =>
  useQuery({
    queryKey: signingKeys.requests(kind, query),
    queryFn: ({ signal }) => api.get(requestLists[kind], { query, signal }),
    placeholderData: keepPreviousData,
  });

/** The export of a list of requests, for the lists that have one. */
export const requestsExportPath = (kind: RequestListKind): ApiPath | null =>
  kind === 'signed'
    ? '/api/signing/requests/signed/export'
    : kind === 'rejected'
      ? '/api/signing/requests/rejected/export'
      : null;

/** How many documents wait for the user's signature (the menu's count), refreshed every 30 s. */
export const usePendingCount = (enabled: boolean) =>
  useQuery({
    queryKey: signingKeys.count(),
    queryFn: ({ signal }) => api.get('/api/signing/requests/count', { signal }),
    enabled,
    refetchInterval: 30_000,
  });

export type RequestAction =
  | { id: number; action: 'sign'; body: ApiBody<'/api/signing/requests/{id}/sign'> }
  | { id: number; action: 'reject'; body: ApiBody<'/api/signing/requests/{id}/reject'> }
  | { id: number; action: 'send' };
export function useRequestAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (a: RequestAction) =>
      a.action === 'sign'
        ? api.post('/api/signing/requests/{id}/sign', { path: { id: a.id }, body: a.body })
        : a.action === 'reject'
          ? api.post('/api/signing/requests/{id}/reject', { path: { id: a.id }, body: a.body })
          : api.post('/api/signing/requests/{id}/send', { path: { id: a.id } }),
    onSuccess: invalidate(client),
  });
}

/** A request's PDF in its current state, for the viewer, with its SHA-256 (what the signer signs). */
export const fetchRequestPdf = (id: number) => fetchPdf(apiUrl('/api/signing/requests/{id}/pdf', { path: { id } }));

export const downloadRequestPdf = (id: number) =>
  downloadFile(apiUrl('/api/signing/requests/{id}/pdf', { path: { id }, query: { download: '1' } }));

export const verifyPdf = (file: File) => uploadFile('/api/signing/verify', { file });

// ---------------------------------------------------------------- automatic signing
export const useRules = () =>
  useQuery({
    queryKey: signingKeys.rules(),
    queryFn: ({ signal }) => api.get('/api/signing/rules', { signal }),
  });

export type RuleAction =
  | { kind: 'create'; body: ApiBody<'/api/signing/rules'> }
  | { kind: 'toggle'; id: number; isActive: boolean }
  | { kind: 'delete'; id: number };
export function useRuleAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (a: RuleAction): Promise<Rule | undefined> =>
      a.kind === 'create'
        ? api.post('/api/signing/rules', { body: a.body })
        : a.kind === 'toggle'
          ? api.put('/api/signing/rules/{id}', { path: { id: a.id }, body: { isActive: a.isActive } })
          : api.delete('/api/signing/rules/{id}', { path: { id: a.id } }),
    onSuccess: invalidate(client),
  });
}

export const startBatch = (body: ApiBody<'/api/signing/batch'>) => api.post('/api/signing/batch', { body });

// ---------------------------------------------------------------- library
export const useFolders = (parentId: number | null) =>
  useQuery({
    queryKey: signingKeys.folders(parentId),
    queryFn: ({ signal }) => api.get('/api/folders', { query: { parentId: parentId ?? undefined }, signal }),
  });

export const useDocumentOptions = (enabled = true) =>
  useQuery({
    queryKey: signingKeys.documentOptions(),
    queryFn: ({ signal }) => api.get('/api/folders/options', { signal }),
    enabled,
    staleTime: 5 * 60_000,
  });

export function useDeleteLibraryItem() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, id }: { kind: 'folder' | 'document'; id: number }) =>
      kind === 'folder'
        ? api.delete('/api/folders/{id}', { path: { id } })
        : api.delete('/api/library/documents/{id}', { path: { id } }),
    onSuccess: invalidate(client),
  });
}

export function useUploadVersion() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, file, note }: { id: number; file: File; note?: string }) =>
      uploadFile('/api/library/documents/{id}/versions', { path: { id }, fields: { note }, file }),
    onSuccess: invalidate(client),
  });
}

export function useCreateFolder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'/api/folders'>) => api.post('/api/folders', { body }),
    onSuccess: invalidate(client),
  });
}

export const useDocuments = (query: ApiQuery<'/api/library/documents'>, enabled = true) =>
  useQuery({
    queryKey: signingKeys.documents(query),
    queryFn: ({ signal }) => api.get('/api/library/documents', { query, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });

export function useUploadDocument() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ fields, file }: { fields: FormFields; file: File }) => uploadFile('/api/library/documents', { fields, file }),
    onSuccess: invalidate(client),
  });
}

/** A document's content: PDFs open in the browser's viewer, as an object URL. */
export const fetchDocumentPdf = (id: number) => fetchPdf(apiUrl('/api/library/documents/{id}/content', { path: { id } }));

export const downloadDocument = (id: number) =>
  downloadFile(apiUrl('/api/library/documents/{id}/content', { path: { id }, query: { download: '1' } }));

/** The export of the documents of the folder open, or of every one in reach at the start. */
export const documentsExportPath = (folderId: number | null) =>
  folderId ? apiUrl('/api/folders/{id}/documents/export', { path: { id: folderId } }) : apiUrl('/api/library/documents/export');

/** The command palette: documents of the library by title or file name. */
export const findDocumentsForPalette = (q: string, signal: AbortSignal) =>
  api.get('/api/library/documents', { query: { q, pageSize: 8 }, signal });
