/** Query keys of the financial module. */
export const financialKeys = {
  all: ['financial'] as const,
  statement: (entityId: number, asOf: string | null) => [...financialKeys.all, 'statement', entityId, asOf] as const,
  arrears: (asOf: string | null) => [...financialKeys.all, 'arrears', asOf] as const,
  certificates: (entityId: number | null) => [...financialKeys.all, 'certificates', entityId] as const,
  dashboard: () => [...financialKeys.all, 'dashboard'] as const,
  campaigns: (query: unknown) => [...financialKeys.all, 'campaigns', query] as const,
  campaign: (id: number) => [...financialKeys.all, 'campaign', id] as const,
  notices: (query: unknown) => [...financialKeys.all, 'notices', query] as const,
};
