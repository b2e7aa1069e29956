/** Query keys of the template area (dashboards, cart and chat). */
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
