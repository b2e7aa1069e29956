import { useMutation, useQuery } from '@tanstack/react-query';
import { type ApiBody, api } from '../../lib/api.ts';
import { notifyError } from '../../lib/notify.ts';
import { queryClient } from '../../lib/query.ts';

/** Query keys of the notification menu. */
export const notificationKeys = {
  all: ['notifications'] as const,
};

/** The signed-in user's latest notifications and unread count, refreshed every minute. */
export function useFindNotifications() {
  return useQuery({
    queryKey: notificationKeys.all,
    queryFn: () => api.get('/api/notifications', { query: { limit: 50 } }),
    refetchInterval: 60_000,
  });
}

/** Which notifications an action applies to: some by id, or all of them. */
type Selection = ApiBody<'/api/notifications/read'>;

export function useMarkNotificationsRead() {
  return useMutation({
    mutationFn: (selection: Selection) => api.post('/api/notifications/read', { body: selection }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
    onError: notifyError,
  });
}

export function useDeleteNotifications() {
  return useMutation({
    mutationFn: (selection: Selection) =>
      'ids' in selection && selection.ids.length === 1
        ? api.delete('/api/notifications/{id}', { path: { id: selection.ids[0] } })
        : api.post('/api/notifications/delete', { body: selection }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
    onError: notifyError,
  });
}
