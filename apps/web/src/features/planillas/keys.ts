/** Query keys of the planillas module. */
export const planillaKeys = {
  all: ['planillas'] as const,
  list: (path: string, query: unknown) => [...planillaKeys.all, 'list', path, query] as const,
  one: (id: number | null) => [...planillaKeys.all, 'one', id] as const,
  lines: (id: number, query: unknown) => [...planillaKeys.all, 'lines', id, query] as const,
  history: (id: number) => [...planillaKeys.all, 'history', id] as const,
  comments: (id: number) => [...planillaKeys.all, 'comments', id] as const,
  comparison: (id: number) => [...planillaKeys.all, 'comparison', id] as const,
  overview: (period: string | null) => [...planillaKeys.all, 'overview', period] as const,
  contributorHistory: (query: unknown) => [...planillaKeys.all, 'contributor-history', query] as const,
  entityHistory: (query: unknown) => [...planillaKeys.all, 'entity-history', query] as const,
  employees: (query: unknown) => [...planillaKeys.all, 'employees', query] as const,
  openUploads: () => [...planillaKeys.all, 'uploads'] as const,
  upload: (id: string | null) => [...planillaKeys.all, 'upload', id] as const,
  uploadRows: (id: string, kind: string, page: number) => [...planillaKeys.all, 'upload', id, 'rows', kind, page] as const,
};
