/** Query keys of the RENAP screen. */
export const renapKeys = {
  all: ['renap'] as const,
  lookups: () => [...renapKeys.all, 'lookups'] as const,
  lookupsPage: (query: unknown) => [...renapKeys.lookups(), query] as const,
};
