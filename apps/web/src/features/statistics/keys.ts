/** Query keys of the statistics screen. */
export const statisticsKeys = {
  all: ['statistics'] as const,
};
