/** Query keys of the statistics screen. */
export const statisticsKeys = {
  all: ['statistics'] as const,
  /** Collection by month and overdue by region: under the payments key, so a payment's change refreshes it. */
  collection: () => ['payments', 'stats'] as const,
};
