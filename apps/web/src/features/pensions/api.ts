import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { recordHistoryKeys } from '../../components/RecordHistory.tsx';
import { type ApiAnswer, type ApiBody, type ApiQuery, api, apiUrl } from '../../lib/api.ts';
import { downloadFile } from '../../lib/download.ts';
import { queryClient } from '../../lib/query.ts';
import { uploadFile } from '../../lib/upload.ts';
import { pensionKeys } from './keys.ts';

/** One row of the pensions list, as GET /api/pensions answers it. */
export type PensionRow = ApiAnswer<'/api/pensions'>['items'][number];
/** What registering a pension sends (its beneficiaries included). */
export type PensionBody = ApiBody<'/api/pensions'>;
/** What editing a pension may change: resolution, account, beneficiaries. */
export type PensionUpdate = ApiBody<'/api/pensions/{id}', 'put'>;
/** A new monthly amount from a day, with its reason. */
export type AmountChange = ApiBody<'/api/pensions/{id}/amounts'>;
/** A survival check as registered (the act's file id when there is one). */
export type SurvivalCheckBody = ApiBody<'/api/pensions/{id}/survival-checks'>;
/** A death review opened by RENAP. */
export type ReviewRow = ApiAnswer<'/api/pension-reviews'>['items'][number];
/** One line of a month's pension payroll. */
export type PayrollLineRow = ApiAnswer<'/api/pension-payrolls/{period}/lines'>['items'][number];
/** What the eligibility check of a pension about to be registered takes: the pensioner, the type, the start. */
export type EligibilityBody = ApiBody<'/api/pensions/eligibility'>;
/** Age, months contributed, recent employment and each refusal or warning (keyed messages). */
export type PensionEligibility = ApiAnswer<'/api/pensions/eligibility', 'post'>;
/** A pension the month's payroll excluded (suspended) or flagged (active employee), with the reason. */
export type PayrollExceptionRow = ApiAnswer<'/api/pension-payrolls/{period}/exceptions'>['items'][number];
type SurvivalList = ApiAnswer<'/api/survival'>;
/** A pension whose yearly check is due (or overdue) as of a day. */
export type SurvivalDueRow = NonNullable<SurvivalList['pensions']>['items'][number];
/** A check presented. */
export type SurvivalCheckRow = NonNullable<SurvivalList['checks']>['items'][number];

const invalidate = () => {
  void queryClient.invalidateQueries({ queryKey: pensionKeys.all });
  void queryClient.invalidateQueries({ queryKey: recordHistoryKeys.all });
  void queryClient.invalidateQueries({ queryKey: ['home'] });
};

// ── Pensions ──

export const useFindPensions = (query: ApiQuery<'/api/pensions'>) =>
  useQuery({
    queryKey: pensionKeys.list(query),
    queryFn: ({ signal }) => api.get('/api/pensions', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const usePension = (id: number | null) =>
  useQuery({
    queryKey: pensionKeys.one(id ?? 0),
    queryFn: () => api.get('/api/pensions/{id}', { path: { id: id ?? 0 } }),
    enabled: !!id,
  });

export const usePensionChecks = (id: number) =>
  useQuery({ queryKey: pensionKeys.checks(id), queryFn: () => api.get('/api/pensions/{id}/checks', { path: { id } }) });

export const usePensionPayments = (id: number) =>
  useQuery({ queryKey: pensionKeys.payments(id), queryFn: () => api.get('/api/pensions/{id}/payments', { path: { id } }) });

export const usePensionTransitions = (id: number) =>
  useQuery({ queryKey: pensionKeys.transitions(id), queryFn: () => api.get('/api/pensions/{id}/transitions', { path: { id } }) });

export const useCreatePension = () =>
  useMutation({
    mutationFn: (body: PensionBody) => api.post('/api/pensions', { body }),
    onSuccess: invalidate,
  });

/** Checks, before registering, what the history says of the pension (nothing is saved). */
export const useCheckEligibility = () =>
  useMutation({ mutationFn: (body: EligibilityBody) => api.post('/api/pensions/eligibility', { body }) });

export const useUpdatePension = (id: number) =>
  useMutation({
    mutationFn: (body: PensionUpdate) => api.put('/api/pensions/{id}', { path: { id }, body }),
    onSuccess: invalidate,
  });

export const useChangeAmount = (id: number) =>
  useMutation({
    mutationFn: (body: AmountChange) => api.post('/api/pensions/{id}/amounts', { path: { id }, body }),
    onSuccess: invalidate,
  });

export const useTransitionPension = (id: number) =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/pensions/{id}/transition'>) =>
      api.post('/api/pensions/{id}/transition', { path: { id }, body }),
    // Also after a 409: the page then shows the state someone else left it in.
    onSettled: invalidate,
  });

export const useRenapPensionCheck = (id: number) =>
  useMutation({
    mutationFn: () => api.post('/api/pensions/{id}/renap-check', { path: { id } }),
    onSuccess: invalidate,
  });

// ── Survival checks ──

/** Uploads the notarised act (PDF, JPG or PNG); its id goes into the check. */
export const uploadAct = (file: File, onProgress: (f: number) => void) =>
  uploadFile('/api/survival/attachments', { file, onProgress });

export const useRegisterCheck = (pensionId: number) =>
  useMutation({
    mutationFn: (body: SurvivalCheckBody) => api.post('/api/pensions/{id}/survival-checks', { path: { id: pensionId }, body }),
    onSuccess: invalidate,
  });

/** Downloads a check's notarised act. */
export const downloadAct = (checkId: number) =>
  downloadFile(apiUrl('/api/survival-checks/{id}/attachment', { path: { id: checkId } }));

/** Downloads the survival letter of one pensioner (PDF). */
export const downloadSurvivalLetter = (pensionId: number) =>
  downloadFile(apiUrl('/api/pensions/{id}/survival-letter', { path: { id: pensionId } }));

const noRows = { items: [], total: 0 };

/** The list hook of the pensions whose check is due (or overdue) as of a day (today when none). */
export const survivalDueHook = (kind: 'due' | 'overdue', asOf: string | null) => (query: ApiQuery<'/api/survival'>) =>
  useQuery({
    queryKey: pensionKeys.survival({ ...query, kind, asOf }),
    queryFn: async ({ signal }) =>
      (await api.get('/api/survival', { query: { ...query, kind, asOf: asOf ?? undefined }, signal })).pensions ?? noRows,
    placeholderData: keepPreviousData,
  });

/** The list hook of the checks presented, as of a day (today when none). */
export const survivalChecksHook = (asOf: string | null) => (query: ApiQuery<'/api/survival'>) =>
  useQuery({
    queryKey: pensionKeys.survival({ ...query, kind: 'done', asOf }),
    queryFn: async ({ signal }) =>
      (await api.get('/api/survival', { query: { ...query, kind: 'done', asOf: asOf ?? undefined }, signal })).checks ?? noRows,
    placeholderData: keepPreviousData,
  });

export const useReviews = (query: ApiQuery<'/api/pension-reviews'>) =>
  useQuery({
    queryKey: pensionKeys.reviews(query),
    queryFn: ({ signal }) => api.get('/api/pension-reviews', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useDecideReview = () =>
  useMutation({
    mutationFn: ({ id, ...body }: { id: number } & ApiBody<'/api/pension-reviews/{id}/decision'>) =>
      api.post('/api/pension-reviews/{id}/decision', { path: { id }, body }),
    onSettled: invalidate,
  });

// ── The survival jobs: each answers its job's id ──

/** Letters to every pensioner whose check falls in the month of `asOf` (today when none). */
export const startLetterJob = (asOf?: string) => api.post('/api/survival/letter-jobs', { body: { asOf } }).then((r) => r.jobId);

/** The daily suspension, as of a day (today when none). */
export const startSuspensionJob = (asOf?: string) =>
  api.post('/api/survival/suspension-jobs', { body: { asOf } }).then((r) => r.jobId);

/** Every pensioner checked against RENAP. */
export const startRenapJob = () => api.post('/api/survival/renap-jobs', { body: {} }).then((r) => r.jobId);

// ── The pension payroll ──

export const usePayrolls = (query: ApiQuery<'/api/pension-payrolls'>) =>
  useQuery({
    queryKey: pensionKeys.payrolls(query),
    queryFn: ({ signal }) => api.get('/api/pension-payrolls', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const usePayroll = (period: string | null) =>
  useQuery({
    queryKey: pensionKeys.payroll(period ?? ''),
    queryFn: () => api.get('/api/pension-payrolls/{period}', { path: { period: period ?? '' } }),
    enabled: !!period,
    retry: false,
  });

/** The list hook of one month's payroll lines. */
export const payrollLinesHook = (period: string) => (query: ApiQuery<'/api/pension-payrolls/{period}/lines'>) =>
  useQuery({
    queryKey: pensionKeys.payrollLines(period, query),
    queryFn: ({ signal }) => api.get('/api/pension-payrolls/{period}/lines', { path: { period }, query, signal }),
    placeholderData: keepPreviousData,
    retry: false,
  });

/** What one month's payroll excluded or flagged (a page of it; `kind` narrows to one of the two). */
export const usePayrollExceptions = (period: string | null, query: ApiQuery<'/api/pension-payrolls/{period}/exceptions'>) =>
  useQuery({
    queryKey: pensionKeys.payrollExceptions(period ?? '', query),
    queryFn: ({ signal }) =>
      api.get('/api/pension-payrolls/{period}/exceptions', { path: { period: period ?? '' }, query, signal }),
    enabled: !!period,
    placeholderData: keepPreviousData,
    retry: false,
  });

export const useGeneratePayroll = () =>
  useMutation({
    mutationFn: (period: string) => api.post('/api/pension-payrolls/{period}/generate', { path: { period } }),
    onSuccess: invalidate,
  });

export const useClosePayroll = () =>
  useMutation({
    mutationFn: (period: string) => api.post('/api/pension-payrolls/{period}/close', { path: { period } }),
    onSettled: invalidate,
  });

/** Downloads the month's file for the bank (csv). */
export const downloadPayrollBankFile = (period: string) =>
  downloadFile(apiUrl('/api/pension-payrolls/{period}/bank-file', { path: { period } }));

/** Downloads the month's summary (PDF). */
export const downloadPayrollSummary = (period: string) =>
  downloadFile(apiUrl('/api/pension-payrolls/{period}/summary', { path: { period } }));

/** The command palette: pensions by the pensioner's name, CUI or resolution number. */
export const findPensionsForPalette = (q: string, signal: AbortSignal) =>
  api.get('/api/pensions', { query: { q, pageSize: 8 }, signal });
