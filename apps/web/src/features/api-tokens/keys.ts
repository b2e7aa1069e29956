/** Query keys of «Tokens de integración». */
export const apiTokenKeys = {
  all: ['api-tokens'] as const,
  list: (query: unknown) => [...apiTokenKeys.all, 'list', query] as const,
  entities: () => [...apiTokenKeys.all, 'entities'] as const,
};
