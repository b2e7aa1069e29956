/** Query keys of the legal module. */
export const legalKeys = {
  all: ['legal'] as const,
  list: (query: unknown) => [...legalKeys.all, 'list', query] as const,
  one: (id: number) => [...legalKeys.all, 'one', id] as const,
  deadlines: () => [...legalKeys.all, 'deadlines'] as const,
};
