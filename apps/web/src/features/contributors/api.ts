import type {
  Contributor,
  ContributorImport,
  ContributorInput,
  ContributorListQuery,
  ContributorOptions,
  ContributorOverview,
  ContributorRenapLookup,
  ContributorSaveResponse,
  CuiApproval,
  CuiDecision,
  CuiReview,
  ImportRow,
  StateTransitionList,
} from '@aporta/domain';
import type { ListResponse } from '@aporta/domain/list';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { recordHistoryKeys } from '../../components/RecordHistory.tsx';
import { api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { uploadFile } from '../../lib/upload.ts';
import { contributorImportKeys, contributorKeys, cuiApprovalKeys } from './keys.ts';

type Query = Record<string, string | number | boolean | undefined | null>;

/** Contributors, CUI requests and histories changed (a save, an approval, a committed upload). */
export const invalidate = () => {
  void queryClient.invalidateQueries({ queryKey: contributorKeys.all });
  void queryClient.invalidateQueries({ queryKey: cuiApprovalKeys.all });
  void queryClient.invalidateQueries({ queryKey: recordHistoryKeys.all });
};

export const useFindContributors = (query: Partial<ContributorListQuery>) =>
  useQuery({
    queryKey: contributorKeys.list(query),
    queryFn: ({ signal }) => api<ListResponse<Contributor>>('/api/contributors', { query: query as Query, signal }),
    placeholderData: keepPreviousData,
  });

export const useContributor = (id: number | null) =>
  useQuery({
    queryKey: contributorKeys.one(id),
    queryFn: () => api<Contributor>(`/api/contributors/${id}`),
    enabled: !!id,
  });

/** The contributor form's choices, opened by the form's own permission (create or update contributors). */
export const useContributorFormOptions = () =>
  useQuery({
    queryKey: contributorKeys.formOptions(),
    queryFn: () => api<ContributorOptions>('/api/contributors/form-options'),
    staleTime: 300_000,
  });

export const useContributorOverview = () =>
  useQuery({ queryKey: contributorKeys.overview(), queryFn: () => api<ContributorOverview>('/api/contributors/overview') });

/** RENAP data for a CUI (logged on the server); only runs for a complete, valid CUI. */
export const useRenapCheck = (cui: string | null) =>
  useQuery({
    queryKey: contributorKeys.renap(cui),
    queryFn: () => api<ContributorRenapLookup>(`/api/contributors/renap/${cui}`),
    enabled: !!cui,
    staleTime: 60_000,
    retry: false,
  });

/** Command palette: contributors by CUI (exact or prefix) or name. The shell's palette registers it. */
export const useCreateContributor = () =>
  useMutation({
    mutationFn: (body: ContributorInput) => api<ContributorSaveResponse>('/api/contributors', { method: 'POST', body }),
    onSuccess: invalidate,
  });

export const useUpdateContributor = (id: number) =>
  useMutation({
    mutationFn: (body: ContributorInput) => api<ContributorSaveResponse>(`/api/contributors/${id}`, { method: 'PUT', body }),
    onSuccess: invalidate,
  });

export const useCuiApprovals = (query: Query) =>
  useQuery({
    queryKey: cuiApprovalKeys.list(query),
    queryFn: () => api<ListResponse<CuiApproval>>('/api/cui-approvals', { query }),
    placeholderData: keepPreviousData,
  });

export const useCuiReview = (id: number | null) =>
  useQuery({
    queryKey: cuiApprovalKeys.review(id),
    queryFn: () => api<CuiReview>(`/api/cui-approvals/${id}/review`),
    enabled: !!id,
    retry: false,
  });

export const useCuiHistory = (id: number) =>
  useQuery({
    queryKey: cuiApprovalKeys.history(id),
    queryFn: () => api<StateTransitionList>(`/api/cui-approvals/${id}/history`),
  });

/** Approve or reject; `expected` is the state the user reviewed, so a request decided meanwhile answers 409. */
export const useDecideCui = () =>
  useMutation({
    mutationFn: ({ id, ...body }: CuiDecision & { id: number }) =>
      api<CuiApproval>(`/api/cui-approvals/${id}/transitions`, { method: 'POST', body }),
    // Also after a 409: the list then shows the state someone else left it in.
    onSettled: invalidate,
  });

/**
 * An upload's batch, polled while it is being read or validated (and while `uploading`, before the
 * batch exists): the validation runs as a background job the user may leave and come back to.
 */
export const useImport = (id: string | null, uploading: boolean) =>
  useQuery({
    queryKey: contributorImportKeys.one(id),
    queryFn: () => api<ContributorImport>(`/api/contributor-imports/${id}`),
    enabled: !!id,
    // Followed while its validation or its commit (background jobs) runs.
    refetchInterval: (q) =>
      uploading || q.state.data?.status === 'VALIDANDO' || q.state.data?.status === 'CONFIRMANDO' ? 700 : false,
    retry: false,
  });

/** The caller's unfinished uploads (validating, waiting for confirmation, failed). */
export const useOpenImports = () =>
  useQuery({
    queryKey: contributorImportKeys.open(),
    queryFn: () => api<ContributorImport[]>('/api/contributor-imports'),
  });

export const useImportRows = (id: string | null, kind: 'valid' | 'error', page: number) =>
  useQuery({
    queryKey: contributorImportKeys.rows(id, kind, page),
    queryFn: () => api<ListResponse<ImportRow>>(`/api/contributor-imports/${id}/rows`, { query: { kind, page, pageSize: 10 } }),
    enabled: !!id,
    placeholderData: keepPreviousData,
  });

/** Asks for the commit: the batch answers CONFIRMANDO with its job, and is followed until it ends. */
export const useCommitImport = () =>
  useMutation({
    mutationFn: (id: string) => api<ContributorImport>(`/api/contributor-imports/${id}/commit`, { method: 'POST' }),
    onSuccess: (batch) => queryClient.setQueryData(contributorImportKeys.one(batch.id), batch),
  });

export const useDiscardImport = () =>
  useMutation({
    mutationFn: (id: string) => api<ContributorImport>(`/api/contributor-imports/${id}/discard`, { method: 'POST' }),
  });

/**
 * Uploads a file with XMLHttpRequest, the one browser API that reports upload progress. The id is
 * chosen here so the validation progress can be polled while the request runs.
 */
export const uploadImport = (file: File, id: string, onProgress: (fraction: number) => void): Promise<ContributorImport> =>
  uploadFile<ContributorImport>('/api/contributor-imports', { id }, file, onProgress);
