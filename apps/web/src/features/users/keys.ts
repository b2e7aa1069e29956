/** Query keys of the users module: every query and invalidation names its key through this factory. */
export const userKeys = {
  all: ['users'] as const,
  list: (query: unknown) => [...userKeys.all, 'list', query] as const,
  options: () => [...userKeys.all, 'options'] as const,
};
