/** Query keys of the contributors module (contributors, CUI approvals, bulk imports). */
export const contributorKeys = {
  all: ['contributors'] as const,
  list: (query: unknown) => [...contributorKeys.all, 'list', query] as const,
  one: (id: number | null) => [...contributorKeys.all, 'one', id] as const,
  formOptions: () => [...contributorKeys.all, 'form-options'] as const,
  overview: () => [...contributorKeys.all, 'overview'] as const,
  renap: (cui: string | null) => [...contributorKeys.all, 'renap', cui] as const,
  report: (kind: string, filters: unknown) => [...contributorKeys.all, 'report', kind, filters] as const,
};

export const cuiApprovalKeys = {
  all: ['cui-approvals'] as const,
  list: (query: unknown) => [...cuiApprovalKeys.all, 'list', query] as const,
  review: (id: number | null) => [...cuiApprovalKeys.all, 'review', id] as const,
  history: (id: number | null) => [...cuiApprovalKeys.all, 'history', id] as const,
};

export const contributorImportKeys = {
  all: ['contributor-imports'] as const,
  open: () => [...contributorImportKeys.all, 'open'] as const,
  one: (id: string | null) => [...contributorImportKeys.all, id] as const,
  rows: (id: string | null, kind: string, page: number) => [...contributorImportKeys.one(id), 'rows', kind, page] as const,
};
