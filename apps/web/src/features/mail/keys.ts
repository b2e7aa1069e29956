/** Query keys of outgoing mail: «Correo saliente», the template preview and one's own mail preferences. */
export const mailKeys = {
  all: ['mail'] as const,
  outbox: () => [...mailKeys.all, 'outbox'] as const,
  list: (query: unknown) => [...mailKeys.outbox(), 'list', query] as const,
  one: (id: number) => [...mailKeys.outbox(), 'one', id] as const,
  status: () => [...mailKeys.outbox(), 'status'] as const,
  preview: (query: unknown) => [...mailKeys.all, 'preview', query] as const,
  preferences: () => [...mailKeys.all, 'preferences'] as const,
};
