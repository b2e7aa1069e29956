import { skipToken, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type ApiAnswer, type ApiBody, api, apiUrl, eventStream } from '../../lib/api.ts';
import { downloadFile } from '../../lib/download.ts';
import { queryClient } from '../../lib/query.ts';
import { uploadFile } from '../../lib/upload.ts';
import { templateKeys } from './keys.ts';

/** The dashboards' figures, as GET /api/plantilla/summary answers them. */
export type Summary = ApiAnswer<'/api/plantilla/summary'>;
/** The current user's cart. */
export type Cart = ApiAnswer<'/api/plantilla/cart'>;
/** A presence the user can set. */
export type PresenceStatus = ApiBody<'/api/chat/presence', 'put'>['status'];

export const useSummary = () => useQuery({ queryKey: templateKeys.summary(), queryFn: () => api.get('/api/plantilla/summary') });

/** A spec data call (`GET /app/{collection}`, small lists) under its key. */
const useSlice = <T>(name: string, load: () => Promise<T>) => useQuery({ queryKey: templateKeys.slice(name), queryFn: load });

export const useDeals = () => useSlice('deal', () => api.get('/app/deal'));
export const useTasks = () => useSlice('tasks', () => api.get('/app/tasks'));
export const useRecentCourses = () => useSlice('recentcourse', () => api.get('/app/recentcourse'));
export const useBrowsers = () => useSlice('browser', () => api.get('/app/browser'));

// ─── Cart ─────────────────────────────────────────────────────────────────────────────────────────

export const useCart = () => useQuery({ queryKey: templateKeys.cart(), queryFn: () => api.get('/api/plantilla/cart') });

const setCart = (cart: Cart) => queryClient.setQueryData(templateKeys.cart(), cart);

export const useSetCartQty = () =>
  useMutation({
    mutationFn: ({ productId, qty }: { productId: number; qty: number }) =>
      api.put('/api/plantilla/cart/{productId}', { path: { productId }, body: { qty } }),
    onSuccess: setCart,
  });

export const useRemoveFromCart = () =>
  useMutation({
    mutationFn: (productId: number) => api.delete('/api/plantilla/cart/{productId}', { path: { productId } }),
    onSuccess: setCart,
  });

// ─── Chat ─────────────────────────────────────────────────────────────────────────────────────────

export const useConversations = () =>
  useQuery({ queryKey: templateKeys.conversations(), queryFn: () => api.get('/api/chat/conversations') });
export const useContacts = () => useQuery({ queryKey: templateKeys.contacts(), queryFn: () => api.get('/api/chat/contacts') });
export const useBookmarks = () => useQuery({ queryKey: templateKeys.bookmarks(), queryFn: () => api.get('/api/chat/bookmarks') });
export const useMessages = (id: number | null) =>
  useQuery({
    queryKey: templateKeys.messages(id ?? 0),
    queryFn: id == null ? skipToken : () => api.get('/api/chat/conversations/{id}/messages', { path: { id } }),
  });

const refreshChat = () => queryClient.invalidateQueries({ queryKey: templateKeys.chat() });

export const useSendMessage = (id: number) =>
  useMutation({
    mutationFn: (body: string) => api.post('/api/chat/conversations/{id}/messages', { path: { id }, body: { body } }),
    onSuccess: refreshChat,
  });

export const useSendFile = (id: number) =>
  useMutation({
    mutationFn: (file: File) => uploadFile('/api/chat/conversations/{id}/attachments', { path: { id }, file }),
    onSuccess: refreshChat,
  });

export const useMarkRead = () =>
  useMutation({
    mutationFn: (id: number) => api.post('/api/chat/conversations/{id}/read', { path: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.conversations() }),
  });

export const useOpenDirect = () =>
  useMutation({
    mutationFn: (userId: number) => api.post('/api/chat/direct', { body: { userId } }),
    onSuccess: refreshChat,
  });

export const useBookmark = () =>
  useMutation({
    mutationFn: ({ id, on }: { id: number; on: boolean }) =>
      on
        ? api.put('/api/chat/messages/{id}/bookmark', { path: { id } })
        : api.delete('/api/chat/messages/{id}/bookmark', { path: { id } }),
    onSuccess: refreshChat,
  });

export const useSetPresence = () =>
  useMutation({
    mutationFn: (status: PresenceStatus) => api.put('/api/chat/presence', { body: { status } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.contacts() }),
  });

/** Downloads a message's attachment (with the bearer token, named as the server says). */
export const downloadAttachment = (messageId: number) =>
  downloadFile(apiUrl('/api/chat/messages/{id}/attachment', { path: { id: messageId } }));

/**
 * Listens to the chat's live events (server-sent events read with fetch, so the bearer header goes
 * with it) and refreshes what changed; reconnects after a drop.
 */
export function useChatStream(onEvent?: (type: string, data: Record<string, unknown>) => void) {
  useEffect(() => {
    let stopped = false;
    let controller = new AbortController();
    const run = async () => {
      while (!stopped) {
        controller = new AbortController();
        try {
          for await (const { type, data } of eventStream('/api/chat/stream', controller.signal)) {
            if (type === 'message') {
              void queryClient.invalidateQueries({ queryKey: templateKeys.messages(Number(data.conversationId)) });
              void queryClient.invalidateQueries({ queryKey: templateKeys.conversations() });
            } else if (type === 'presence') {
              void queryClient.invalidateQueries({ queryKey: templateKeys.contacts() });
              void queryClient.invalidateQueries({ queryKey: templateKeys.conversations() });
            } else if (type === 'read') {
              void queryClient.invalidateQueries({ queryKey: templateKeys.conversations() });
            }
            onEvent?.(type, data);
          }
        } catch {
          if (stopped) return;
        }
        if (!stopped) await new Promise((r) => setTimeout(r, 2000));
      }
    };
    void run();
    return () => {
      stopped = true;
      controller.abort();
    };
  }, [onEvent]);
}
