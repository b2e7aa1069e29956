/** Query keys of the pensions module (passive classes, survival checks, the pension payroll). */
export const pensionKeys = {
  all: ['pensions'] as const,
  list: (query: unknown) => [...pensionKeys.all, 'list', query] as const,
  one: (id: number) => [...pensionKeys.all, 'one', id] as const,
  checks: (id: number) => [...pensionKeys.all, 'checks', id] as const,
  payments: (id: number) => [...pensionKeys.all, 'payments', id] as const,
  transitions: (id: number) => [...pensionKeys.all, 'transitions', id] as const,
  survival: (query: unknown) => [...pensionKeys.all, 'survival', query] as const,
  reviews: (query: unknown) => [...pensionKeys.all, 'reviews', query] as const,
  payrolls: (query: unknown) => [...pensionKeys.all, 'payrolls', query] as const,
  payroll: (period: string) => [...pensionKeys.all, 'payroll', period] as const,
  payrollLines: (period: string, query: unknown) => [...pensionKeys.all, 'payroll-lines', period, query] as const,
  payrollExceptions: (period: string, query: unknown) => [...pensionKeys.all, 'payroll-exceptions', period, query] as const,
};
