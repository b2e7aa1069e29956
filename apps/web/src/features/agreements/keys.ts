/** Query keys of the agreements module. */
export const agreementKeys = {
  all: ['agreements'] as const,
  list: (query: unknown) => [...agreementKeys.all, 'list', query] as const,
  one: (id: number) => [...agreementKeys.all, 'one', id] as const,
  debt: (entityId: number) => [...agreementKeys.all, 'debt', entityId] as const,
};
