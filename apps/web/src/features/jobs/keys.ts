/** Query keys of the Procesos module (background jobs). */
export const jobKeys = {
  all: ['jobs'] as const,
  one: (id: number | null) => [...jobKeys.all, 'one', id] as const,
  list: (params: unknown) => [...jobKeys.all, 'list', params] as const,
};
