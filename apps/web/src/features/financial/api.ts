import type { Arrears, Dashboard, SolvencyCertificate, SolvencyVerification, Statement } from '@aporta/domain';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';

/** Query keys of the financial module. */
export const financialKeys = {
  all: ['financial'] as const,
  statement: (entityId: number, asOf: string | null) => [...financialKeys.all, 'statement', entityId, asOf] as const,
  arrears: (asOf: string | null) => [...financialKeys.all, 'arrears', asOf] as const,
  certificates: (entityId: number | null) => [...financialKeys.all, 'certificates', entityId] as const,
  dashboard: () => [...financialKeys.all, 'dashboard'] as const,
};

export const useStatement = (entityId: number | null, asOf: string | null) =>
  useQuery({
    queryKey: financialKeys.statement(entityId ?? 0, asOf),
    queryFn: () => api<Statement>('/api/financial/statement', { query: { entityId, asOf } }),
    enabled: !!entityId,
    placeholderData: keepPreviousData,
  });

export const useArrears = (asOf: string | null) =>
  useQuery({
    queryKey: financialKeys.arrears(asOf),
    queryFn: () => api<Arrears>('/api/financial/arrears', { query: { asOf } }),
    placeholderData: keepPreviousData,
  });

export const useCertificates = (entityId: number | null) =>
  useQuery({
    queryKey: financialKeys.certificates(entityId),
    queryFn: () => api<{ items: SolvencyCertificate[] }>('/api/financial/certificates', { query: { entityId } }),
  });

export const useIssueCertificate = () =>
  useMutation({
    mutationFn: (entityId: number) =>
      api<SolvencyCertificate>('/api/financial/certificates', { method: 'POST', body: { entityId } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: financialKeys.all }),
  });

export const useDashboard = () =>
  useQuery({ queryKey: financialKeys.dashboard(), queryFn: () => api<Dashboard>('/api/financial/dashboard') });

export const verifyCode = (code: string) => api<SolvencyVerification>(`/api/solvency/verify/${encodeURIComponent(code.trim())}`);
