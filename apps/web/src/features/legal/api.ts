import type { LegalCase, LegalCaseListItem, LegalDeadline } from '@aporta/domain';
import type { ListResponse } from '@aporta/domain/list';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { invalidateLegalCases } from '../../lib/legalCases.ts';
import { uploadFile } from '../../lib/upload.ts';

type Query = Record<string, string | number | boolean | undefined | null>;

/** Query keys of the legal module. */
export const legalKeys = {
  all: ['legal'] as const,
  list: (query: unknown) => [...legalKeys.all, 'list', query] as const,
  one: (id: number) => [...legalKeys.all, 'one', id] as const,
  deadlines: () => [...legalKeys.all, 'deadlines'] as const,
};

const invalidate = invalidateLegalCases;

export const useCases = (query: Query) =>
  useQuery({
    queryKey: legalKeys.list(query),
    queryFn: ({ signal }) => api<ListResponse<LegalCaseListItem>>('/api/legal/cases', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useCase = (id: number) =>
  useQuery({ queryKey: legalKeys.one(id), queryFn: () => api<LegalCase>(`/api/legal/cases/${id}`) });

export const useDeadlines = () =>
  useQuery({ queryKey: legalKeys.deadlines(), queryFn: () => api<{ items: LegalDeadline[] }>('/api/legal/deadlines') });

/** A POST on one case answering the case. */
export const useCasePost = <B>(id: number, path: (vars: B) => string, body: (vars: B) => unknown = (v) => v) =>
  useMutation({
    mutationFn: (vars: B) => api<LegalCase>(`/api/legal/cases/${id}${path(vars)}`, { method: 'POST', body: body(vars) }),
    onSuccess: invalidate,
  });

export const uploadCaseDocument = async (id: number, file: File) => {
  const r = await uploadFile<LegalCase>(`/api/legal/cases/${id}/documents`, undefined, file, () => {});
  invalidate();
  return r;
};
