import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type ApiAnswer, type ApiBody, type ApiQuery, api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { webhookKeys } from './keys.ts';

/** One endpoint, as GET /api/webhooks answers it (never its secret). */
export type WebhookEndpointRow = ApiAnswer<'/api/webhooks'>['items'][number];
/** One delivery of the log. */
export type WebhookDeliveryRow = ApiAnswer<'/api/webhook-deliveries'>['items'][number];
export type WebhookEndpointBody = ApiBody<'/api/webhooks', 'post'>;
export type WebhookEndpointChange = ApiBody<'/api/webhooks/{id}', 'patch'>;

const refresh = () => void queryClient.invalidateQueries({ queryKey: webhookKeys.all });

export const useWebhookEndpoints = (query: ApiQuery<'/api/webhooks'>) =>
  useQuery({
    queryKey: webhookKeys.endpoints(query),
    queryFn: ({ signal }) => api.get('/api/webhooks', { query, signal }),
    placeholderData: keepPreviousData,
  });

/** The entities the user may register endpoints for, and whether institution-wide ones. */
export const useWebhookEntities = (enabled: boolean) =>
  useQuery({
    queryKey: webhookKeys.entities(),
    queryFn: ({ signal }) => api.get('/api/webhooks/entities', { signal }),
    enabled,
    staleTime: 60_000,
  });

/** Registers an endpoint: the answer carries its signing secret, this once. */
export const useCreateWebhook = () =>
  useMutation({ mutationFn: (body: WebhookEndpointBody) => api.post('/api/webhooks', { body }), onSuccess: refresh });

/** Changes an endpoint (name, URL, events, active). */
export const useUpdateWebhook = () =>
  useMutation({
    mutationFn: ({ id, body }: { id: number; body: WebhookEndpointChange }) =>
      api.patch('/api/webhooks/{id}', { path: { id }, body }),
    onSuccess: refresh,
  });

/** «Probar»: queues a ping delivery. */
export const usePingWebhook = () =>
  useMutation({ mutationFn: (id: number) => api.post('/api/webhooks/{id}/ping', { path: { id } }), onSuccess: refresh });

export const useWebhookDeliveries = (query: ApiQuery<'/api/webhook-deliveries'>) =>
  useQuery({
    queryKey: webhookKeys.deliveries(query),
    queryFn: ({ signal }) => api.get('/api/webhook-deliveries', { query, signal }),
    placeholderData: keepPreviousData,
  });

/** One delivery with its body, answer and error. */
export const useWebhookDelivery = (id: number | null) =>
  useQuery({
    queryKey: webhookKeys.delivery(id ?? 0),
    queryFn: ({ signal }) => api.get('/api/webhook-deliveries/{id}', { path: { id: id ?? 0 }, signal }),
    enabled: id !== null,
  });

/** «Reenviar»: the delivery back to pending, due now. */
export const useResendDelivery = () =>
  useMutation({
    mutationFn: (id: number) => api.post('/api/webhook-deliveries/{id}/resend', { path: { id } }),
    onSuccess: refresh,
  });
