/** Query keys of «Webhooks»: the endpoints, the entities to register them for, and the delivery log. */
export const webhookKeys = {
  all: ['webhooks'] as const,
  endpoints: (query: unknown) => [...webhookKeys.all, 'endpoints', query] as const,
  entities: () => [...webhookKeys.all, 'entities'] as const,
  deliveries: (query: unknown) => [...webhookKeys.all, 'deliveries', query] as const,
  delivery: (id: number) => [...webhookKeys.all, 'delivery', id] as const,
};
