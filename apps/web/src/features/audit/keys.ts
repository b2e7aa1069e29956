/** Query keys of the audit views (`base`: the view's API path). */
export const auditKeys = {
  all: ['audit'] as const,
  list: (base: string, params: unknown) => [...auditKeys.all, base, 'list', params] as const,
  facets: (base: string) => [...auditKeys.all, base, 'facets'] as const,
};
