import type { NotificationIds, NotificationList, notificationActionResultSchema } from '@aporta/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../lib/api.ts';
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
    queryFn: () => api<NotificationList>('/api/notifications', { query: { limit: 50 } }),
    refetchInterval: 60_000,
  });
}

type ActionResult = z.infer<typeof notificationActionResultSchema>;

export function useMarkNotificationsRead() {
  return useMutation({
    mutationFn: (selection: NotificationIds) => api<ActionResult>('/api/notifications/read', { method: 'POST', body: selection }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
    onError: notifyError,
  });
}

export function useDeleteNotifications() {
  return useMutation({
    mutationFn: (selection: NotificationIds) =>
      'ids' in selection && selection.ids.length === 1
        ? api<ActionResult>(`/api/notifications/${selection.ids[0]}`, { method: 'DELETE' })
        : api<ActionResult>('/api/notifications/delete', { method: 'POST', body: selection }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
    onError: notifyError,
  });
}
