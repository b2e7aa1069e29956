import type {
  PayrollLine,
  Pension,
  PensionDetail,
  PensionInput,
  PensionPayroll,
  PensionReview,
  PensionTransitionRequest,
  StateTransitionList,
  SurvivalCheck,
  SurvivalCheckInput,
  SurvivalDue,
  SurvivalListResponse,
} from '@aporta/domain';
import type { JobStarted } from '@aporta/domain/jobs';
import type { ListResponse } from '@aporta/domain/list';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { recordHistoryKeys } from '../../components/RecordHistory.tsx';
import { api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { uploadFile } from '../../lib/upload.ts';
import { pensionKeys } from './keys.ts';

type Query = Record<string, string | number | boolean | undefined | null>;
export type PensionPayment = PayrollLine & { payrollPeriod: string; payrollState: 'BORRADOR' | 'CERRADA' };
export type PensionUpdate = Pick<PensionInput, 'resolutionNumber' | 'bankAccount' | 'beneficiaries'>;
export interface AmountChange {
  monthlyAmount: string;
  effectiveFrom: string;
  reason: string;
}
export interface RenapPensionCheck {
  result: string;
  deathDate: string | null;
  reviewOpened: boolean;
  warning: string | null;
}

const invalidate = () => {
  void queryClient.invalidateQueries({ queryKey: pensionKeys.all });
  void queryClient.invalidateQueries({ queryKey: recordHistoryKeys.all });
  void queryClient.invalidateQueries({ queryKey: ['home'] });
};

export const useFindPensions = (query: Query) =>
  useQuery({
    queryKey: pensionKeys.list(query),
    queryFn: ({ signal }) => api<ListResponse<Pension>>('/api/pensions', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const usePension = (id: number | null) =>
  useQuery({
    queryKey: pensionKeys.one(id ?? 0),
    queryFn: () => api<PensionDetail>(`/api/pensions/${id}`),
    enabled: !!id,
  });

export const usePensionChecks = (id: number) =>
  useQuery({
    queryKey: pensionKeys.checks(id),
    queryFn: () => api<ListResponse<SurvivalCheck>>(`/api/pensions/${id}/checks`),
  });

export const usePensionPayments = (id: number) =>
  useQuery({
    queryKey: pensionKeys.payments(id),
    queryFn: () => api<ListResponse<PensionPayment>>(`/api/pensions/${id}/payments`),
  });

export const usePensionTransitions = (id: number) =>
  useQuery({
    queryKey: pensionKeys.transitions(id),
    queryFn: () => api<StateTransitionList>(`/api/pensions/${id}/transitions`),
  });

export const useCreatePension = () =>
  useMutation({
    mutationFn: (body: PensionInput) => api<PensionDetail>('/api/pensions', { method: 'POST', body }),
    onSuccess: invalidate,
  });

export const useUpdatePension = (id: number) =>
  useMutation({
    mutationFn: (body: PensionUpdate) => api<PensionDetail>(`/api/pensions/${id}`, { method: 'PUT', body }),
    onSuccess: invalidate,
  });

export const useChangeAmount = (id: number) =>
  useMutation({
    mutationFn: (body: AmountChange) => api<PensionDetail>(`/api/pensions/${id}/amounts`, { method: 'POST', body }),
    onSuccess: invalidate,
  });

export const useTransitionPension = (id: number) =>
  useMutation({
    mutationFn: (body: PensionTransitionRequest) =>
      api<PensionDetail>(`/api/pensions/${id}/transition`, { method: 'POST', body }),
    // Also after a 409: the page then shows the state someone else left it in.
    onSettled: invalidate,
  });

export const useRenapPensionCheck = (id: number) =>
  useMutation({
    mutationFn: () => api<RenapPensionCheck>(`/api/pensions/${id}/renap-check`, { method: 'POST' }),
    onSuccess: invalidate,
  });

/** Uploads the notarised act (PDF, JPG or PNG); its id goes into the check. */
export const uploadAct = (file: File, onProgress: (f: number) => void) =>
  uploadFile<{ id: number; filename: string; size: number }>('/api/survival/attachments', undefined, file, onProgress);

export const useRegisterCheck = (pensionId: number) =>
  useMutation({
    mutationFn: (body: SurvivalCheckInput) =>
      api<SurvivalCheck>(`/api/pensions/${pensionId}/survival-checks`, { method: 'POST', body }),
    onSuccess: invalidate,
  });

export const survivalListHook = (kind: 'due' | 'overdue' | 'done', asOf: string | null) => (query: Query) =>
  useQuery({
    queryKey: pensionKeys.survival({ ...query, kind, asOf }),
    queryFn: async ({ signal }) => {
      const r = await api<SurvivalListResponse>('/api/survival', { query: { ...query, kind, asOf }, signal });
      return (r.checks ?? r.pensions ?? { items: [], total: 0 }) as ListResponse<SurvivalDue | SurvivalCheck>;
    },
    placeholderData: keepPreviousData,
  });

export const useReviews = (query: Query) =>
  useQuery({
    queryKey: pensionKeys.reviews(query),
    queryFn: ({ signal }) => api<ListResponse<PensionReview>>('/api/pension-reviews', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useDecideReview = () =>
  useMutation({
    mutationFn: ({ id, ...body }: { id: number; decision: 'CONFIRMADA' | 'DESCARTADA'; resolution: string }) =>
      api<PensionDetail>(`/api/pension-reviews/${id}/decision`, { method: 'POST', body }),
    onSettled: invalidate,
  });

/** Starts one of the survival jobs (letters, suspension, RENAP) and answers its id. */
export const startSurvivalJob = (path: string, body: Record<string, unknown> = {}) =>
  api<JobStarted>(path, { method: 'POST', body }).then((r) => r.jobId);

export const usePayrolls = (query: Query) =>
  useQuery({
    queryKey: pensionKeys.payrolls(query),
    queryFn: ({ signal }) => api<ListResponse<PensionPayroll>>('/api/pension-payrolls', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const usePayroll = (period: string | null) =>
  useQuery({
    queryKey: pensionKeys.payroll(period ?? ''),
    queryFn: () => api<PensionPayroll>(`/api/pension-payrolls/${period}`),
    enabled: !!period,
    retry: false,
  });

export const payrollLinesHook = (period: string) => (query: Query) =>
  useQuery({
    queryKey: pensionKeys.payrollLines(period, query),
    queryFn: ({ signal }) => api<ListResponse<PayrollLine>>(`/api/pension-payrolls/${period}/lines`, { query, signal }),
    placeholderData: keepPreviousData,
    retry: false,
  });

export const useGeneratePayroll = () =>
  useMutation({
    mutationFn: (period: string) => api<PensionPayroll>(`/api/pension-payrolls/${period}/generate`, { method: 'POST' }),
    onSuccess: invalidate,
  });

export const useClosePayroll = () =>
  useMutation({
    mutationFn: (period: string) => api<PensionPayroll>(`/api/pension-payrolls/${period}/close`, { method: 'POST' }),
    onSettled: invalidate,
  });
