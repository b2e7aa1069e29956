import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type ApiAnswer, api, apiUrl } from '../../lib/api.ts';
import { downloadFile } from '../../lib/download.ts';
import { queryClient } from '../../lib/query.ts';
import { financialKeys } from './keys.ts';

export const useStatement = (entityId: number | null, asOf: string | null) =>
  useQuery({
    queryKey: financialKeys.statement(entityId ?? 0, asOf),
    queryFn: () => api.get('/api/financial/statement', { query: { entityId: String(entityId), asOf: asOf ?? undefined } }),
    enabled: !!entityId,
    placeholderData: keepPreviousData,
  });

/** Downloads an entity's statement as of a day (today when none), as PDF or xlsx. */
export const downloadStatement = (entityId: number, asOf: string | null, format: 'pdf' | 'xlsx') =>
  downloadFile(
    apiUrl('/api/financial/statement/export', { query: { entityId: String(entityId), asOf: asOf ?? undefined, format } }),
  );

export const useArrears = (asOf: string | null) =>
  useQuery({
    queryKey: financialKeys.arrears(asOf),
    queryFn: () => api.get('/api/financial/arrears', { query: { asOf: asOf ?? undefined } }),
    placeholderData: keepPreviousData,
  });

export const useCertificates = (entityId: number | null) =>
  useQuery({
    queryKey: financialKeys.certificates(entityId),
    queryFn: () => api.get('/api/financial/certificates', { query: { entityId: entityId ? String(entityId) : undefined } }),
  });

/** A solvency certificate as the API answers it. */
export type Certificate = ApiAnswer<'/api/financial/certificates', 'post'>;

export const useIssueCertificate = () =>
  useMutation({
    mutationFn: (entityId: number) => api.post('/api/financial/certificates', { body: { entityId } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: financialKeys.all }),
  });

/** Downloads a solvency certificate as PDF. */
export const downloadCertificatePdf = (id: number) =>
  downloadFile(apiUrl('/api/financial/certificates/{id}/pdf', { path: { id } }));

export const useDashboard = () =>
  useQuery({ queryKey: financialKeys.dashboard(), queryFn: () => api.get('/api/financial/dashboard') });

/** Checks a certificate's code (no session needed). */
export const verifyCode = (code: string) => api.get('/api/solvency/verify/{code}', { path: { code: code.trim() } });
