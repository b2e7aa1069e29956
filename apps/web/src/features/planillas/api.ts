import type {
  ContributionHistory,
  EntityContributionHistory,
  ImportRow,
  Planilla,
  PlanillaComment,
  PlanillaComparison,
  PlanillaEmployee,
  PlanillaLine,
  PlanillaLineInput,
  PlanillaOverview,
  PlanillaTransitionRequest,
  PlanillaType,
  PlanillaUpload,
  StateTransitionList,
} from '@aporta/domain';
import type { ListResponse } from '@aporta/domain/list';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { recordHistoryKeys } from '../../components/RecordHistory.tsx';
import { api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { uploadFile } from '../../lib/upload.ts';
import { planillaKeys } from './keys.ts';

type Query = Record<string, string | number | boolean | undefined | null>;

/** Everything the planillas screens show (lists, a planilla, its history, the home queues) is fetched again. */
export const invalidate = () => {
  void queryClient.invalidateQueries({ queryKey: planillaKeys.all });
  void queryClient.invalidateQueries({ queryKey: recordHistoryKeys.all });
  void queryClient.invalidateQueries({ queryKey: ['home'] });
};

/** A list of planillas from one of the list routes (`/api/planillas`, `/api/planilla-search`, `/api/planilla-review-queue`). */
export const planillaListHook = (path: string) => (query: Query) =>
  useQuery({
    queryKey: planillaKeys.list(path, query),
    queryFn: ({ signal }) => api<ListResponse<Planilla>>(path, { query, signal }),
    placeholderData: keepPreviousData,
  });
export const useFindPlanillas = planillaListHook('/api/planillas');
export const useSearchPlanillas = planillaListHook('/api/planilla-search');
export const useReviewQueue = planillaListHook('/api/planilla-review-queue');

/** A planilla; polled while it is being sent (ENVIANDO), until its submit job ends it. */
export const usePlanilla = (id: number | null) =>
  useQuery({
    queryKey: planillaKeys.one(id),
    queryFn: () => api<Planilla>(`/api/planillas/${id}`),
    enabled: !!id,
    refetchInterval: (q) => (q.state.data?.state === 'ENVIANDO' ? 1000 : false),
  });

export const usePlanillaLines = (id: number, query: Query) =>
  useQuery({
    queryKey: planillaKeys.lines(id, query),
    queryFn: ({ signal }) => api<ListResponse<PlanillaLine>>(`/api/planillas/${id}/lines`, { query, signal }),
    placeholderData: keepPreviousData,
  });

export const usePlanillaHistory = (id: number) =>
  useQuery({ queryKey: planillaKeys.history(id), queryFn: () => api<StateTransitionList>(`/api/planillas/${id}/history`) });

export const usePlanillaComments = (id: number) =>
  useQuery({
    queryKey: planillaKeys.comments(id),
    queryFn: () => api<{ items: PlanillaComment[] }>(`/api/planillas/${id}/comments`),
  });

export const usePlanillaComparison = (id: number, enabled = true) =>
  useQuery({
    queryKey: planillaKeys.comparison(id),
    queryFn: () => api<PlanillaComparison>(`/api/planillas/${id}/comparison`),
    enabled,
  });

export const usePlanillaOverview = (period: string | null) =>
  useQuery({
    queryKey: planillaKeys.overview(period),
    queryFn: () => api<PlanillaOverview>('/api/planillas/overview', { query: { period } }),
    placeholderData: keepPreviousData,
  });

export const useContributorContributions = (query: { cui: string | null; from?: string | null; to?: string | null }) =>
  useQuery({
    queryKey: planillaKeys.contributorHistory(query),
    queryFn: () => api<ContributionHistory>('/api/contribution-history/contributor', { query }),
    enabled: !!query.cui,
  });

export const useEntityContributions = (query: { entityId: number | null; from?: string | null; to?: string | null }) =>
  useQuery({
    queryKey: planillaKeys.entityHistory(query),
    queryFn: () => api<EntityContributionHistory>('/api/contribution-history/entity', { query }),
    enabled: !!query.entityId,
  });

export const usePlanillaEmployees = (query: Query) =>
  useQuery({
    queryKey: planillaKeys.employees(query),
    queryFn: ({ signal }) => api<ListResponse<PlanillaEmployee>>('/api/planilla-employees', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useCreatePlanilla = () =>
  useMutation({
    mutationFn: (body: { entityId: number; period: string; type: PlanillaType; copyPrevious: boolean }) =>
      api<Planilla>('/api/planillas', { method: 'POST', body }),
    onSuccess: invalidate,
  });

export const useSaveLine = (planillaId: number) =>
  useMutation({
    mutationFn: ({ lineId, body }: { lineId: number | null; body: PlanillaLineInput }) =>
      lineId
        ? api<PlanillaLine>(`/api/planillas/${planillaId}/lines/${lineId}`, { method: 'PUT', body })
        : api<PlanillaLine>(`/api/planillas/${planillaId}/lines`, { method: 'POST', body }),
    onSuccess: invalidate,
  });

export const useRemoveLine = (planillaId: number) =>
  useMutation({
    mutationFn: (lineId: number) => api<null>(`/api/planillas/${planillaId}/lines/${lineId}`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });

export const useTransitionPlanilla = (planillaId: number) =>
  useMutation({
    mutationFn: (body: PlanillaTransitionRequest) =>
      api<Planilla>(`/api/planillas/${planillaId}/transitions`, { method: 'POST', body }),
    onSuccess: invalidate,
  });

/**
 * An upload's batch, followed while it is being validated or committed (both background jobs the user
 * may leave and come back to); once CONFIRMADO it names the planilla written.
 */
export const usePlanillaUpload = (id: string | null, uploading: boolean) =>
  useQuery({
    queryKey: planillaKeys.upload(id),
    queryFn: () => api<PlanillaUpload>(`/api/planilla-uploads/${id}`),
    enabled: !!id && !uploading,
    refetchInterval: (q) => (q.state.data?.status === 'VALIDANDO' || q.state.data?.status === 'CONFIRMANDO' ? 700 : false),
    retry: false,
  });

/** The caller's unfinished planilla uploads (validating, waiting for confirmation, committing, failed). */
export const useOpenPlanillaUploads = () =>
  useQuery({ queryKey: planillaKeys.openUploads(), queryFn: () => api<PlanillaUpload[]>('/api/planilla-uploads') });

export const usePlanillaUploadRows = (id: string, kind: 'valid' | 'error', page: number) =>
  useQuery({
    queryKey: planillaKeys.uploadRows(id, kind, page),
    queryFn: () => api<ListResponse<ImportRow>>(`/api/planilla-uploads/${id}/rows`, { query: { kind, page, pageSize: 10 } }),
    placeholderData: keepPreviousData,
  });

/** Asks for the commit: the batch answers CONFIRMANDO with its job, and is followed until it ends. */
export const useCommitUpload = () =>
  useMutation({
    mutationFn: (id: string) => api<PlanillaUpload>(`/api/planilla-uploads/${id}/commit`, { method: 'POST' }),
    onSuccess: (batch) => queryClient.setQueryData(planillaKeys.upload(batch.id), batch),
  });

export const useDiscardUpload = () =>
  useMutation({
    mutationFn: (id: string) => api<PlanillaUpload>(`/api/planilla-uploads/${id}/discard`, { method: 'POST' }),
    onSuccess: invalidate,
  });

/** Sends a planilla file with its upload progress. */
export const uploadPlanillaFile = (
  file: File,
  query: { id: string; entityId: number; period: string; type: PlanillaType },
  onProgress: (fraction: number) => void,
) => uploadFile<PlanillaUpload>('/api/planilla-uploads', query, file, onProgress);
