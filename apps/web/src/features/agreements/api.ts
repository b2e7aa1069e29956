import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type ApiAnswer, type ApiBody, type ApiQuery, api, apiUrl } from '../../lib/api.ts';
import { downloadFile } from '../../lib/download.ts';
import { queryClient } from '../../lib/query.ts';
import { agreementKeys } from './keys.ts';

/** One row of the agreements list, as GET /api/payment-agreements answers it. */
export type AgreementRow = ApiAnswer<'/api/payment-agreements'>['items'][number];
/** What the agreements list takes: its filters, search, sort and page. */
export type AgreementsQuery = ApiQuery<'/api/payment-agreements'>;
/** The terms of a new agreement (simulated or created). */
export type AgreementTerms = ApiBody<'/api/payment-agreements'>;
/** A simulated schedule. */
export type AgreementSimulation = ApiAnswer<'/api/payment-agreements/simulate', 'post'>;

/** After a change: agreements, orders (consolidated, issued), home queues. */
export const invalidateAgreements = () => {
  void queryClient.invalidateQueries({ queryKey: agreementKeys.all });
  void queryClient.invalidateQueries({ queryKey: ['payments'] });
  void queryClient.invalidateQueries({ queryKey: ['home'] });
};

export const useAgreements = (query: AgreementsQuery) =>
  useQuery({
    queryKey: agreementKeys.list(query),
    queryFn: ({ signal }) => api.get('/api/payment-agreements', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useAgreement = (id: number) =>
  useQuery({ queryKey: agreementKeys.one(id), queryFn: () => api.get('/api/payment-agreements/{id}', { path: { id } }) });

export const useAgreementDebt = (entityId: number | null) =>
  useQuery({
    queryKey: agreementKeys.debt(entityId ?? 0),
    queryFn: () => api.get('/api/payment-agreements/debt', { query: { entityId: String(entityId) } }),
    enabled: !!entityId,
  });

export const useSimulate = () =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/payment-agreements/simulate'>) => api.post('/api/payment-agreements/simulate', { body }),
  });

export const useCreateAgreement = () =>
  useMutation({
    mutationFn: (body: AgreementTerms) => api.post('/api/payment-agreements', { body }),
    onSuccess: invalidateAgreements,
  });

export const useRestructure = (id: number) =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/payment-agreements/{id}/restructure'>) =>
      api.post('/api/payment-agreements/{id}/restructure', { path: { id }, body }),
    onSuccess: invalidateAgreements,
  });

export const useVoidAgreement = (id: number) =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/payment-agreements/{id}/void'>) =>
      api.post('/api/payment-agreements/{id}/void', { path: { id }, body }),
    onSuccess: invalidateAgreements,
  });

/** Starts the default detection (as of a day, today when none) and answers its job's id. */
export const startDetection = (asOf: string | null) =>
  api.post('/api/payment-agreements/detection-jobs', { body: asOf ? { asOf } : {} }).then((r) => r.jobId);

/** Downloads the agreement as PDF. */
export const downloadAgreementPdf = (id: number) => downloadFile(apiUrl('/api/payment-agreements/{id}/pdf', { path: { id } }));

/** The command palette: agreements by number or entity. */
export const findAgreementsForPalette = (q: string, signal: AbortSignal) =>
  api.get('/api/payment-agreements', { query: { q, pageSize: 8 }, signal });
