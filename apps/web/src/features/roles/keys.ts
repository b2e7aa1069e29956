/** Query keys of the roles module. */
export const roleKeys = {
  all: ['roles'] as const,
  list: (query: unknown) => [...roleKeys.all, 'list', query] as const,
  one: (id: number | null) => [...roleKeys.all, 'one', id] as const,
};
