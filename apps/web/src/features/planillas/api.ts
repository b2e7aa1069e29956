import { keepPreviousData, skipToken, useMutation, useQuery } from '@tanstack/react-query';
import { recordHistoryKeys } from '../../components/RecordHistory.tsx';
import { type ApiAnswer, type ApiBody, type ApiQuery, api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { uploadFile } from '../../lib/upload.ts';
import { planillaKeys } from './keys.ts';

/** The routes that answer a list of planillas, all with the same query and rows. */
type PlanillaListPath = '/api/planillas' | '/api/planilla-search' | '/api/planilla-review-queue' | '/api/back-pay';
/** The query of a planilla list (filters, `q`, `sort`, page). */
export type PlanillaListQuery = ApiQuery<'/api/planillas'>;
/** One planilla as the API answers it. */
export type Planilla = ApiAnswer<'/api/planillas/{id}'>;
/** One line of a planilla. */
export type PlanillaLine = ApiAnswer<'/api/planillas/{id}/lines'>['items'][number];
/** A planilla beside its previous period (new, missing, salary changes, RENAP). */
export type PlanillaComparison = ApiAnswer<'/api/planillas/{id}/comparison'>;
/** The body that adds or corrects a line. */
export type PlanillaLineBody = ApiBody<'/api/planillas/{id}/lines', 'post'>;
/** A planilla upload's batch. */
export type PlanillaUpload = ApiAnswer<'/api/planilla-uploads/{id}'>;
/** One row (valid or exception) of an upload. */
export type PlanillaUploadRow = ApiAnswer<'/api/planilla-uploads/{id}/rows'>['items'][number];
/** One share (laboral or patronal) of a month of a contributor's history: paid or not, and its order. */
export type ContributionShare = NonNullable<
  ApiAnswer<'/api/contribution-history/contributor'>['months'][number]['employeeShare']
>;
/** One declared employee (the employees list). */
export type PlanillaEmployee = ApiAnswer<'/api/planilla-employees'>['items'][number];

/** Everything the planillas screens show (lists, a planilla, its history, the home queues) is fetched again. */
export const invalidate = () => {
  void queryClient.invalidateQueries({ queryKey: planillaKeys.all });
  void queryClient.invalidateQueries({ queryKey: recordHistoryKeys.all });
  void queryClient.invalidateQueries({ queryKey: ['home'] });
};

/** A list of planillas from one of the list routes (`/api/planillas`, `/api/planilla-search`, `/api/planilla-review-queue`, `/api/back-pay`). */
const planillaListHook = (path: PlanillaListPath) => (query: PlanillaListQuery) =>
  useQuery({
    queryKey: planillaKeys.list(path, query),
    queryFn: ({ signal }) => api.get(path, { query, signal }),
    placeholderData: keepPreviousData,
  });
export const useFindPlanillas = planillaListHook('/api/planillas');
export const useSearchPlanillas = planillaListHook('/api/planilla-search');
export const useReviewQueue = planillaListHook('/api/planilla-review-queue');
export const useBackPay = planillaListHook('/api/back-pay');

/** Command palette: the first planillas whose entity or period match `q`. */
export const findPlanillasForPalette = (q: string, signal: AbortSignal) =>
  api.get('/api/planillas', { query: { q, pageSize: 8 }, signal });

/** A planilla; polled while it is being sent (ENVIANDO), until its submit job ends it. */
export const usePlanilla = (id: number | null) =>
  useQuery({
    queryKey: planillaKeys.one(id),
    queryFn: id ? () => api.get('/api/planillas/{id}', { path: { id } }) : skipToken,
    refetchInterval: (q) => (q.state.data?.state === 'ENVIANDO' ? 1000 : false),
  });

export const usePlanillaLines = (id: number, query: ApiQuery<'/api/planillas/{id}/lines'>) =>
  useQuery({
    queryKey: planillaKeys.lines(id, query),
    queryFn: ({ signal }) => api.get('/api/planillas/{id}/lines', { path: { id }, query, signal }),
    placeholderData: keepPreviousData,
  });

export const usePlanillaHistory = (id: number) =>
  useQuery({ queryKey: planillaKeys.history(id), queryFn: () => api.get('/api/planillas/{id}/history', { path: { id } }) });

export const usePlanillaComments = (id: number) =>
  useQuery({
    queryKey: planillaKeys.comments(id),
    queryFn: () => api.get('/api/planillas/{id}/comments', { path: { id } }),
  });

export const usePlanillaComparison = (id: number, enabled = true) =>
  useQuery({
    queryKey: planillaKeys.comparison(id),
    queryFn: () => api.get('/api/planillas/{id}/comparison', { path: { id } }),
    enabled,
  });

/** The comparison, from the cache when the page already has it: what the approval's confirmation tells. */
export const fetchPlanillaComparison = (id: number) =>
  queryClient.ensureQueryData({
    queryKey: planillaKeys.comparison(id),
    queryFn: () => api.get('/api/planillas/{id}/comparison', { path: { id } }),
  });

export const usePlanillaOverview = (period: string | null) =>
  useQuery({
    queryKey: planillaKeys.overview(period),
    queryFn: () => api.get('/api/planillas/overview', { query: { period: period ?? undefined } }),
    placeholderData: keepPreviousData,
  });

/** A contributor's months by CUI; nothing is asked before there is a CUI. */
export const useContributorContributions = (query: { cui: string | null; from?: string; to?: string }) => {
  const { cui } = query;
  return useQuery({
    queryKey: planillaKeys.contributorHistory(query),
    queryFn: cui ? () => api.get('/api/contribution-history/contributor', { query: { ...query, cui } }) : skipToken,
  });
};

/** An entity's months; nothing is asked before an entity is chosen. */
export const useEntityContributions = (query: { entityId: number | null; from?: string; to?: string }) => {
  const { entityId } = query;
  return useQuery({
    queryKey: planillaKeys.entityHistory(query),
    queryFn: entityId
      ? () => api.get('/api/contribution-history/entity', { query: { ...query, entityId: String(entityId) } })
      : skipToken,
  });
};

export const usePlanillaEmployees = (query: ApiQuery<'/api/planilla-employees'>) =>
  useQuery({
    queryKey: planillaKeys.employees(query),
    queryFn: ({ signal }) => api.get('/api/planilla-employees', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useCreatePlanilla = () =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/planillas', 'post'>) => api.post('/api/planillas', { body }),
    onSuccess: invalidate,
  });

/** A back-pay resolution and its SALARIOS_CAIDOS planilla. */
export const useCreateBackPay = () =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/back-pay', 'post'>) => api.post('/api/back-pay', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: planillaKeys.all }),
  });

export const useSaveLine = (planillaId: number) =>
  useMutation({
    mutationFn: ({ lineId, body }: { lineId: number | null; body: PlanillaLineBody }) =>
      lineId
        ? api.put('/api/planillas/{id}/lines/{lineId}', { path: { id: planillaId, lineId }, body })
        : api.post('/api/planillas/{id}/lines', { path: { id: planillaId }, body }),
    onSuccess: invalidate,
  });

export const useRemoveLine = (planillaId: number) =>
  useMutation({
    mutationFn: (lineId: number) => api.delete('/api/planillas/{id}/lines/{lineId}', { path: { id: planillaId, lineId } }),
    onSuccess: invalidate,
  });

export const useTransitionPlanilla = (planillaId: number) =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/planillas/{id}/transitions'>) =>
      api.post('/api/planillas/{id}/transitions', { path: { id: planillaId }, body }),
    onSuccess: invalidate,
  });

/**
 * An upload's batch, followed while it is being validated or committed (both background jobs the user
 * may leave and come back to); once CONFIRMADO it names the planilla written.
 */
export const usePlanillaUpload = (id: string | null, uploading: boolean) =>
  useQuery({
    queryKey: planillaKeys.upload(id),
    queryFn: id && !uploading ? () => api.get('/api/planilla-uploads/{id}', { path: { id } }) : skipToken,
    refetchInterval: (q) => (q.state.data?.status === 'VALIDANDO' || q.state.data?.status === 'CONFIRMANDO' ? 700 : false),
    retry: false,
  });

/** The caller's unfinished planilla uploads (validating, waiting for confirmation, committing, failed). */
export const useOpenPlanillaUploads = () =>
  useQuery({ queryKey: planillaKeys.openUploads(), queryFn: () => api.get('/api/planilla-uploads') });

export const usePlanillaUploadRows = (id: string, kind: 'valid' | 'error', page: number) =>
  useQuery({
    queryKey: planillaKeys.uploadRows(id, kind, page),
    queryFn: () => api.get('/api/planilla-uploads/{id}/rows', { path: { id }, query: { kind, page, pageSize: 10 } }),
    placeholderData: keepPreviousData,
  });

/** Asks for the commit: the batch answers CONFIRMANDO with its job, and is followed until it ends. */
export const useCommitUpload = () =>
  useMutation({
    mutationFn: (id: string) => api.post('/api/planilla-uploads/{id}/commit', { path: { id } }),
    onSuccess: (batch) => queryClient.setQueryData(planillaKeys.upload(batch.id), batch),
  });

export const useDiscardUpload = () =>
  useMutation({
    mutationFn: (id: string) => api.post('/api/planilla-uploads/{id}/discard', { path: { id } }),
    onSuccess: invalidate,
  });

/** Sends a planilla file with its upload progress. */
export const uploadPlanillaFile = (
  file: File,
  query: ApiQuery<'/api/planilla-uploads', 'post'>,
  onProgress: (fraction: number) => void,
) => uploadFile('/api/planilla-uploads', { query, file, onProgress });
