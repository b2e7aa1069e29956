import Big from 'big.js';
import { z } from 'zod';
import { actingDateSchema, actingPeriodSchema } from './acting-dates.ts';
import { cuiSchema, dateSchema, idSchema, idTextSchema, isCalendarDate, MAX_ID, periodSchema, textSchema } from './fields.ts';
import { listQuerySchema } from './list.ts';
import { isMessage, keyOfText, type Message, msg, text } from './messages.ts';
import {
  allocate,
  allocateByRatios,
  type Cents,
  MAX_MONTHLY_AMOUNT_CENTS,
  moneyDecimalSchema,
  moneyInputSchema,
  type Rate,
  rateDecimalSchema,
} from './money.ts';
import { formatPeriod, periodStart } from './periods.ts';
import { addBusinessDays, type BusinessCalendar, nextBusinessDay } from './settings.ts';
import { availableTransitionSchema, defineMachine } from './state-machine.ts';

/**
 * Payment orders, payments, 7-B receipts and voluntary payments (issue 13). The rules that decide money
 * are pure functions here (reference check digits, due date, interest as of a date, how a payment is
 * applied), tested on their own; the API runs the same interest rule set-based in SQL for lists.
 */

// ─── Payment reference (ISO 7064 MOD 97-10) ──────────────────────────────────────────────────────────

export const orderKinds = ['LABORAL', 'PATRONAL', 'VOLUNTARIO', 'CONVENIO'] as const;
export const orderKindSchema = z.enum(orderKinds, { error: text('payments.orderKindInvalid') });
export type OrderKind = z.infer<typeof orderKindSchema>;
export const orderKindLabels: Record<OrderKind, string> = {
  LABORAL: 'Cuota laboral',
  PATRONAL: 'Cuota patronal',
  VOLUNTARIO: 'Pago voluntario',
  CONVENIO: 'Cuota de convenio',
};
const kindDigit: Record<OrderKind, string> = { LABORAL: '1', PATRONAL: '2', VOLUNTARIO: '3', CONVENIO: '4' };

/** `digits mod 97`, digit by digit (the number has more digits than a float holds exactly). */
export function mod97(digits: string): number {
  let r = 0;
  for (const ch of digits) r = (r * 10 + (ch.charCodeAt(0) - 48)) % 97;
  return r;
}

/** The two ISO 7064 MOD 97-10 check digits of `body` (as IBAN computes them): `98 − (body·100 mod 97)`. */
export function mod97CheckDigits(body: string): string {
  if (!/^\d+$/.test(body)) throw new RangeError(`La base de la referencia debe ser numérica: ${body}`);
  return String(98 - mod97(`${body}00`)).padStart(2, '0');
}

/** A reference is valid when it is all digits and the whole number mod 97 is 1 (what a bank checks). */
export const isValidPaymentReference = (ref: string): boolean => /^\d{3,30}$/.test(ref) && mod97(ref) === 1;

/**
 * The reference of an order: owner (entity or, for voluntary payments, contributor) id in 7 digits,
 * period `AAAAMM`, kind digit (1 laboral, 2 patronal, 3 voluntario), sequence in 3 digits, then the two
 * check digits — 19 digits a bank validates without asking us.
 */
export function paymentReference(p: { ownerId: number; period: string; kind: OrderKind; sequence: number }): string {
  if (!Number.isSafeInteger(p.ownerId) || p.ownerId < 1 || p.ownerId > 9_999_999)
    throw new RangeError(`Titular no válido: ${p.ownerId}`);
  if (!Number.isSafeInteger(p.sequence) || p.sequence < 1 || p.sequence > 999)
    throw new RangeError(`Secuencia no válida: ${p.sequence}`);
  const body = `${String(p.ownerId).padStart(7, '0')}${p.period.replace('-', '')}${kindDigit[p.kind]}${String(p.sequence).padStart(3, '0')}`;
  return `${body}${mod97CheckDigits(body)}`;
}

/** A reference as printed: groups of four digits. */
export const formatPaymentReference = (ref: string): string => ref.match(/.{1,4}/g)?.join(' ') ?? ref;

/** Reads a reference as a bank file or a person writes it (spaces, dashes): the digits, or null. */
export function normalizePaymentReference(input: string): string | null {
  const digits = input.replace(/[\s-]/g, '');
  return /^\d{3,30}$/.test(digits) ? digits : null;
}

// ─── Due date and interest ───────────────────────────────────────────────────────────────────────────

/** Day `dueDay` of the month after `period`, moved to the next business day of the calendar. */
export function orderDueDate(period: string, dueDay: number, cal: BusinessCalendar): string {
  const [y, m] = period.split('-').map(Number);
  const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  return nextBusinessDay(`${periodStart(next).slice(0, 8)}${String(dueDay).padStart(2, '0')}`, cal);
}

/**
 * Why an order falls due when it does: `LEGAL`, the configured day of the month after the period (moved to
 * a business day); `AFTER_REVIEW`, N business days after the approval of a planilla that was submitted on
 * time but approved after that day (DOMAIN "Interest, further", issue 28).
 */
export const dueBases = ['LEGAL', 'AFTER_REVIEW'] as const;
export const dueBasisSchema = z.enum(dueBases);
export type DueBasis = z.infer<typeof dueBasisSchema>;

export interface PlanillaDueInput {
  /** The planilla's period, `AAAA-MM`. */
  period: string;
  /**
   * The Guatemala day of the planilla's LAST submission before approval (a planilla returned for
   * corrections and sent again counts from the day it was sent again); null when unknown (never submitted
   * through the application): the legal date applies.
   */
  submittedOn: string | null;
  /** The Guatemala day of the approval. */
  approvedOn: string;
  /** `paymentOrders.dueDay` in force on the approval day. */
  dueDay: number;
  /** `paymentOrders.businessDaysAfterLateApproval` in force on the approval day. */
  businessDaysAfterApproval: number;
  calendar: BusinessCalendar;
}

export interface PlanillaDue {
  dueDate: string;
  basis: DueBasis;
  /** The legal due date (`orderDueDate`), whatever the basis. */
  legalDueDate: string;
}

/**
 * The due date of the orders an approved planilla issues. The legal date (`orderDueDate`) unless the
 * planilla was submitted on time (its last submission on or before the legal date) and approved after
 * the legal date: then N business days after the approval (N = 0: the approval day, or the next
 * business day when it is not one), so the entity pays no interest for the days the institution held it
 * (DOMAIN "Interest, further"). A late submission keeps the legal date: its interest runs from the day
 * after it, review days included, since the entity's own delay counts. Never earlier than the legal date.
 */
export function planillaOrderDue(p: PlanillaDueInput): PlanillaDue {
  const legalDueDate = orderDueDate(p.period, p.dueDay, p.calendar);
  const timely = p.submittedOn !== null && p.submittedOn <= legalDueDate;
  if (!timely || p.approvedOn <= legalDueDate) return { dueDate: legalDueDate, basis: 'LEGAL', legalDueDate };
  const n = p.businessDaysAfterApproval;
  const afterReview = n > 0 ? addBusinessDays(p.approvedOn, n, p.calendar) : nextBusinessDay(p.approvedOn, p.calendar);
  return { dueDate: afterReview, basis: 'AFTER_REVIEW', legalDueDate };
}

/** An annual interest rate and the day it took effect (effective-dated setting rows, any order). */
export interface RateFrom {
  from: string;
  rate: Rate;
}

const Dec = Big();
Dec.DP = 30;
Dec.RM = Dec.roundHalfUp;
Dec.strict = true;

const dayNumber = (iso: string) =>
  Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10))) / 86_400_000;

/**
 * Simple interest on `principal` for the days after `start` up to and including `end`, each day at the
 * annual rate in force on it: `principal × Σ(rate × days) / 36500`, rounded half-up to the cent ONCE
 * (DOMAIN: once per order and period of unpaid principal, never day by day). 0 when `end ≤ start`.
 * Days before the first rate's date accrue nothing (no rate was in force).
 */
export function interestBetween(principal: Cents, start: string, end: string, rates: readonly RateFrom[]): Cents {
  if (principal <= 0n || end <= start) return 0n;
  const sorted = [...rates].sort((a, b) => a.from.localeCompare(b.from));
  const s = dayNumber(start) + 1; // first day that accrues
  const e = dayNumber(end) + 1; // exclusive
  let rateDays = new Dec('0');
  for (let i = 0; i < sorted.length; i++) {
    const from = Math.max(s, dayNumber(sorted[i].from));
    const to = Math.min(e, i + 1 < sorted.length ? dayNumber(sorted[i + 1].from) : e);
    if (to > from) rateDays = rateDays.plus(new Dec(sorted[i].rate).times(new Dec(String(to - from))));
  }
  const exact = new Dec(String(principal)).times(rateDays).div('36500');
  return BigInt(exact.round(0, 1).toFixed(0));
}

/** What an order keeps to know its balance on any date. */
export interface OrderMoney {
  principal: Cents;
  principalPaid: Cents;
  /** Interest fixed (rounded) at the payments so far, paid or not. */
  interestAccrued: Cents;
  interestPaid: Cents;
  /** Interest is fixed up to this day (the due date at first, then each payment's date). */
  accruedTo: string;
  /**
   * The part of `principal` that is principal of a debt and so accrues late interest; null or absent:
   * all of it. An agreement instalment carries its share of the consolidated principal here: the rest of
   * its amount is consolidated interest and the administrative charge, on which no interest accrues
   * (DOMAIN "Interest, further": no anatocism).
   */
  principalShare?: Cents | null;
}

export interface OrderBalance {
  principalDue: Cents;
  interestDue: Cents;
  /** Interest of the current period of unpaid principal (after `accruedTo`), not yet fixed. */
  interestNew: Cents;
  total: Cents;
}

/**
 * What of an order's unpaid amount accrues interest: its unpaid principal share. A payment goes to the
 * amount's interest and charge before its principal share (DOMAIN "Applying a payment": interest first),
 * so the share stays unpaid until the rest is paid: `min(share, principal − paid)`.
 */
export function interestBase(o: Pick<OrderMoney, 'principal' | 'principalPaid' | 'principalShare'>): Cents {
  const unpaid = o.principal - o.principalPaid;
  const share = o.principalShare ?? o.principal;
  return smaller(share, unpaid);
}

/** The balance of an order on `asOf`: unpaid principal, interest fixed and unpaid plus interest since. */
export function orderBalance(o: OrderMoney, asOf: string, rates: readonly RateFrom[]): OrderBalance {
  const principalDue = o.principal - o.principalPaid;
  const interestNew = interestBetween(interestBase(o), o.accruedTo, asOf, rates);
  const interestDue = o.interestAccrued - o.interestPaid + interestNew;
  return { principalDue, interestDue, interestNew, total: principalDue + interestDue };
}

export interface Allocation {
  orderId: number;
  interest: Cents;
  principal: Cents;
}

/**
 * Applies `amount` to the orders named, oldest due date first (then by id); within an order the
 * interest first, then the principal (DOMAIN "Applying a payment"). Returns what goes to each order
 * and what is left over (`excess` > 0: the payment exceeds the balances; the caller refuses it).
 */
/** The smaller of two amounts (bigint: Math.min does not take them). */
const smaller = (a: Cents, b: Cents): Cents => (a - b < 0n ? a : b);

export function allocatePayment(
  amount: Cents,
  orders: readonly { orderId: number; dueDate: string; interestDue: Cents; principalDue: Cents }[],
): { allocations: Allocation[]; excess: Cents } {
  if (amount <= 0n) throw new RangeError('El monto debe ser positivo.');
  let left = amount;
  const allocations: Allocation[] = [];
  const sorted = [...orders].sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.orderId - b.orderId);
  for (const o of sorted) {
    const interest = smaller(left, o.interestDue);
    left -= interest;
    const principal = smaller(left, o.principalDue);
    left -= principal;
    allocations.push({ orderId: o.orderId, interest, principal });
  }
  return { allocations: allocations.filter((a) => a.interest + a.principal > 0n), excess: left };
}

// ─── States ─────────────────────────────────────────────────────────────────────────────────────────

/** CONVENIDA: consolidated into a payment agreement (it leaves the arrears; its history is kept). */
export const orderStates = ['EMITIDA', 'PAGADA', 'ANULADA', 'CONVENIDA'] as const;
/**
 * What a list shows (never stored; docs/decisions.md "A partly paid order's state"): `VENCIDA` is EMITIDA
 * past its due date on the day asked; `PAGADA_PARCIAL` is EMITIDA not yet due with part of its amount paid
 * by that day. Past its due date a partly paid order shows VENCIDA (interest runs: what matters most), and
 * its amounts show what was paid.
 */
export const orderShownStates = ['EMITIDA', 'PAGADA_PARCIAL', 'VENCIDA', 'PAGADA', 'ANULADA', 'CONVENIDA'] as const;
export const orderShownStateSchema = z.enum(orderShownStates, { error: text('payments.orderStateInvalid') });
export type OrderShownState = z.infer<typeof orderShownStateSchema>;
export const orderStateLabels: Record<OrderShownState, string> = {
  EMITIDA: 'Emitida',
  PAGADA_PARCIAL: 'Pagada parcialmente',
  VENCIDA: 'Vencida',
  PAGADA: 'Pagada',
  ANULADA: 'Anulada',
  CONVENIDA: 'En convenio',
};

/**
 * The state an order shows on `asOf`, from its stored state (as of that day), due date and what was paid
 * by then (principal plus interest, cents): VENCIDA before PAGADA_PARCIAL before EMITIDA.
 */
export function orderShownState(
  stored: (typeof orderStates)[number],
  dueDate: string,
  paid: Cents,
  asOf: string,
): OrderShownState {
  if (stored !== 'EMITIDA') return stored;
  if (dueDate < asOf) return 'VENCIDA';
  return paid > 0n ? 'PAGADA_PARCIAL' : 'EMITIDA';
}

/**
 * An order's amounts as a statement that adds up (cents): principal + interest accrued − principal paid −
 * interest paid = balance, where interest accrued is all the interest up to the day asked (fixed at
 * payments plus the interest since) and interest due its unpaid part.
 */
export function orderStatement(o: { principal: Cents; principalPaid: Cents; interestPaid: Cents; interestDue: Cents }): {
  interestAccrued: Cents;
  paid: Cents;
  principalDue: Cents;
  balance: Cents;
} {
  const principalDue = o.principal - o.principalPaid;
  return {
    interestAccrued: o.interestPaid + o.interestDue,
    paid: o.principalPaid + o.interestPaid,
    principalDue,
    balance: principalDue + o.interestDue,
  };
}

/**
 * An order's lifecycle: payments move it to PAGADA when its balance is zero (and a reversal back to
 * EMITIDA) — the system does it in the payment's transaction; a person only voids (with a reason).
 */
export const paymentOrderMachine = defineMachine({
  entityType: 'payment-order',
  label: 'La orden de pago',
  states: orderStates,
  stateLabels: { EMITIDA: 'Emitida', PAGADA: 'Pagada', ANULADA: 'Anulada', CONVENIDA: 'En convenio' },
  initial: 'EMITIDA',
  transitions: [
    {
      key: 'ORDER_VOID',
      from: 'EMITIDA',
      to: 'ANULADA',
      label: 'Anular',
      permission: { resource: 'payment-orders', action: 'DELETE' },
      commentRequired: true,
    },
  ],
});

export const paymentStates = ['REGISTRADO', 'REVERTIDO'] as const;
export const paymentStateLabels: Record<(typeof paymentStates)[number], string> = {
  REGISTRADO: 'Registrado',
  REVERTIDO: 'Revertido',
};
export const receiptStates = ['EMITIDO', 'ANULADO'] as const;
export const receiptStateLabels: Record<(typeof receiptStates)[number], string> = { EMITIDO: 'Emitido', ANULADO: 'Anulado' };
export const rangeStates = ['ACTIVO', 'AGOTADO', 'ANULADO'] as const;
export const rangeStateLabels: Record<(typeof rangeStates)[number], string> = {
  ACTIVO: 'Activo',
  AGOTADO: 'Agotado',
  ANULADO: 'Anulado',
};

// ─── Contracts ──────────────────────────────────────────────────────────────────────────────────────

/** An id in a query string; `error`: the catalogue's text naming it (`text('payments.entityFilterInvalid')`). */
const idFilter = (error: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,8}$/, { error })
    .transform(Number);

export const paymentOrderSchema = z.object({
  id: z.number().int(),
  kind: orderKindSchema,
  entityId: z.number().int().nullable(),
  entityName: z.string().nullable(),
  entityCode: z.string().nullable(),
  contributorId: z.number().int().nullable(),
  contributorName: z.string().nullable(),
  contributorCui: z.string().nullable(),
  planillaId: z.number().int().nullable(),
  period: z.string(),
  periods: z.array(z.string()),
  reference: z.string(),
  issueDate: z.string(),
  dueDate: z.string(),
  /** Why it falls due then: the legal day, or N business days after the late approval of a timely planilla. */
  dueBasis: dueBasisSchema,
  state: orderShownStateSchema,
  /**
   * The statement as of `asOf`, which adds up to the cent: principal + interestAccrued − principalPaid −
   * interestPaid = balance; principalDue = principal − principalPaid; balance = principalDue + interestDue.
   */
  principal: moneyDecimalSchema,
  /** All the late interest up to `asOf`: paid (interestPaid) and unpaid (interestDue). */
  interestAccrued: moneyDecimalSchema,
  principalPaid: moneyDecimalSchema,
  interestPaid: moneyDecimalSchema,
  /** principalPaid + interestPaid. */
  paid: moneyDecimalSchema,
  /** The unpaid principal. */
  principalDue: moneyDecimalSchema,
  /** The unpaid interest, as of `asOf`. */
  interestDue: moneyDecimalSchema,
  balance: moneyDecimalSchema,
  overdueDays: z.number().int(),
  asOf: z.string(),
  voidReason: z.string().nullable(),
  transitions: z.array(availableTransitionSchema),
});
export type PaymentOrder = z.infer<typeof paymentOrderSchema>;

export const paymentOrderListQuerySchema = listQuerySchema.extend({
  entityId: idFilter(text('payments.entityFilterInvalid')).optional(),
  contributorId: idFilter(text('payments.contributorFilterInvalid')).optional(),
  period: periodSchema.optional(),
  state: orderShownStateSchema.optional(),
  kind: orderKindSchema.optional(),
  /** Overdue at least this many days on `asOf`. */
  minOverdueDays: z
    .string()
    .regex(/^\d{1,5}$/, { error: text('payments.overdueDaysInvalid') })
    .transform(Number)
    .optional(),
  asOf: dateSchema.optional(),
});
export type PaymentOrderListQuery = z.infer<typeof paymentOrderListQuerySchema>;

export const paymentOrderTotalsSchema = z.object({
  count: z.number().int(),
  principal: moneyDecimalSchema,
  /** All the late interest up to `asOf` (paid and unpaid): over owed orders, principal + interestAccrued − paid = balance. */
  interestAccrued: moneyDecimalSchema,
  paid: moneyDecimalSchema,
  interestDue: moneyDecimalSchema,
  balance: moneyDecimalSchema,
  asOf: z.string(),
});
export type PaymentOrderTotals = z.infer<typeof paymentOrderTotalsSchema>;

export const orderAsOfQuerySchema = z.object({ asOf: dateSchema.optional() });

export const orderVoidSchema = z.object({ reason: textSchema({ label: 'El motivo', max: 500, min: 1 }) }).strict();

export const paymentAllocationSchema = z.object({
  orderId: z.number().int(),
  reference: z.string(),
  kind: orderKindSchema,
  period: z.string(),
  interest: moneyDecimalSchema,
  principal: moneyDecimalSchema,
});

export const receiptSchema = z.object({
  id: z.number().int(),
  rangeId: z.number().int(),
  office: z.string(),
  series: z.string(),
  number: z.number().int(),
  paymentId: z.number().int(),
  entityName: z.string().nullable(),
  contributorName: z.string().nullable(),
  amount: moneyDecimalSchema,
  issuedAt: z.string(),
  state: z.enum(receiptStates),
  voidReason: z.string().nullable(),
  voidedAt: z.string().nullable(),
  voidedByEmail: z.string().nullable(),
});
export type Receipt = z.infer<typeof receiptSchema>;

/** An issuing office with an active 7-B range, and how many forms its active ranges have left. */
export const receiptOfficeSchema = z.object({ office: z.string(), remaining: z.number().int() });
export type ReceiptOffice = z.infer<typeof receiptOfficeSchema>;
export const receiptOfficeListSchema = z.object({ items: z.array(receiptOfficeSchema) });

export const paymentSchema = z.object({
  id: z.number().int(),
  entityId: z.number().int().nullable(),
  entityName: z.string().nullable(),
  contributorId: z.number().int().nullable(),
  contributorName: z.string().nullable(),
  /** The «Bancos» catalogue's bank (null for payments registered before it was chosen from the catalogue). */
  bankId: z.number().int().nullable(),
  /** The bank's name when the payment was registered (free text in older payments). */
  bank: z.string(),
  payDate: z.string(),
  bankReference: z.string(),
  amount: moneyDecimalSchema,
  office: z.string(),
  state: z.enum(paymentStates),
  reverseReason: z.string().nullable(),
  createdAt: z.string(),
  createdByEmail: z.string().nullable(),
  allocations: z.array(paymentAllocationSchema),
  receipt: receiptSchema.nullable(),
});
export type Payment = z.infer<typeof paymentSchema>;

/** The answer to registering a payment: the payment, whether it was a repeat, and any warning (a range running out). */
export const paymentResultSchema = z.object({
  payment: paymentSchema,
  replayed: z.boolean(),
  warnings: z.array(z.string()),
});
export type PaymentResult = z.infer<typeof paymentResultSchema>;

const bankIdMessage = text('payments.bankRequired');
const bankReferenceSchema = textSchema({ label: 'La referencia bancaria', max: 60, min: 1 });
const officeSchema = z
  .string({ error: text('payments.officeRequired') })
  .trim()
  .regex(/^[A-Z0-9][A-Z0-9_-]{0,19}$/, { error: text('payments.officeInvalid') });

export const paymentCreateSchema = z
  .object({
    /** Chosen by the client once per submission: a repeat with the same key is answered with the first result. */
    idempotencyKey: z
      .string({ error: text('payments.idempotencyKeyRequired') })
      .regex(/^[A-Za-z0-9_-]{8,80}$/, { error: text('payments.idempotencyKeyInvalid') }),
    orderIds: z
      .array(idSchema, { error: text('payments.orderIdsRequired') })
      .min(1, { error: text('payments.orderIdsEmpty') })
      .max(50, { error: text('payments.orderIdsTooMany') })
      .refine((v) => new Set(v).size === v.length, { error: text('payments.orderIdsRepeated') }),
    /** A bank of the «Bancos» catalogue, active (GET /api/bank-files/banks); the payment keeps its name. */
    bankId: z
      .number({ error: bankIdMessage })
      .int({ error: bankIdMessage })
      .positive({ error: bankIdMessage })
      .max(MAX_ID, { error: bankIdMessage })
      .optional(),
    /**
     * Instead of `bankId` (clients that name the bank): the code or the name of an active bank of the
     * catalogue (`BANRURAL`, `Banco Industrial`); never stored as typed — an unknown bank is refused.
     */
    bank: z.string({ error: bankIdMessage }).trim().min(1, { error: bankIdMessage }).max(80).optional(),
    payDate: actingDateSchema('La fecha de pago'),
    bankReference: bankReferenceSchema,
    amount: moneyInputSchema('El monto'),
    office: officeSchema,
  })
  .strict()
  .refine((p) => p.bankId !== undefined || p.bank !== undefined, { error: bankIdMessage, path: ['bankId'] });
export type PaymentCreate = z.infer<typeof paymentCreateSchema>;

export const paymentReverseSchema = z.object({ reason: textSchema({ label: 'El motivo', max: 500, min: 1 }) }).strict();
export const receiptVoidSchema = paymentReverseSchema;

export const paymentListQuerySchema = listQuerySchema.extend({
  entityId: idFilter(text('payments.entityFilterInvalid')).optional(),
  contributorId: idFilter(text('payments.contributorFilterInvalid')).optional(),
  state: z.enum(paymentStates).optional(),
  from: dateSchema.optional(),
  to: dateSchema.optional(),
});
export type PaymentListQuery = z.infer<typeof paymentListQuerySchema>;

export const receiptListQuerySchema = listQuerySchema.extend({
  rangeId: idFilter(text('payments.rangeFilterInvalid')).optional(),
  state: z.enum(receiptStates).optional(),
  from: dateSchema.optional(),
  to: dateSchema.optional(),
});
export type ReceiptListQuery = z.infer<typeof receiptListQuerySchema>;

// ─── Receipt ranges ─────────────────────────────────────────────────────────────────────────────────

/** A receipt number; `errors`: the catalogue's texts naming the field. */
const receiptNumber = (errors: { notInteger: string; tooSmall: string; tooLarge: string }) =>
  z
    .number({ error: errors.notInteger })
    .int({ error: errors.notInteger })
    .min(1, { error: errors.tooSmall })
    .max(999_999_999, { error: errors.tooLarge });

export const receiptRangeCreateSchema = z
  .object({
    office: officeSchema,
    series: z
      .string({ error: text('payments.seriesRequired') })
      .trim()
      .regex(/^[A-Z0-9-]{1,10}$/, { error: text('payments.seriesInvalid') }),
    firstNumber: receiptNumber({
      notInteger: text('payments.firstNumberNotInteger'),
      tooSmall: text('payments.firstNumberTooSmall'),
      tooLarge: text('payments.firstNumberTooLarge'),
    }),
    lastNumber: receiptNumber({
      notInteger: text('payments.lastNumberNotInteger'),
      tooSmall: text('payments.lastNumberTooSmall'),
      tooLarge: text('payments.lastNumberTooLarge'),
    }),
    authorizationRef: textSchema({ label: 'La resolución de autorización', max: 80, min: 1 }),
    authorizationDate: actingDateSchema('La fecha de autorización'),
  })
  .strict()
  .refine((r) => r.lastNumber >= r.firstNumber, {
    error: text('payments.lastNumberBelowFirst'),
    path: ['lastNumber'],
  });
export type ReceiptRangeCreate = z.infer<typeof receiptRangeCreateSchema>;

export const receiptRangeSchema = z.object({
  id: z.number().int(),
  office: z.string(),
  series: z.string(),
  firstNumber: z.number().int(),
  lastNumber: z.number().int(),
  nextNumber: z.number().int(),
  used: z.number().int(),
  remaining: z.number().int(),
  authorizationRef: z.string(),
  authorizationDate: z.string(),
  state: z.enum(rangeStates),
  /** Remaining numbers at or below the warning threshold. */
  runningOut: z.boolean(),
  createdAt: z.string(),
});
export type ReceiptRange = z.infer<typeof receiptRangeSchema>;

export const receiptRangeListQuerySchema = listQuerySchema.extend({
  office: z.string().trim().max(20).optional(),
  state: z.enum(rangeStates).optional(),
});

export const corteQuerySchema = z
  .object({
    rangeId: idTextSchema,
    from: dateSchema.optional(),
    to: dateSchema.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    error: text('payments.corteDatesReversed'),
    path: ['to'],
  });

export const corteSchema = z.object({
  range: receiptRangeSchema,
  from: z.string().nullable(),
  to: z.string().nullable(),
  used: z.number().int(),
  voided: z.number().int(),
  remaining: z.number().int(),
  firstNumber: z.number().int().nullable(),
  lastNumber: z.number().int().nullable(),
  amount: moneyDecimalSchema,
  voidedNumbers: z.array(z.object({ number: z.number().int(), reason: z.string().nullable(), voidedAt: z.string().nullable() })),
});
export type Corte = z.infer<typeof corteSchema>;

// ─── Bank files ─────────────────────────────────────────────────────────────────────────────────────

/**
 * CONCILIADA: matched, its payment registered by the apply job (until then `paymentId` is null);
 * NO_APLICADA: matched but the job could not register its payment (the reason in `message`): staff apply it
 * again or resolve it by hand.
 */
export const bankRowStates = [
  'CONCILIADA',
  'NO_APLICADA',
  'SIN_COINCIDENCIA',
  'MONTO_DIFERENTE',
  'RESUELTA',
  'DESCARTADA',
  'ERROR',
] as const;
export type BankRowState = (typeof bankRowStates)[number];
/** The states that wait for a person (the list's "PENDIENTES" filter; resolving accepts only these). */
export const bankRowPendingStates = ['NO_APLICADA', 'SIN_COINCIDENCIA', 'MONTO_DIFERENTE', 'ERROR'] as const;
export const bankRowStateLabels: Record<BankRowState, string> = {
  CONCILIADA: 'Conciliada',
  NO_APLICADA: 'No aplicada',
  SIN_COINCIDENCIA: 'Sin orden que coincida',
  MONTO_DIFERENTE: 'Monto distinto del saldo',
  RESUELTA: 'Resuelta',
  DESCARTADA: 'Descartada',
  ERROR: 'Con error',
};

export const bankFileCreateSchema = z
  .object({
    /** A bank of the «Bancos» catalogue, active; the file keeps its name as it is at import time. */
    bankId: z
      .number({ error: bankIdMessage })
      .int({ error: bankIdMessage })
      .positive({ error: bankIdMessage })
      .max(MAX_ID, { error: bankIdMessage }),
    office: officeSchema,
    /** The CSV text: a header `fecha,referencia,monto` then one row per deposit. */
    content: z
      .string({ error: text('payments.bankFileContentRequired') })
      .min(1, { error: text('payments.bankFileContentEmpty') })
      .max(5_000_000),
    fileName: z.string().trim().max(200).default('banco.csv'),
  })
  .strict();
export type BankFileCreate = z.infer<typeof bankFileCreateSchema>;

export const bankFileSchema = z.object({
  id: z.number().int(),
  /** The catalogue's bank (null for files imported before the catalogue); `bank` is its name at import time. */
  bankId: z.number().int().nullable(),
  bank: z.string(),
  office: z.string(),
  fileName: z.string(),
  rows: z.number().int(),
  matched: z.number().int(),
  unmatched: z.number().int(),
  mismatched: z.number().int(),
  errors: z.number().int(),
  resolved: z.number().int(),
  /** Matched rows whose payment is not registered and no job is applying (NO_APLICADA, or left by a job that ended). */
  notApplied: z.number().int(),
  /** The job registering the matched rows' payments while it is queued or running, else null. */
  applyJobId: z.number().int().nullable(),
  createdAt: z.string(),
  createdByEmail: z.string().nullable(),
});
export type BankFile = z.infer<typeof bankFileSchema>;

/** An active bank of the catalogue, as the bank-file screen offers it (readable with the bank-file permission). */
export const bankOptionSchema = z.object({ id: z.number().int(), code: z.string(), name: z.string() });
export type BankOption = z.infer<typeof bankOptionSchema>;
export const bankOptionListSchema = z.array(bankOptionSchema);

export const bankFileRowSchema = z.object({
  id: z.number().int(),
  fileId: z.number().int(),
  rowNumber: z.number().int(),
  payDate: z.string().nullable(),
  reference: z.string(),
  amount: moneyDecimalSchema.nullable(),
  state: z.enum(bankRowStates),
  message: z.string().nullable(),
  orderId: z.number().int().nullable(),
  paymentId: z.number().int().nullable(),
});
export type BankFileRow = z.infer<typeof bankFileRowSchema>;

export const bankRowResolveSchema = z
  .object({
    decision: z.enum(['PAGAR', 'DESCARTAR'], { error: text('payments.bankRowDecisionInvalid') }),
    orderIds: z.array(idSchema).max(50).optional(),
    reason: textSchema({ label: 'La nota', max: 500 }).optional(),
  })
  .strict()
  .refine((r) => r.decision === 'DESCARTAR' || (r.orderIds?.length ?? 0) > 0, {
    error: text('payments.bankRowOrdersRequired'),
    path: ['orderIds'],
  })
  .refine((r) => r.decision === 'PAGAR' || (r.reason?.length ?? 0) > 0, {
    error: text('payments.bankRowDiscardReasonRequired'),
    path: ['reason'],
  });

export interface BankCsvRow {
  rowNumber: number;
  payDate: string | null;
  reference: string;
  amount: Cents | null;
  /** The row's problems, from the catalogue (a row stores their Spanish texts, joined). */
  problems: Message[];
}

/** An amount reader's problem as a message: its own when it gives one, else its text under a passthrough key. */
const amountProblem = (m: string | Message): Message => {
  if (isMessage(m)) return m;
  const key = keyOfText(m);
  return key ? { key, text: m } : msg('payments.bankRowAmountProblem', { problem: m });
};

/**
 * Reads a bank's CSV (`fecha,referencia,monto`; `;` also accepted as separator; dates `AAAA-MM-DD` or
 * `DD/MM/AAAA`; amounts as parseAmount reads them). Each row carries its problems as messages; a
 * reference repeated in the file marks every copy (nothing is guessed, nothing is paid twice).
 */
export function parseBankCsv(
  csv: string,
  parseAmountText: (s: string) => { ok: true; cents: Cents } | { ok: false; message: string | Message },
): {
  rows: BankCsvRow[];
  headerProblem: Message | null;
} {
  const lines = csv.replace(/^\ufeff/, '').split(/\r?\n/);
  const header = (lines[0] ?? '').toLowerCase();
  const sep = header.includes(';') ? ';' : ',';
  const cols = header.split(sep).map((h) => h.trim());
  const iDate = cols.indexOf('fecha');
  const iRef = cols.indexOf('referencia');
  const iAmount = cols.indexOf('monto');
  if (iDate < 0 || iRef < 0 || iAmount < 0) {
    return { rows: [], headerProblem: msg('payments.bankCsvHeaderMissing') };
  }
  const rows: BankCsvRow[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    const cells = splitCsvLine(lines[i], sep);
    const problems: Message[] = [];
    const rawDate = (cells[iDate] ?? '').trim();
    const dmy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(rawDate);
    const iso = dmy ? `${dmy[3]}-${dmy[2].padStart(2, '0')}-${dmy[1].padStart(2, '0')}` : rawDate;
    const payDate = /^\d{4}-\d{2}-\d{2}$/.test(iso) && isCalendarDate(iso) ? iso : null;
    if (!payDate) problems.push(msg('payments.bankRowDateInvalid', { value: rawDate.slice(0, 20) }));
    const rawRef = (cells[iRef] ?? '').trim().slice(0, 40);
    const reference = normalizePaymentReference(rawRef);
    if (!reference) problems.push(msg('payments.bankRowReferenceInvalid', { value: rawRef }));
    else if (!isValidPaymentReference(reference)) problems.push(msg('payments.bankRowCheckDigitsWrong', { reference: rawRef }));
    const amt = parseAmountText((cells[iAmount] ?? '').trim().slice(0, 40));
    if (!amt.ok) problems.push(amountProblem(amt.message));
    else if (amt.cents <= 0n) problems.push(msg('payments.amountNotPositive'));
    rows.push({ rowNumber: i + 1, payDate, reference: reference ?? rawRef, amount: amt.ok ? amt.cents : null, problems });
  }
  const count = new Map<string, number>();
  for (const r of rows) count.set(r.reference, (count.get(r.reference) ?? 0) + 1);
  for (const r of rows) {
    if ((count.get(r.reference) ?? 0) > 1) r.problems.push(msg('payments.bankRowReferenceRepeated', { reference: r.reference }));
  }
  return { rows, headerProblem: null };
}

function splitCsvLine(line: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === sep) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

// ─── Voluntary payments ─────────────────────────────────────────────────────────────────────────────

export const voluntaryOrderCreateSchema = z
  .object({
    cui: cuiSchema,
    periods: z
      .array(actingPeriodSchema('El mes', 0), { error: text('payments.voluntaryPeriodsRequired') })
      .min(1, { error: text('payments.voluntaryPeriodsEmpty') })
      .max(24, { error: text('payments.voluntaryPeriodsTooMany') })
      .refine((v) => new Set(v).size === v.length, { error: text('payments.voluntaryPeriodsRepeated') }),
    salary: moneyInputSchema('El salario declarado', { maxCents: MAX_MONTHLY_AMOUNT_CENTS }),
  })
  .strict();
export type VoluntaryOrderCreate = z.infer<typeof voluntaryOrderCreateSchema>;

/**
 * What a voluntary order paid, month by month and share by share: its principal spread over its months in
 * proportion to the rates in force for each (employee + employer, those it was issued with), then each
 * month over the employee and employer shares by their rates. Largest remainder (money.ts
 * allocateByRatios), so the months and shares sum exactly to what was paid — never a division that
 * truncates and loses the remainder cents.
 */
export function voluntaryMonthShares(
  principal: Cents,
  months: readonly { period: string; employeeRate: Rate; employerRate: Rate }[],
): { period: string; amount: Cents; employee: Cents; employer: Cents }[] {
  if (!months.length) return [];
  const weights = months.map((m) => new Dec(m.employeeRate).plus(new Dec(m.employerRate)));
  const amounts = weights.every((w) => w.gt('0'))
    ? allocateByRatios(
        principal,
        weights.map((w) => w.toFixed(4)),
      )
    : allocate(principal, months.length);
  return months.map((m, i) => {
    const [employee, employer] = weights[i].gt('0')
      ? allocateByRatios(amounts[i], [m.employeeRate, m.employerRate])
      : allocate(amounts[i], 2);
    return { period: m.period, amount: amounts[i], employee, employer };
  });
}

/** Both shares of a voluntary month on the declared salary: employee and employer rates, each rounded. */
export const voluntaryLimitsSchema = z.object({
  minSalary: moneyDecimalSchema,
  maxSalary: moneyDecimalSchema,
  employeeRate: rateDecimalSchema,
  employerRate: rateDecimalSchema,
});

// ─── Statistics and history ─────────────────────────────────────────────────────────────────────────

export const collectionStatsSchema = z.object({
  asOf: z.string(),
  months: z.array(
    z.object({ period: z.string(), declared: moneyDecimalSchema, ordered: moneyDecimalSchema, collected: moneyDecimalSchema }),
  ),
  overdueByRegion: z.array(
    z.object({
      regionId: z.number().int().nullable(),
      regionName: z.string(),
      orders: z.number().int(),
      balance: moneyDecimalSchema,
    }),
  ),
});
export type CollectionStats = z.infer<typeof collectionStatsSchema>;

export const collectionStatsQuerySchema = z.object({ from: periodSchema.optional(), to: periodSchema.optional() });

export const orderIdParamsSchema = z.object({ id: idTextSchema });

/** The order title used in lists, PDFs and notifications. */
export const orderTitle = (o: Pick<PaymentOrder, 'kind' | 'period' | 'entityName' | 'contributorName'>) =>
  `${orderKindLabels[o.kind]} ${formatPeriod(o.period)} · ${o.entityName ?? o.contributorName ?? ''}`;

/** The days an order is overdue on `asOf` (0 when not yet due). */
export const overdueDays = (dueDate: string, asOf: string): number => Math.max(0, dayNumber(asOf) - dayNumber(dueDate));
