import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type ApiAnswer, type ApiBody, type ApiQuery, api, apiUrl } from '../../lib/api.ts';
import { downloadFile } from '../../lib/download.ts';
import { queryClient } from '../../lib/query.ts';
import { getToken } from '../../lib/session.ts';
import { uploadFile } from '../../lib/upload.ts';
import { workflowKeys } from './keys.ts';

/** What saving a form sends (fields of the designer, or a JSON Schema). */
export type FormSaveBody = ApiBody<'/api/wf/forms', 'post'>;
/** What saving a flow sends. */
export type FlowSaveBody = ApiBody<'/api/wf/flows', 'post'>;

const invalidate = () => {
  void queryClient.invalidateQueries({ queryKey: workflowKeys.all });
  void queryClient.invalidateQueries({ queryKey: ['home'] });
};

/** The address of a multipart upload route (a POST the typed client cannot send) with its parameters. */

// ─── Forms ─────────────────────────────────────────────────────────────────────────────────────────
export const useForms = (query: ApiQuery<'/api/wf/forms'>) =>
  useQuery({
    queryKey: workflowKeys.forms(query),
    queryFn: ({ signal }) => api.get('/api/wf/forms', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useFormDefinition = (id: number | null) =>
  useQuery({
    queryKey: workflowKeys.form(id ?? 0),
    queryFn: () => api.get('/api/wf/forms/{id}', { path: { id: id ?? 0 } }),
    enabled: !!id,
  });

export const useSaveForm = () =>
  useMutation({
    mutationFn: ({ id, data }: { id: number | null; data: FormSaveBody }) =>
      id ? api.put('/api/wf/forms/{id}', { path: { id }, body: data }) : api.post('/api/wf/forms', { body: data }),
    onSuccess: invalidate,
  });

export const useFormVersionAction = () =>
  useMutation({
    mutationFn: ({ id, version, action }: { id: number; version: number; action: 'publish' | 'retire' }) =>
      action === 'publish'
        ? api.post('/api/wf/forms/{id}/versions/{version}/publish', { path: { id, version } })
        : api.post('/api/wf/forms/{id}/versions/{version}/retire', { path: { id, version } }),
    onSuccess: invalidate,
  });

export const useDeleteForm = () =>
  useMutation({ mutationFn: (id: number) => api.delete('/api/wf/forms/{id}', { path: { id } }), onSuccess: invalidate });

// ─── Flows ─────────────────────────────────────────────────────────────────────────────────────────
export const useFlows = (query: ApiQuery<'/api/wf/flows'>) =>
  useQuery({
    queryKey: workflowKeys.flows(query),
    queryFn: ({ signal }) => api.get('/api/wf/flows', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useFlow = (id: number | null) =>
  useQuery({
    queryKey: workflowKeys.flow(id ?? 0),
    queryFn: () => api.get('/api/wf/flows/{id}', { path: { id: id ?? 0 } }),
    enabled: !!id,
  });

export const useFlowOptions = () =>
  useQuery({ queryKey: workflowKeys.flowOptions(), queryFn: () => api.get('/api/wf/flows/options') });

export const useSaveFlow = () =>
  useMutation({
    mutationFn: ({ id, data }: { id: number | null; data: FlowSaveBody }) =>
      id ? api.put('/api/wf/flows/{id}', { path: { id }, body: data }) : api.post('/api/wf/flows', { body: data }),
    onSuccess: invalidate,
  });

export const usePublishFlow = () =>
  useMutation({
    mutationFn: ({ id, version }: { id: number; version: number }) =>
      api.post('/api/wf/flows/{id}/versions/{version}/publish', { path: { id, version } }),
    onSuccess: invalidate,
  });

export const useValidateFlow = () =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/wf/flows/validate'>) => api.post('/api/wf/flows/validate', { body }),
  });

// ─── Requests ──────────────────────────────────────────────────────────────────────────────────────
export const useRequests = (query: ApiQuery<'/api/sig/items'>) =>
  useQuery({
    queryKey: workflowKeys.requests('/api/sig/items', query),
    queryFn: ({ signal }) => api.get('/api/sig/items', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useSigQuery = (query: ApiQuery<'/api/sig/query'>) =>
  useQuery({
    queryKey: workflowKeys.requests('/api/sig/query', query),
    queryFn: ({ signal }) => api.get('/api/sig/query', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useSigCounts = (query: ApiQuery<'/api/sig/query/counts'>) =>
  useQuery({
    queryKey: workflowKeys.counts(query),
    queryFn: ({ signal }) => api.get('/api/sig/query/counts', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useQueryFlows = () =>
  useQuery({ queryKey: workflowKeys.queryFlows(), queryFn: () => api.get('/api/sig/query/flows') });

export const useSigOptions = () => useQuery({ queryKey: workflowKeys.options(), queryFn: () => api.get('/api/sig/options') });

export const useRequest = (id: number) =>
  useQuery({ queryKey: workflowKeys.request(id), queryFn: () => api.get('/api/sig/items/{id}', { path: { id } }) });

export const useCreateRequest = () =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/sig/items'>) => api.post('/api/sig/items', { body }),
    onSuccess: invalidate,
  });

const setRequest = (r: ApiAnswer<'/api/sig/items/{id}'>) => {
  queryClient.setQueryData(workflowKeys.request(r.id), r);
  invalidate();
};

export const useUpdateRequest = (id: number) =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/sig/items/{id}', 'put'>) => api.put('/api/sig/items/{id}', { path: { id }, body }),
    onSuccess: setRequest,
  });

export const useTransitionRequest = (id: number) =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/sig/items/{id}/transitions'>) =>
      api.post('/api/sig/items/{id}/transitions', { path: { id }, body }),
    onSuccess: setRequest,
  });

export const useCommentRequest = (id: number) =>
  useMutation({
    mutationFn: (comment: string) => api.post('/api/sig/items/{id}/comments', { path: { id }, body: { comment } }),
    onSuccess: setRequest,
  });

export const useAttachToRequest = (id: number) =>
  useMutation({
    mutationFn: (file: File) => uploadFile('/api/sig/items/{id}/attachments', { path: { id }, file }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: workflowKeys.request(id) }),
  });

/** The file of a form's file field, uploaded before the request exists. */
export const uploadFormFile = (file: File) => uploadFile('/api/sig/uploads', { file });

/** Downloads one document of a request (a file field's or an attachment). */
export const downloadRequestDocument = (id: number, documentId: number) =>
  downloadFile(apiUrl('/api/sig/items/{id}/documents/{documentId}', { path: { id, documentId } }));

/** A catalogue's options for a form's select: only with a session (the builder's preview signed out shows none). */
export const useCatalogOptions = (name: string | undefined) =>
  useQuery({
    queryKey: workflowKeys.catalog(name ?? ''),
    queryFn: () => api.get('/api/sig/catalogs/{catalog}', { path: { catalog: name ?? '' } }),
    enabled: !!name && !!getToken(),
    staleTime: 5 * 60_000,
  });
