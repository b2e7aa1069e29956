import type {
  FlowDefinition,
  FlowDetail,
  FlowOptions,
  FlowSummary,
  FormDetail,
  FormSave,
  FormSummary,
  SigCounts,
  SigOptions,
  SigRequest,
  SigRequestDetail,
} from '@aporta/domain';
import type { ListResponse } from '@aporta/domain/list';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { getToken } from '../../lib/session.ts';
import { uploadFile } from '../../lib/upload.ts';
import { workflowKeys } from './keys.ts';

type Query = Record<string, string | number | boolean | undefined | null>;

const invalidate = () => {
  void queryClient.invalidateQueries({ queryKey: workflowKeys.all });
  void queryClient.invalidateQueries({ queryKey: ['home'] });
};

// ─── Forms ─────────────────────────────────────────────────────────────────────────────────────────
export const useForms = (query: Query) =>
  useQuery({
    queryKey: workflowKeys.forms(query),
    queryFn: ({ signal }) => api<ListResponse<FormSummary>>('/api/wf/forms', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useForm = (id: number | null) =>
  useQuery({ queryKey: workflowKeys.form(id ?? 0), queryFn: () => api<FormDetail>(`/api/wf/forms/${id}`), enabled: !!id });

export const useSaveForm = () =>
  useMutation({
    mutationFn: ({ id, data }: { id: number | null; data: FormSave }) =>
      id
        ? api<FormDetail>(`/api/wf/forms/${id}`, { method: 'PUT', body: data })
        : api<FormDetail>('/api/wf/forms', { method: 'POST', body: data }),
    onSuccess: invalidate,
  });

export const useFormVersionAction = () =>
  useMutation({
    mutationFn: ({ id, version, action }: { id: number; version: number; action: 'publish' | 'retire' }) =>
      api<FormDetail>(`/api/wf/forms/${id}/versions/${version}/${action}`, { method: 'POST' }),
    onSuccess: invalidate,
  });

export const useDeleteForm = () =>
  useMutation({ mutationFn: (id: number) => api<void>(`/api/wf/forms/${id}`, { method: 'DELETE' }), onSuccess: invalidate });

// ─── Flows ─────────────────────────────────────────────────────────────────────────────────────────
export const useFlows = (query: Query) =>
  useQuery({
    queryKey: workflowKeys.flows(query),
    queryFn: ({ signal }) => api<ListResponse<FlowSummary>>('/api/wf/flows', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useFlow = (id: number | null) =>
  useQuery({ queryKey: workflowKeys.flow(id ?? 0), queryFn: () => api<FlowDetail>(`/api/wf/flows/${id}`), enabled: !!id });

export const useFlowOptions = () =>
  useQuery({ queryKey: workflowKeys.flowOptions(), queryFn: () => api<FlowOptions>('/api/wf/flows/options') });

export interface FlowSaveInput {
  title: string;
  description?: string;
  formId: number;
  definition: FlowDefinition;
}
export const useSaveFlow = () =>
  useMutation({
    mutationFn: ({ id, data }: { id: number | null; data: FlowSaveInput }) =>
      id
        ? api<FlowDetail>(`/api/wf/flows/${id}`, { method: 'PUT', body: data })
        : api<FlowDetail>('/api/wf/flows', { method: 'POST', body: data }),
    onSuccess: invalidate,
  });

export const usePublishFlow = () =>
  useMutation({
    mutationFn: ({ id, version }: { id: number; version: number }) =>
      api<FlowDetail>(`/api/wf/flows/${id}/versions/${version}/publish`, { method: 'POST' }),
    onSuccess: invalidate,
  });

export const useValidateFlow = () =>
  useMutation({
    mutationFn: (body: { formId: number; definition: FlowDefinition }) =>
      api<{ problems: { path: string; message: string }[] }>('/api/wf/flows/validate', { method: 'POST', body }),
  });

// ─── Requests ──────────────────────────────────────────────────────────────────────────────────────
export const useRequests = (query: Query) =>
  useQuery({
    queryKey: workflowKeys.requests('/api/sig/items', query),
    queryFn: ({ signal }) => api<ListResponse<SigRequest>>('/api/sig/items', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useSigQuery = (query: Query) =>
  useQuery({
    queryKey: workflowKeys.requests('/api/sig/query', query),
    queryFn: ({ signal }) => api<ListResponse<SigRequest>>('/api/sig/query', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useSigCounts = (query: Query) =>
  useQuery({
    queryKey: workflowKeys.counts(query),
    queryFn: ({ signal }) => api<SigCounts>('/api/sig/query/counts', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useQueryFlows = () =>
  useQuery({ queryKey: workflowKeys.queryFlows(), queryFn: () => api<SigOptions>('/api/sig/query/flows') });

export const useSigOptions = () =>
  useQuery({ queryKey: workflowKeys.options(), queryFn: () => api<SigOptions>('/api/sig/options') });

export const useRequest = (id: number) =>
  useQuery({ queryKey: workflowKeys.request(id), queryFn: () => api<SigRequestDetail>(`/api/sig/items/${id}`) });

export const useCreateRequest = () =>
  useMutation({
    mutationFn: (body: { flowId: number; entityId: number | null; data: Record<string, unknown> }) =>
      api<SigRequestDetail>('/api/sig/items', { method: 'POST', body }),
    onSuccess: invalidate,
  });

const setRequest = (r: SigRequestDetail) => {
  queryClient.setQueryData(workflowKeys.request(r.id), r);
  invalidate();
};

export const useUpdateRequest = (id: number) =>
  useMutation({
    mutationFn: (body: { data: Record<string, unknown>; expected?: string }) =>
      api<SigRequestDetail>(`/api/sig/items/${id}`, { method: 'PUT', body }),
    onSuccess: setRequest,
  });

export const useTransitionRequest = (id: number) =>
  useMutation({
    mutationFn: (body: { to: string; comment?: string | null; expected?: string }) =>
      api<SigRequestDetail>(`/api/sig/items/${id}/transitions`, { method: 'POST', body }),
    onSuccess: setRequest,
  });

export const useCommentRequest = (id: number) =>
  useMutation({
    mutationFn: (comment: string) =>
      api<SigRequestDetail>(`/api/sig/items/${id}/comments`, { method: 'POST', body: { comment } }),
    onSuccess: setRequest,
  });

export const useAttachToRequest = (id: number) =>
  useMutation({
    mutationFn: (file: File) => uploadFile<{ documentId: number }>(`/api/sig/items/${id}/attachments`, undefined, file, () => {}),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: workflowKeys.request(id) }),
  });

/** The file of a form's file field, uploaded before the request exists. */
export const uploadFormFile = (file: File) =>
  uploadFile<{ documentId: number; filename: string }>('/api/sig/uploads', undefined, file, () => {});

/** A catalogue's options for a form's select: only with a session (the builder's preview signed out shows none). */
export const useCatalogOptions = (name: string | undefined) =>
  useQuery({
    queryKey: workflowKeys.catalog(name ?? ''),
    queryFn: () => api<{ items: { value: string; label: string }[] }>(`/api/sig/catalogs/${name}`),
    enabled: !!name && !!getToken(),
    staleTime: 5 * 60_000,
  });
