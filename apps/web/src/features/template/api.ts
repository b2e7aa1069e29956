import type { Cart, ChatContact, ChatConversation, ChatMessage } from '@aporta/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';
import { getToken } from '../../lib/session.ts';
import { uploadFile } from '../../lib/upload.ts';

export const templateKeys = {
  all: ['plantilla'] as const,
  summary: () => [...templateKeys.all, 'summary'] as const,
  slice: (name: string) => [...templateKeys.all, 'slice', name] as const,
  cart: () => [...templateKeys.all, 'cart'] as const,
  chat: () => [...templateKeys.all, 'chat'] as const,
  conversations: () => [...templateKeys.chat(), 'conversations'] as const,
  contacts: () => [...templateKeys.chat(), 'contacts'] as const,
  bookmarks: () => [...templateKeys.chat(), 'bookmarks'] as const,
  messages: (id: number) => [...templateKeys.chat(), 'messages', id] as const,
};

export interface Summary {
  crm: { leads: number; averageScore: string; deals: number; dealsValue: string; tasks: number };
  ecommerce: {
    sales: number;
    salesTotal: string;
    orders: number;
    ordersTotal: string;
    customers: number;
    products: number;
    stock: number;
    ordersByStatus: Record<string, number>;
    dailyOrders: { day: string; total: string }[];
  };
  learning: { courses: number; students: number; instructors: number; activeSubscriptions: number; subscriptionsValue: string };
  realEstate: { properties: number; forSale: number; forRent: number };
  invoices: { status: string; count: number; amount: string }[];
  tickets: Record<string, number>;
  earnings: { credits: string; debits: string; pending: string; balance: string };
}

export const useSummary = () =>
  useQuery({ queryKey: templateKeys.summary(), queryFn: () => api<Summary>('/api/plantilla/summary') });

/** GET /app/{collection}: a spec data call (small lists). */
export const useSlice = <T = Record<string, unknown>>(name: string) =>
  useQuery({ queryKey: templateKeys.slice(name), queryFn: () => api<T[]>(`/app/${name}`) });

// ─── Cart ─────────────────────────────────────────────────────────────────────────────────────────

export const useCart = () => useQuery({ queryKey: templateKeys.cart(), queryFn: () => api<Cart>('/api/plantilla/cart') });

const setCart = (cart: Cart) => queryClient.setQueryData(templateKeys.cart(), cart);

export const useSetCartQty = () =>
  useMutation({
    mutationFn: ({ productId, qty }: { productId: number; qty: number }) =>
      api<Cart>(`/api/plantilla/cart/${productId}`, { method: 'PUT', body: { qty } }),
    onSuccess: setCart,
  });

export const useRemoveFromCart = () =>
  useMutation({
    mutationFn: (productId: number) => api<Cart>(`/api/plantilla/cart/${productId}`, { method: 'DELETE' }),
    onSuccess: setCart,
  });

// ─── Chat ─────────────────────────────────────────────────────────────────────────────────────────

export const useConversations = () =>
  useQuery({ queryKey: templateKeys.conversations(), queryFn: () => api<ChatConversation[]>('/api/chat/conversations') });
export const useContacts = () =>
  useQuery({ queryKey: templateKeys.contacts(), queryFn: () => api<ChatContact[]>('/api/chat/contacts') });
export const useBookmarks = () =>
  useQuery({ queryKey: templateKeys.bookmarks(), queryFn: () => api<ChatMessage[]>('/api/chat/bookmarks') });
export const useMessages = (id: number | null) =>
  useQuery({
    queryKey: templateKeys.messages(id ?? 0),
    queryFn: () => api<{ items: ChatMessage[]; hasMore: boolean }>(`/api/chat/conversations/${id}/messages`),
    enabled: id != null,
  });

const refreshChat = () => queryClient.invalidateQueries({ queryKey: templateKeys.chat() });

export const useSendMessage = (id: number) =>
  useMutation({
    mutationFn: (body: string) => api<ChatMessage>(`/api/chat/conversations/${id}/messages`, { method: 'POST', body: { body } }),
    onSuccess: refreshChat,
  });

export const useSendFile = (id: number) =>
  useMutation({
    mutationFn: (file: File) => uploadFile<ChatMessage>(`/api/chat/conversations/${id}/attachments`, undefined, file, () => {}),
    onSuccess: refreshChat,
  });

export const useMarkRead = () =>
  useMutation({
    mutationFn: (id: number) => api<void>(`/api/chat/conversations/${id}/read`, { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.conversations() }),
  });

export const useOpenDirect = () =>
  useMutation({
    mutationFn: (userId: number) => api<{ id: number }>('/api/chat/direct', { method: 'POST', body: { userId } }),
    onSuccess: refreshChat,
  });

export const useBookmark = () =>
  useMutation({
    mutationFn: ({ id, on }: { id: number; on: boolean }) =>
      api<ChatMessage>(`/api/chat/messages/${id}/bookmark`, { method: on ? 'PUT' : 'DELETE' }),
    onSuccess: refreshChat,
  });

export const useSetPresence = () =>
  useMutation({
    mutationFn: (status: string) => api<{ status: string }>('/api/chat/presence', { method: 'PUT', body: { status } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.contacts() }),
  });

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
          const res = await fetch('/api/chat/stream', {
            headers: { authorization: `Bearer ${getToken() ?? ''}` },
            signal: controller.signal,
          });
          if (!res.ok || !res.body) throw new Error(String(res.status));
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += value;
            let cut = buffer.indexOf('\n\n');
            while (cut >= 0) {
              const block = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              const type = /^event: (.+)$/m.exec(block)?.[1];
              const data = /^data: (.+)$/m.exec(block)?.[1];
              if (type && data) {
                const parsed = JSON.parse(data) as Record<string, unknown>;
                if (type === 'message') {
                  void queryClient.invalidateQueries({ queryKey: templateKeys.messages(Number(parsed.conversationId)) });
                  void queryClient.invalidateQueries({ queryKey: templateKeys.conversations() });
                } else if (type === 'presence') {
                  void queryClient.invalidateQueries({ queryKey: templateKeys.contacts() });
                  void queryClient.invalidateQueries({ queryKey: templateKeys.conversations() });
                } else if (type === 'read') {
                  void queryClient.invalidateQueries({ queryKey: templateKeys.conversations() });
                }
                onEvent?.(type, parsed);
              }
              cut = buffer.indexOf('\n\n');
            }
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
