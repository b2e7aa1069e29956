import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type ApiAnswer, type ApiBody, type ApiQuery, api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { mailKeys } from './keys.ts';

/** One row of «Correo saliente», as GET /api/mail/outbox answers it. */
export type OutboxRow = ApiAnswer<'/api/mail/outbox'>['items'][number];

/** The outbox with the list's filters (state, event, recipient, dates, search). */
export const useOutbox = (query: ApiQuery<'/api/mail/outbox'>) =>
  useQuery({
    queryKey: mailKeys.list(query),
    queryFn: ({ signal }) => api.get('/api/mail/outbox', { query, signal }),
    placeholderData: keepPreviousData,
  });

/** Counts per state, and whether the server sends mail or only keeps it. */
export const useOutboxStatus = () =>
  useQuery({ queryKey: mailKeys.status(), queryFn: ({ signal }) => api.get('/api/mail/outbox/status', { signal }) });

/** One message with its content and attempts. */
export const useOutboxMessage = (id: number) =>
  useQuery({
    queryKey: mailKeys.one(id),
    queryFn: ({ signal }) => api.get('/api/mail/outbox/{id}', { path: { id }, signal }),
  });

/** Puts a failed message back to pending. */
export const useRetryMessage = (id: number) =>
  useMutation({
    mutationFn: () => api.post('/api/mail/outbox/{id}/retry', { path: { id } }),
    onSuccess: (m) => {
      queryClient.setQueryData(mailKeys.one(id), m);
      void queryClient.invalidateQueries({ queryKey: mailKeys.outbox() });
    },
  });

/** An event's template in a language, with its example data. */
export const useTemplatePreview = (query: ApiQuery<'/api/mail/templates/preview'>) =>
  useQuery({
    queryKey: mailKeys.preview(query),
    queryFn: ({ signal }) => api.get('/api/mail/templates/preview', { query, signal }),
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });

/** The signed-in user's own mail preferences. */
export const useMailPreferences = () =>
  useQuery({ queryKey: mailKeys.preferences(), queryFn: ({ signal }) => api.get('/api/mail/preferences', { signal }) });

export const useSaveMailPreferences = () =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/mail/preferences', 'put'>) => api.put('/api/mail/preferences', { body }),
    onSuccess: (saved) => queryClient.setQueryData(mailKeys.preferences(), saved),
  });
