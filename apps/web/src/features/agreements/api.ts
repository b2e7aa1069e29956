import type {
  Agreement,
  AgreementCreate,
  AgreementDebtView,
  AgreementListItem,
  AgreementRestructure,
  AgreementSimulation,
  JobStarted,
} from '@aporta/domain';
import type { ListResponse } from '@aporta/domain/list';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';

type Query = Record<string, string | number | boolean | undefined | null>;

/** Query keys of the agreements module. */
export const agreementKeys = {
  all: ['agreements'] as const,
  list: (query: unknown) => [...agreementKeys.all, 'list', query] as const,
  one: (id: number) => [...agreementKeys.all, 'one', id] as const,
  debt: (entityId: number) => [...agreementKeys.all, 'debt', entityId] as const,
};

/** After a change: agreements, orders (consolidated, issued), home queues. */
export const invalidateAgreements = () => {
  void queryClient.invalidateQueries({ queryKey: agreementKeys.all });
  void queryClient.invalidateQueries({ queryKey: ['payments'] });
  void queryClient.invalidateQueries({ queryKey: ['home'] });
};

export const useAgreements = (query: Query) =>
  useQuery({
    queryKey: agreementKeys.list(query),
    queryFn: ({ signal }) => api<ListResponse<AgreementListItem>>('/api/payment-agreements', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useAgreement = (id: number) =>
  useQuery({ queryKey: agreementKeys.one(id), queryFn: () => api<Agreement>(`/api/payment-agreements/${id}`) });

export const useAgreementDebt = (entityId: number | null) =>
  useQuery({
    queryKey: agreementKeys.debt(entityId ?? 0),
    queryFn: () => api<AgreementDebtView>('/api/payment-agreements/debt', { query: { entityId } }),
    enabled: !!entityId,
  });

export const useSimulate = () =>
  useMutation({
    mutationFn: (body: AgreementCreate) => api<AgreementSimulation>('/api/payment-agreements/simulate', { method: 'POST', body }),
  });

export const useCreateAgreement = () =>
  useMutation({
    mutationFn: (body: AgreementCreate) => api<Agreement>('/api/payment-agreements', { method: 'POST', body }),
    onSuccess: invalidateAgreements,
  });

export const useRestructure = (id: number) =>
  useMutation({
    mutationFn: (body: AgreementRestructure) =>
      api<Agreement>(`/api/payment-agreements/${id}/restructure`, { method: 'POST', body }),
    onSuccess: invalidateAgreements,
  });

export const useVoidAgreement = (id: number) =>
  useMutation({
    mutationFn: (body: { reason: string }) => api<Agreement>(`/api/payment-agreements/${id}/void`, { method: 'POST', body }),
    onSuccess: invalidateAgreements,
  });

export const startDetection = (asOf: string | null) =>
  api<JobStarted>('/api/payment-agreements/detection-jobs', { method: 'POST', body: asOf ? { asOf } : {} }).then((r) => r.jobId);
