import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type ApiAnswer, type ApiBody, type ApiQuery, api, apiUrl } from '../../lib/api.ts';
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

/** One campaign of arrears notices, and one notice, as the API answers them. */
export type CampaignRow = ApiAnswer<'/api/financial/notice-campaigns'>['items'][number];
export type NoticeRow = ApiAnswer<'/api/financial/notices'>['items'][number];

/** Starts a campaign of arrears notices (a job); answers the campaign and its job. */
export const useStartCampaign = () =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/financial/notice-campaigns'>) => api.post('/api/financial/notice-campaigns', { body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: financialKeys.all }),
  });

export const useCampaigns = (query: ApiQuery<'/api/financial/notice-campaigns'>) =>
  useQuery({
    queryKey: financialKeys.campaigns(query),
    queryFn: ({ signal }) => api.get('/api/financial/notice-campaigns', { query, signal }),
    placeholderData: keepPreviousData,
  });

/** One campaign; polled while it runs (its counts move as the job goes). */
export const useCampaign = (id: number) =>
  useQuery({
    queryKey: financialKeys.campaign(id),
    queryFn: () => api.get('/api/financial/notice-campaigns/{id}', { path: { id } }),
    refetchInterval: (q) => (q.state.data?.state === 'EN_CURSO' ? 2000 : false),
  });

export const useNotices = (query: ApiQuery<'/api/financial/notices'>, poll = false) =>
  useQuery({
    queryKey: financialKeys.notices(query),
    queryFn: ({ signal }) => api.get('/api/financial/notices', { query, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: poll ? 2000 : false,
  });
