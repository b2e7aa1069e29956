import { keepPreviousData, skipToken, useMutation, useQuery } from '@tanstack/react-query';
import { recordHistoryKeys } from '../../components/RecordHistory.tsx';
import { type ApiAnswer, type ApiBody, type ApiQuery, api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { uploadFile } from '../../lib/upload.ts';
import { contributorImportKeys, contributorKeys, cuiApprovalKeys } from './keys.ts';

/** A contributor as the API answers it. */
export type Contributor = ApiAnswer<'/api/contributors/{id}'>;
/** What creating a contributor takes (an update takes the same, its CUI optional). */
export type ContributorBody = ApiBody<'/api/contributors', 'post'>;
/** One CUI approval request, with the actions the user may take. */
export type CuiApproval = ApiAnswer<'/api/cui-approvals'>['items'][number];
/** The query of the CUI approvals list. */
export type CuiApprovalQuery = ApiQuery<'/api/cui-approvals'>;
/** A contributors bulk upload's batch. */
export type ContributorImport = ApiAnswer<'/api/contributor-imports/{id}'>;
/** One row (valid or exception) of a bulk upload. */
export type ContributorImportRow = ApiAnswer<'/api/contributor-imports/{id}/rows'>['items'][number];
/** The contributor reports, each a route of its own (all with the same query and answer) and its export. */
const reportPaths = {
  general: '/api/contributor-reports/general',
  'by-municipality': '/api/contributor-reports/by-municipality',
  'by-type': '/api/contributor-reports/by-type',
} as const;
export const reportExportPaths = {
  general: '/api/contributor-reports/general/export',
  'by-municipality': '/api/contributor-reports/by-municipality/export',
  'by-type': '/api/contributor-reports/by-type/export',
} as const;
export type ContributorReportKind = keyof typeof reportPaths;
/** The filters of a contributor report. */
export type ContributorReportQuery = ApiQuery<'/api/contributor-reports/general'>;

/** Contributors, CUI requests and histories changed (a save, an approval, a committed upload). */
export const invalidate = () => {
  void queryClient.invalidateQueries({ queryKey: contributorKeys.all });
  void queryClient.invalidateQueries({ queryKey: cuiApprovalKeys.all });
  void queryClient.invalidateQueries({ queryKey: recordHistoryKeys.all });
};

export const useFindContributors = (query: ApiQuery<'/api/contributors'>) =>
  useQuery({
    queryKey: contributorKeys.list(query),
    queryFn: ({ signal }) => api.get('/api/contributors', { query, signal }),
    placeholderData: keepPreviousData,
  });

/** Command palette: contributors by CUI (exact or prefix) or name. The shell's palette registers it. */
export const searchContributors = (q: string, signal: AbortSignal) =>
  api.get('/api/contributors/search', { query: { q }, signal });

export const useContributor = (id: number | null) =>
  useQuery({
    queryKey: contributorKeys.one(id),
    queryFn: id ? () => api.get('/api/contributors/{id}', { path: { id } }) : skipToken,
  });

/** The contributor form's choices, opened by the form's own permission (create or update contributors). */
export const useContributorFormOptions = () =>
  useQuery({
    queryKey: contributorKeys.formOptions(),
    queryFn: () => api.get('/api/contributors/form-options'),
    staleTime: 300_000,
  });

export const useContributorOverview = () =>
  useQuery({ queryKey: contributorKeys.overview(), queryFn: () => api.get('/api/contributors/overview') });

/** RENAP data for a CUI (logged on the server); only runs for a complete, valid CUI. */
export const useRenapCheck = (cui: string | null) =>
  useQuery({
    queryKey: contributorKeys.renap(cui),
    queryFn: cui ? () => api.get('/api/contributors/renap/{cui}', { path: { cui } }) : skipToken,
    staleTime: 60_000,
    retry: false,
  });

export const useCreateContributor = () =>
  useMutation({
    mutationFn: (body: ContributorBody) => api.post('/api/contributors', { body }),
    onSuccess: invalidate,
  });

export const useUpdateContributor = (id: number) =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/contributors/{id}', 'put'>) => api.put('/api/contributors/{id}', { path: { id }, body }),
    onSuccess: invalidate,
  });

/** A contributor report with its filters. */
export const useContributorReport = (kind: ContributorReportKind, filters: ContributorReportQuery) =>
  useQuery({
    queryKey: contributorKeys.report(kind, filters),
    queryFn: () => api.get(reportPaths[kind], { query: filters }),
    placeholderData: keepPreviousData,
  });

export const useCuiApprovals = (query: CuiApprovalQuery) =>
  useQuery({
    queryKey: cuiApprovalKeys.list(query),
    queryFn: () => api.get('/api/cui-approvals', { query }),
    placeholderData: keepPreviousData,
  });

export const useCuiReview = (id: number | null) =>
  useQuery({
    queryKey: cuiApprovalKeys.review(id),
    queryFn: id ? () => api.get('/api/cui-approvals/{id}/review', { path: { id } }) : skipToken,
    retry: false,
  });

export const useCuiHistory = (id: number) =>
  useQuery({
    queryKey: cuiApprovalKeys.history(id),
    queryFn: () => api.get('/api/cui-approvals/{id}/history', { path: { id } }),
  });

/** Approve or reject; `expected` is the state the user reviewed, so a request decided meanwhile answers 409. */
export const useDecideCui = () =>
  useMutation({
    mutationFn: ({ id, ...body }: ApiBody<'/api/cui-approvals/{id}/transitions'> & { id: number }) =>
      api.post('/api/cui-approvals/{id}/transitions', { path: { id }, body }),
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
    queryFn: id ? () => api.get('/api/contributor-imports/{id}', { path: { id } }) : skipToken,
    // Followed while its validation or its commit (background jobs) runs.
    refetchInterval: (q) =>
      uploading || q.state.data?.status === 'VALIDANDO' || q.state.data?.status === 'CONFIRMANDO' ? 700 : false,
    retry: false,
  });

/** The caller's unfinished uploads (validating, waiting for confirmation, failed). */
export const useOpenImports = () =>
  useQuery({
    queryKey: contributorImportKeys.open(),
    queryFn: () => api.get('/api/contributor-imports'),
  });

export const useImportRows = (id: string | null, kind: 'valid' | 'error', page: number) =>
  useQuery({
    queryKey: contributorImportKeys.rows(id, kind, page),
    queryFn: id
      ? () => api.get('/api/contributor-imports/{id}/rows', { path: { id }, query: { kind, page, pageSize: 10 } })
      : skipToken,
    placeholderData: keepPreviousData,
  });

/** Asks for the commit: the batch answers CONFIRMANDO with its job, and is followed until it ends. */
export const useCommitImport = () =>
  useMutation({
    mutationFn: (id: string) => api.post('/api/contributor-imports/{id}/commit', { path: { id } }),
    onSuccess: (batch) => queryClient.setQueryData(contributorImportKeys.one(batch.id), batch),
  });

export const useDiscardImport = () =>
  useMutation({
    mutationFn: (id: string) => api.post('/api/contributor-imports/{id}/discard', { path: { id } }),
  });

/**
 * Uploads a file with XMLHttpRequest, the one browser API that reports upload progress. The id is
 * chosen here so the validation progress can be polled while the request runs.
 */
export const uploadImport = (file: File, id: string, onProgress: (fraction: number) => void) =>
  uploadFile('/api/contributor-imports', { query: { id }, file, onProgress });
