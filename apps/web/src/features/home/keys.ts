/** Query keys of the home page. */
export const homeKeys = {
  all: ['home'] as const,
  queues: () => [...homeKeys.all, 'queues'] as const,
};
