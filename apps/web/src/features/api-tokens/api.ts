import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type ApiAnswer, type ApiBody, type ApiQuery, api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { apiTokenKeys } from './keys.ts';

/** One row of «Tokens de integración», as GET /api/api-tokens answers it (never the token). */
export type ApiTokenRow = ApiAnswer<'/api/api-tokens'>['items'][number];
/** A new token's fields, as POST /api/api-tokens takes them. */
export type ApiTokenBody = ApiBody<'/api/api-tokens', 'post'>;

/** The tokens of the entities in the user's scope, with the list's filters. */
export const useApiTokens = (query: ApiQuery<'/api/api-tokens'>) =>
  useQuery({
    queryKey: apiTokenKeys.list(query),
    queryFn: ({ signal }) => api.get('/api/api-tokens', { query, signal }),
    placeholderData: keepPreviousData,
  });

/** The entities the user may create tokens for. */
export const useApiTokenEntities = (enabled: boolean) =>
  useQuery({
    queryKey: apiTokenKeys.entities(),
    queryFn: ({ signal }) => api.get('/api/api-tokens/entities', { signal }),
    enabled,
    staleTime: 60_000,
  });

/** Creates a token: the answer carries the token itself, this once. */
export const useCreateApiToken = () =>
  useMutation({
    mutationFn: (body: ApiTokenBody) => api.post('/api/api-tokens', { body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });

/** Revokes a token: it stops working at once. */
export const useRevokeApiToken = () =>
  useMutation({
    mutationFn: (id: number) => api.post('/api/api-tokens/{id}/revoke', { path: { id } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });
