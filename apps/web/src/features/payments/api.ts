import type {
  BankFile,
  BankFileRow,
  Corte,
  Payment,
  PaymentCreate,
  PaymentOrder,
  PaymentOrderTotals,
  PaymentResult,
  Receipt,
  ReceiptRange,
} from '@aporta/domain';
import type { ListResponse } from '@aporta/domain/list';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';

type Query = Record<string, string | number | boolean | undefined | null>;

/** Query keys of the payments module. */
export const paymentKeys = {
  all: ['payments'] as const,
  list: (path: string, query: unknown) => [...paymentKeys.all, 'list', path, query] as const,
  order: (id: number, asOf: string | null) => [...paymentKeys.all, 'order', id, asOf] as const,
  totals: (query: unknown) => [...paymentKeys.all, 'totals', query] as const,
  offices: () => [...paymentKeys.all, 'offices'] as const,
  corte: (query: unknown) => [...paymentKeys.all, 'corte', query] as const,
  bankFile: (id: number) => [...paymentKeys.all, 'bank-file', id] as const,
  limits: () => [...paymentKeys.all, 'limits'] as const,
};

/** After any change: lists, orders, receipts, histories and the home queues are fetched again. */
export const invalidatePayments = () => {
  void queryClient.invalidateQueries({ queryKey: paymentKeys.all });
  void queryClient.invalidateQueries({ queryKey: ['planillas'] });
  void queryClient.invalidateQueries({ queryKey: ['home'] });
};

const listHook =
  <T>(path: string, fixed: Query = {}) =>
  (query: Query) =>
    useQuery({
      queryKey: paymentKeys.list(path, { ...query, ...fixed }),
      queryFn: ({ signal }) => api<ListResponse<T>>(path, { query: { ...query, ...fixed }, signal }),
      placeholderData: keepPreviousData,
    });

export const useOrders = listHook<PaymentOrder>('/api/payment-orders');
export const useVoluntaryOrders = listHook<PaymentOrder>('/api/voluntary-payments');
export const usePayments = listHook<Payment>('/api/payments');
export const useReceipts = listHook<Receipt>('/api/receipts');
export const useRanges = listHook<ReceiptRange>('/api/receipt-ranges');
export const useBankFiles = listHook<BankFile>('/api/bank-files');
export const bankRowsHook = (fileId: number) => listHook<BankFileRow>(`/api/bank-files/${fileId}/rows`);

export const useOrderList = (query: Query, enabled = true) =>
  useQuery({
    queryKey: paymentKeys.list('/api/payment-orders', query),
    queryFn: ({ signal }) => api<ListResponse<PaymentOrder>>('/api/payment-orders', { query, signal }),
    enabled,
  });

export const usePaymentList = (query: Query, enabled = true) =>
  useQuery({
    queryKey: paymentKeys.list('/api/payments', query),
    queryFn: ({ signal }) => api<ListResponse<Payment>>('/api/payments', { query, signal }),
    enabled,
  });

export const useOrderTotals = (query: Query) =>
  useQuery({
    queryKey: paymentKeys.totals(query),
    queryFn: ({ signal }) => api<PaymentOrderTotals>('/api/payment-orders/totals', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useOrder = (id: number, asOf: string | null) =>
  useQuery({
    queryKey: paymentKeys.order(id, asOf),
    queryFn: () => api<PaymentOrder>(`/api/payment-orders/${id}`, { query: { asOf } }),
    placeholderData: keepPreviousData,
  });

export const useOffices = () =>
  useQuery({
    queryKey: paymentKeys.offices(),
    queryFn: () => api<{ items: { office: string; remaining: number }[] }>('/api/payments/offices'),
  });

export const useCorte = (query: { rangeId: number | null; from?: string | null; to?: string | null }) =>
  useQuery({
    queryKey: paymentKeys.corte(query),
    queryFn: () => api<Corte>('/api/receipt-ranges/corte', { query }),
    enabled: !!query.rangeId,
  });

export const useBankFile = (id: number) =>
  useQuery({ queryKey: paymentKeys.bankFile(id), queryFn: () => api<BankFile>(`/api/bank-files/${id}`), refetchInterval: 3000 });

export const useVoluntaryLimits = () =>
  useQuery({
    queryKey: paymentKeys.limits(),
    queryFn: () =>
      api<{ minSalary: string; maxSalary: string; employeeRate: string; employerRate: string }>('/api/voluntary-payments/limits'),
  });

export const useRegisterPayment = () =>
  useMutation({
    mutationFn: (body: PaymentCreate) => api<PaymentResult>('/api/payments', { method: 'POST', body }),
    onSuccess: invalidatePayments,
  });

/** A POST of the module that returns JSON, invalidating everything it shows on success. */
export const usePost = <B, R = unknown>(path: (vars: B) => string, body: (vars: B) => unknown = (v) => v) =>
  useMutation({
    mutationFn: (vars: B) => api<R>(path(vars), { method: 'POST', body: body(vars) }),
    onSuccess: invalidatePayments,
  });
