import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type ApiAnswer, type ApiBody, type ApiQuery, api } from '../../lib/api.ts';
import { invalidateLegalCases } from '../../lib/legalCases.ts';
import { uploadFile } from '../../lib/upload.ts';
import { legalKeys } from './keys.ts';

/** One row of the cases list, as GET /api/legal/cases answers it. */
export type CaseRow = ApiAnswer<'/api/legal/cases'>['items'][number];

const invalidate = invalidateLegalCases;

export const useCases = (query: ApiQuery<'/api/legal/cases'>) =>
  useQuery({
    queryKey: legalKeys.list(query),
    queryFn: ({ signal }) => api.get('/api/legal/cases', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useCase = (id: number) =>
  useQuery({ queryKey: legalKeys.one(id), queryFn: () => api.get('/api/legal/cases/{id}', { path: { id } }) });

export const useDeadlines = () => useQuery({ queryKey: legalKeys.deadlines(), queryFn: () => api.get('/api/legal/deadlines') });

/** Moves the case to another stage. */
export const useCaseTransition = (id: number) =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/legal/cases/{id}/transitions'>) =>
      api.post('/api/legal/cases/{id}/transitions', { path: { id }, body }),
    onSuccess: invalidate,
  });

export const useAddCaseAction = (id: number) =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/legal/cases/{id}/actions'>) =>
      api.post('/api/legal/cases/{id}/actions', { path: { id }, body }),
    onSuccess: invalidate,
  });

export const useAddCaseDeadline = (id: number) =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/legal/cases/{id}/deadlines'>) =>
      api.post('/api/legal/cases/{id}/deadlines', { path: { id }, body }),
    onSuccess: invalidate,
  });

/** Marks one of the case's deadlines as met. */
export const useMarkDeadlineDone = (id: number) =>
  useMutation({
    mutationFn: (deadlineId: number) =>
      api.post('/api/legal/cases/{id}/deadlines/{deadlineId}/done', { path: { id, deadlineId } }),
    onSuccess: invalidate,
  });

/** Attaches a document (multipart) to the case; it is kept in Documentos. */
export const uploadCaseDocument = async (id: number, file: File) => {
  await uploadFile('/api/legal/cases/{id}/documents', { path: { id }, file });
  invalidate();
};
