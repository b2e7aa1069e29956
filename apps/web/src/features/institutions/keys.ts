/** Query keys of the institutions module. */
export const institutionKeys = {
  all: ['institutions'] as const,
  list: (query: unknown) => [...institutionKeys.all, 'list', query] as const,
  options: () => [...institutionKeys.all, 'options'] as const,
};
