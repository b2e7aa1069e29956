/** Query keys of the payments module. */
export const paymentKeys = {
  all: ['payments'] as const,
  list: (path: string, query: unknown) => [...paymentKeys.all, 'list', path, query] as const,
  order: (id: number, asOf: string | null) => [...paymentKeys.all, 'order', id, asOf] as const,
  totals: (query: unknown) => [...paymentKeys.all, 'totals', query] as const,
  offices: () => [...paymentKeys.all, 'offices'] as const,
  /** The active banks a bank file may name. */
  banks: () => [...paymentKeys.all, 'banks'] as const,
  corte: (query: unknown) => [...paymentKeys.all, 'corte', query] as const,
  bankFile: (id: number) => [...paymentKeys.all, 'bank-file', id] as const,
  /** A bank file's rows: a list of its own, named by the file's address. */
  bankRows: (fileId: number, query: unknown) => paymentKeys.list(`/api/bank-files/${fileId}/rows`, query),
  limits: () => [...paymentKeys.all, 'limits'] as const,
};
