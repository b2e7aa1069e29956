import { keepPreviousData, skipToken, useMutation, useQuery } from '@tanstack/react-query';
import { type ApiAnswer, type ApiBody, type ApiQuery, api, apiUrl } from '../../lib/api.ts';
import { downloadFile } from '../../lib/download.ts';
import { queryClient } from '../../lib/query.ts';
import { paymentKeys } from './keys.ts';

/** One payment order, as the lists and GET /api/payment-orders/{id} answer it. */
export type OrderRow = ApiAnswer<'/api/payment-orders'>['items'][number];
/** The filters, search, sort and page of the orders list (and of its totals). */
export type OrdersQuery = ApiQuery<'/api/payment-orders'>;
/** One registered payment with its receipt and allocations. */
export type PaymentRow = ApiAnswer<'/api/payments'>['items'][number];
export type PaymentsQuery = ApiQuery<'/api/payments'>;
/** What registering a payment sends, and what it answers (the payment, replayed or not, and warnings). */
export type NewPayment = ApiBody<'/api/payments'>;
export type PaymentResult = ApiAnswer<'/api/payments', 'post'>;
export type ReceiptRow = ApiAnswer<'/api/receipts'>['items'][number];
export type RangeRow = ApiAnswer<'/api/receipt-ranges'>['items'][number];
export type BankFileRecord = ApiAnswer<'/api/bank-files/{id}'>;
export type BankRow = ApiAnswer<'/api/bank-files/{id}/rows'>['items'][number];
/** A bank row's resolution: pay it against chosen orders, or discard it with a note. */
export type BankRowResolution = ApiBody<'/api/bank-files/{id}/rows/{rowId}/resolve'>;
/** The corte de formas as the screen holds it: a range (none yet) and two optional days. */
/** The query of a corte de caja: a range, and optionally its first and last day. */
export type CorteQuery = ApiQuery<'/api/receipt-ranges/corte'>;

/** After any change: lists, orders, receipts, histories and the home queues are fetched again. */
export const invalidatePayments = () => {
  void queryClient.invalidateQueries({ queryKey: paymentKeys.all });
  void queryClient.invalidateQueries({ queryKey: ['planillas'] });
  void queryClient.invalidateQueries({ queryKey: ['home'] });
};

// ── Lists (ListPage hooks) ──

export const useOrders = (query: OrdersQuery) =>
  useQuery({
    queryKey: paymentKeys.list('/api/payment-orders', query),
    queryFn: ({ signal }) => api.get('/api/payment-orders', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useVoluntaryOrders = (query: ApiQuery<'/api/voluntary-payments'>) =>
  useQuery({
    queryKey: paymentKeys.list('/api/voluntary-payments', query),
    queryFn: ({ signal }) => api.get('/api/voluntary-payments', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const usePayments = (query: PaymentsQuery) =>
  useQuery({
    queryKey: paymentKeys.list('/api/payments', query),
    queryFn: ({ signal }) => api.get('/api/payments', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useReceipts = (query: ApiQuery<'/api/receipts'>) =>
  useQuery({
    queryKey: paymentKeys.list('/api/receipts', query),
    queryFn: ({ signal }) => api.get('/api/receipts', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useRanges = (query: ApiQuery<'/api/receipt-ranges'>) =>
  useQuery({
    queryKey: paymentKeys.list('/api/receipt-ranges', query),
    queryFn: ({ signal }) => api.get('/api/receipt-ranges', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useBankFiles = (query: ApiQuery<'/api/bank-files'>) =>
  useQuery({
    queryKey: paymentKeys.list('/api/bank-files', query),
    queryFn: ({ signal }) => api.get('/api/bank-files', { query, signal }),
    placeholderData: keepPreviousData,
  });

/** The list hook of one bank file's rows. */
export const bankRowsHook = (fileId: number) => (query: ApiQuery<'/api/bank-files/{id}/rows'>) =>
  useQuery({
    queryKey: paymentKeys.bankRows(fileId, query),
    queryFn: ({ signal }) => api.get('/api/bank-files/{id}/rows', { path: { id: fileId }, query, signal }),
    placeholderData: keepPreviousData,
  });

// ── An owner's orders and payments (tabs, the payment form), fetched only when `enabled` ──

export const useOrderList = (query: OrdersQuery, enabled = true) =>
  useQuery({
    queryKey: paymentKeys.list('/api/payment-orders', query),
    queryFn: ({ signal }) => api.get('/api/payment-orders', { query, signal }),
    enabled,
  });

export const usePaymentList = (query: PaymentsQuery, enabled = true) =>
  useQuery({
    queryKey: paymentKeys.list('/api/payments', query),
    queryFn: ({ signal }) => api.get('/api/payments', { query, signal }),
    enabled,
  });

/** The query naming an owner: a municipal entity or a contributor (none: no filter). */
export const ownerQuery = (owner: { entityId?: number | null; contributorId?: number | null }) => ({
  entityId: owner.entityId ? String(owner.entityId) : undefined,
  contributorId: owner.contributorId ? String(owner.contributorId) : undefined,
});

// ── Orders ──

export const useOrderTotals = (query: ApiQuery<'/api/payment-orders/totals'>) =>
  useQuery({
    queryKey: paymentKeys.totals(query),
    queryFn: ({ signal }) => api.get('/api/payment-orders/totals', { query, signal }),
    placeholderData: keepPreviousData,
  });

export const useOrder = (id: number, asOf: string | null) =>
  useQuery({
    queryKey: paymentKeys.order(id, asOf),
    queryFn: () => api.get('/api/payment-orders/{id}', { path: { id }, query: { asOf: asOf ?? undefined } }),
    placeholderData: keepPreviousData,
  });

export const useVoidOrder = (id: number) =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/payment-orders/{id}/void'>) =>
      api.post('/api/payment-orders/{id}/void', { path: { id }, body }),
    onSuccess: invalidatePayments,
  });

/** Downloads an order as PDF, its interest and balance as of a day. */
export const downloadOrderPdf = (id: number, asOf: string) =>
  downloadFile(apiUrl('/api/payment-orders/{id}/pdf', { path: { id }, query: { asOf } }));

// ── Payments ──

/** The owner's orders as of a day (the payment's date), for the confirmation that previews a payment. */
export const fetchOrdersAsOf = (query: OrdersQuery) => api.get('/api/payment-orders', { query });

export const useOffices = () => useQuery({ queryKey: paymentKeys.offices(), queryFn: () => api.get('/api/payments/offices') });

export const useRegisterPayment = () =>
  useMutation({
    mutationFn: (body: NewPayment) => api.post('/api/payments', { body }),
    onSuccess: invalidatePayments,
  });

export const useReversePayment = () =>
  useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) =>
      api.post('/api/payments/{id}/reverse', { path: { id }, body: { reason } }),
    onSuccess: invalidatePayments,
  });

// ── Receipts and their ranges ──

export const useVoidReceipt = () =>
  useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) =>
      api.post('/api/receipts/{id}/void', { path: { id }, body: { reason } }),
    onSuccess: invalidatePayments,
  });

/** A new receipt (the next number) for a payment whose receipt was voided. */
export const useReissueReceipt = () =>
  useMutation({
    mutationFn: ({ paymentId }: { paymentId: number }) => api.post('/api/payments/{id}/receipt', { path: { id: paymentId } }),
    onSuccess: invalidatePayments,
  });

export const downloadReceiptPdf = (id: number) => downloadFile(apiUrl('/api/receipts/{id}/pdf', { path: { id } }));

export const useCreateRange = () =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/receipt-ranges'>) => api.post('/api/receipt-ranges', { body }),
    onSuccess: invalidatePayments,
  });

/** The corte of a range (none asked while no range is chosen). */
export const useCorte = (query: CorteQuery | null) =>
  useQuery({
    queryKey: paymentKeys.corte(query),
    queryFn: query ? () => api.get('/api/receipt-ranges/corte', { query }) : skipToken,
  });

export const downloadCorte = (query: CorteQuery, format: 'pdf' | 'xlsx') =>
  downloadFile(apiUrl('/api/receipt-ranges/corte/export', { query: { ...query, format } }));

// ── Voluntary payments ──

export const useVoluntaryLimits = () =>
  useQuery({ queryKey: paymentKeys.limits(), queryFn: () => api.get('/api/voluntary-payments/limits') });

export const useCreateVoluntaryOrder = () =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/voluntary-payments'>) => api.post('/api/voluntary-payments', { body }),
    onSuccess: invalidatePayments,
  });

// ── Bank files ──

/** The active banks of the «Bancos» catalogue a bank file may name, by name. */
export const useBankOptions = () =>
  useQuery({
    queryKey: paymentKeys.banks(),
    queryFn: ({ signal }) => api.get('/api/bank-files/banks', { signal }),
  });

export const useBankFile = (id: number) =>
  useQuery({
    queryKey: paymentKeys.bankFile(id),
    queryFn: () => api.get('/api/bank-files/{id}', { path: { id } }),
    refetchInterval: 3000,
  });

export const useUploadBankFile = () =>
  useMutation({
    mutationFn: (body: ApiBody<'/api/bank-files'>) => api.post('/api/bank-files', { body }),
    onSuccess: invalidatePayments,
  });

export const useResolveBankRow = (fileId: number, rowId: number) =>
  useMutation({
    mutationFn: (body: BankRowResolution) =>
      api.post('/api/bank-files/{id}/rows/{rowId}/resolve', { path: { id: fileId, rowId }, body }),
    onSuccess: invalidatePayments,
  });

/** Applies again, in a job, the matched rows whose payment was not registered. */
export const useRetryBankFile = (fileId: number) =>
  useMutation({
    mutationFn: () => api.post('/api/bank-files/{id}/retry', { path: { id: fileId } }),
    onSuccess: invalidatePayments,
  });

/** The command palette: orders by reference (grouped or not) or by entity or person; receipts by 7-B number or series. */
export const findOrdersForPalette = (q: string, signal: AbortSignal) =>
  api.get('/api/payment-orders', { query: { q, pageSize: 8 }, signal });
export const findReceiptsForPalette = (q: string, signal: AbortSignal) =>
  api.get('/api/receipts', { query: { q, pageSize: 8 }, signal });
/** The payment a receipt was issued for (its allocations name the orders it paid). */
export const getPaymentForPalette = (id: number, signal: AbortSignal) => api.get('/api/payments/{id}', { path: { id }, signal });
