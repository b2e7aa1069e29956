import { z } from 'zod';
import { actingDateSchema } from './acting-dates.ts';
import { dateSchema, entityIdSchema, idSchema, idTextSchema, isCalendarDate, textSchema } from './fields.ts';
import { listQuerySchema } from './list.ts';
import { detail, type MessageParams, msg, text } from './messages.ts';
import {
  allocateByRatios,
  allocateLastAbsorbs,
  applyRate,
  type Cents,
  moneyDecimalSchema,
  moneyInputSchema,
  type Rate,
} from './money.ts';
import { orderShownStateSchema } from './payments.ts';
import { daysInMonth } from './periods.ts';
import { addDays, type BusinessCalendar, nextBusinessDay } from './settings.ts';
import { availableTransitionSchema, defineMachine } from './state-machine.ts';

/**
 * Payment agreements (convenios de pago, issue 14). An entity's overdue orders — principal, interest to
 * the agreement date and the administrative charge *(config)* — become one debt, split into a down
 * payment (at least the minimum rate *(config)*) and up to N equal monthly instalments *(config)*; the
 * last instalment absorbs rounding (money.ts allocateLastAbsorbs), so the schedule sums exactly to the
 * debt. Each line of the schedule becomes a payment order of kind CONVENIO. The rules here are pure and
 * property-tested; the API (modules/agreements) applies them in one transaction.
 */

// ─── States ─────────────────────────────────────────────────────────────────────────────────────────

export const agreementStates = ['VIGENTE', 'CUMPLIDO', 'INCUMPLIDO', 'ANULADO'] as const;
export const agreementStateSchema = z.enum(agreementStates, { error: text('agreements.stateInvalid') });
export type AgreementState = z.infer<typeof agreementStateSchema>;
export const agreementStateLabels: Record<AgreementState, string> = {
  VIGENTE: 'Vigente',
  CUMPLIDO: 'Cumplido',
  INCUMPLIDO: 'Incumplido',
  ANULADO: 'Anulado',
};

/**
 * The agreement's lifecycle: the daily job takes it to CUMPLIDO (every instalment paid) or INCUMPLIDO
 * (instalments overdue beyond the limit in settings); a person voids it while nothing has been paid on it.
 */
export const agreementMachine = defineMachine({
  entityType: 'payment-agreement',
  label: 'El convenio de pago',
  states: agreementStates,
  stateLabels: agreementStateLabels,
  initial: 'VIGENTE',
  transitions: [
    {
      key: 'AGREEMENT_COMPLETE',
      from: 'VIGENTE',
      to: 'CUMPLIDO',
      label: 'Marcar cumplido',
      permission: { resource: 'payment-agreements', action: 'UPDATE' },
      commentRequired: false,
      system: true,
    },
    {
      key: 'AGREEMENT_DEFAULT',
      from: 'VIGENTE',
      to: 'INCUMPLIDO',
      label: 'Declarar incumplido',
      permission: { resource: 'payment-agreements', action: 'UPDATE' },
      commentRequired: false,
      system: true,
    },
    {
      key: 'AGREEMENT_VOID',
      from: 'VIGENTE',
      to: 'ANULADO',
      label: 'Anular',
      permission: { resource: 'payment-agreements', action: 'DELETE' },
      commentRequired: true,
    },
  ],
});

// ─── Debt and schedule ──────────────────────────────────────────────────────────────────────────────

export interface AgreementDebt {
  principal: Cents;
  interest: Cents;
  adminCharge: Cents;
  debt: Cents;
}

/**
 * Principal and interest of the orders it consolidates, plus the administrative charge on both (rounded
 * once). An instalment of an earlier agreement brings its parts as they are (no anatocism): its unpaid
 * principal share as principal, its unpaid interest as interest, its unpaid charge (`chargeDue`) into the
 * charge, which bears no new charge.
 */
export function agreementDebt(
  orders: readonly { principalDue: Cents; interestDue: Cents; chargeDue?: Cents }[],
  adminRate: Rate,
): AgreementDebt {
  let principal = 0n;
  let interest = 0n;
  let carried = 0n;
  for (const o of orders) {
    principal += o.principalDue;
    interest += o.interestDue;
    carried += o.chargeDue ?? 0n;
  }
  const adminCharge = applyRate(principal + interest, adminRate) + carried;
  return { principal, interest, adminCharge, debt: principal + interest + adminCharge };
}

/** The minimum down payment: the debt × the rate in settings, rounded half-up to the cent. */
export const minimumDownPayment = (debt: Cents, downRate: Rate): Cents => applyRate(debt, downRate);

/** `iso` moved `months` months ahead on the same day (the month's last day when it is shorter). */
export function sameDayMonthsLater(iso: string, months: number): string {
  const y = Number(iso.slice(0, 4));
  const m = Number(iso.slice(5, 7)) - 1 + months;
  const year = y + Math.floor(m / 12);
  const month = (m % 12) + 1;
  const period = `${year}-${String(month).padStart(2, '0')}`;
  const day = Math.min(Number(iso.slice(8, 10)), daysInMonth(period));
  return `${period}-${String(day).padStart(2, '0')}`;
}

/** The latest first due date accepted: this many days after the agreement date. */
export const MAX_FIRST_DUE_DAYS = 90;

export interface AgreementTerms {
  debt: Cents;
  downPayment: Cents;
  instalments: number;
  agreementDate: string;
  firstDueDate: string;
}

export interface AgreementLimits {
  downPaymentRate: Rate;
  maxInstalments: number;
  /** The smallest debt an agreement may split, in cents (0: none); a smaller one is paid at once. */
  minDebt: Cents;
}

/** One problem with the terms, naming the field: a keyed detail (messages.ts), Spanish text in `message`. */
export interface TermsProblem {
  path: 'downPayment' | 'instalments' | 'firstDueDate' | 'orderIds';
  message: string;
  key: string;
  params?: MessageParams;
}

/**
 * What is wrong with the terms (empty when they are acceptable): a debt below the minimum for an agreement,
 * a down payment below the minimum or not
 * below the debt, more instalments than the settings allow or than the rest can pay (each at least one
 * cent), a first due date not after the agreement date or too far ahead.
 */
export function termsProblems(t: AgreementTerms, limits: AgreementLimits): TermsProblem[] {
  const out: TermsProblem[] = [];
  if (t.debt <= 0n) return [{ path: 'orderIds', ...detail(msg('agreements.noOverdueOrders')) }];
  if (t.debt < limits.minDebt) {
    return [{ path: 'orderIds', ...detail(msg('agreements.debtBelowMinimum', { debt: t.debt, min: limits.minDebt })) }];
  }
  const min = minimumDownPayment(t.debt, limits.downPaymentRate);
  if (t.downPayment < min) {
    out.push({ path: 'downPayment', ...detail(msg('agreements.downPaymentBelowMinimum', { min })) });
  } else if (t.downPayment >= t.debt) {
    out.push({ path: 'downPayment', ...detail(msg('agreements.downPaymentNotBelowDebt')) });
  }
  if (!Number.isSafeInteger(t.instalments) || t.instalments < 1) {
    out.push({ path: 'instalments', ...detail(msg('agreements.instalmentsAtLeastOne')) });
  } else if (t.instalments > limits.maxInstalments) {
    out.push({ path: 'instalments', ...detail(msg('agreements.instalmentsAboveMaximum', { max: limits.maxInstalments })) });
  } else if (t.downPayment < t.debt) {
    const parts = allocateLastAbsorbs(t.debt - t.downPayment, t.instalments);
    if (parts.some((p) => p <= 0n)) {
      out.push({ path: 'instalments', ...detail(msg('agreements.instalmentsExceedBalance')) });
    }
  }
  if (!isCalendarDate(t.firstDueDate) || t.firstDueDate <= t.agreementDate) {
    out.push({ path: 'firstDueDate', ...detail(msg('agreements.firstDueNotAfterAgreement')) });
  } else if (t.firstDueDate > addDays(t.agreementDate, MAX_FIRST_DUE_DAYS)) {
    out.push({
      path: 'firstDueDate',
      ...detail(
        msg('agreements.firstDueTooLate', { days: MAX_FIRST_DUE_DAYS, latest: addDays(t.agreementDate, MAX_FIRST_DUE_DAYS) }),
      ),
    });
  }
  return out;
}

export interface ScheduleLine {
  /** 0 is the down payment; 1…n the monthly instalments. */
  number: number;
  dueDate: string;
  amount: Cents;
}

/**
 * The schedule of acceptable terms: the down payment due on the agreement date (the next business day
 * when it is not one), then `instalments` equal monthly parts of the rest on the first due date's day of
 * each month (the month's last day when shorter), each moved to the next business day; the last part
 * absorbs the rounding, so the amounts sum exactly to the debt. Throws on terms termsProblems refuses.
 */
export function agreementSchedule(t: AgreementTerms, cal: BusinessCalendar): ScheduleLine[] {
  if (t.downPayment <= 0n || t.downPayment >= t.debt || t.instalments < 1) throw new RangeError('Términos no válidos.');
  const parts = allocateLastAbsorbs(t.debt - t.downPayment, t.instalments);
  return [
    { number: 0, dueDate: nextBusinessDay(t.agreementDate, cal), amount: t.downPayment },
    ...parts.map((amount, i) => ({
      number: i + 1,
      dueDate: nextBusinessDay(sameDayMonthsLater(t.firstDueDate, i), cal),
      amount,
    })),
  ];
}

/** What an amount owed under an agreement is made of: principal, interest and administrative charge. */
export interface DebtShares {
  principal: Cents;
  interest: Cents;
  charge: Cents;
}

/**
 * Each line of a schedule split into its share of the debt's principal, interest and administrative
 * charge, each kind summing exactly to the debt's (largest remainder, money.ts allocateByRatios): the
 * principal in proportion to the lines' amounts, then the interest in proportion to what each line has
 * left; the charge is the rest. No part is negative and each line's parts sum to its amount. A late
 * instalment accrues interest on its principal share only (DOMAIN "Interest, further").
 */
export function scheduleShares(
  amounts: readonly Cents[],
  debt: { principal: Cents; interest: Cents; adminCharge: Cents },
): DebtShares[] {
  const total = amounts.reduce((sum, x) => sum + x, 0n);
  if (total !== debt.principal + debt.interest + debt.adminCharge || amounts.some((x) => x < 0n) || total <= 0n) {
    throw new RangeError('El calendario no suma la deuda.');
  }
  const principal = allocateByRatios(debt.principal, amounts);
  const rest = amounts.map((x, i) => x - principal[i]);
  const interest = debt.interest === 0n ? rest.map(() => 0n) : allocateByRatios(debt.interest, rest);
  return amounts.map((_, i) => ({ principal: principal[i], interest: interest[i], charge: rest[i] - interest[i] }));
}

/**
 * What of a line's shares is still unpaid after `paid` went to its amount: a payment covers the interest
 * first, then the charge, then the principal (DOMAIN "Applying a payment": interest before principal), so
 * a restructuring carries unpaid interest as interest and unpaid principal as principal.
 */
export function unpaidShares(shares: DebtShares, paid: Cents): DebtShares {
  let left = paid < 0n ? 0n : paid;
  const take = (x: Cents) => {
    const t = left < x ? left : x;
    left -= t;
    return x - t;
  };
  const interest = take(shares.interest);
  const charge = take(shares.charge);
  const principal = take(shares.principal);
  return { principal, interest, charge };
}

/** Instalments overdue on `asOf` (unpaid, due before it): the count the default rule compares with its limit. */
export const overdueInstalments = (lines: readonly { dueDate: string; paid: boolean }[], asOf: string): number =>
  lines.filter((l) => !l.paid && l.dueDate < asOf).length;

// ─── Contracts ──────────────────────────────────────────────────────────────────────────────────────

const instalmentsSchema = z
  .number({ error: text('agreements.instalmentsNotInteger') })
  .int({ error: text('agreements.instalmentsNotInteger') })
  .min(1, { error: text('agreements.instalmentsAtLeastOne') })
  .max(600, { error: text('agreements.instalmentsTooMany') });

const termsShape = {
  downPayment: moneyInputSchema('El enganche'),
  instalments: instalmentsSchema,
  firstDueDate: dateSchema,
};

const orderIdsSchema = z
  .array(idSchema, { error: text('agreements.orderIdsRequired') })
  .min(1, { error: text('agreements.orderIdsEmpty') })
  .max(1000, { error: text('agreements.orderIdsTooMany') })
  .refine((v) => new Set(v).size === v.length, { error: text('agreements.orderIdsRepeated') });

/** Simulating or creating an agreement: the entity, optionally which of its overdue orders (all by default), and the terms. */
export const agreementCreateSchema = z
  .object({ entityId: entityIdSchema, orderIds: orderIdsSchema.optional(), ...termsShape })
  .strict();
export type AgreementCreate = z.infer<typeof agreementCreateSchema>;

/** Restructuring a current agreement: new terms for what its unpaid instalments owe. */
export const agreementRestructureSchema = z.object(termsShape).strict();
export type AgreementRestructure = z.infer<typeof agreementRestructureSchema>;

export const agreementVoidSchema = z.object({ reason: textSchema({ label: 'El motivo', max: 500, min: 1 }) }).strict();

export const agreementDebtQuerySchema = z.object({ entityId: idTextSchema });

/** An overdue order an agreement may consolidate, with its balance on the agreement date. */
export const agreementOrderSchema = z.object({
  orderId: z.number().int(),
  reference: z.string(),
  kind: z.string(),
  period: z.string(),
  dueDate: z.string(),
  principalDue: moneyDecimalSchema,
  interestDue: moneyDecimalSchema,
  /** An instalment of an earlier agreement: its unpaid administrative charge (0 for any other order). */
  chargeDue: moneyDecimalSchema,
  balance: moneyDecimalSchema,
});
export type AgreementOrder = z.infer<typeof agreementOrderSchema>;

/** The entity's overdue orders and what an agreement signed today would owe, with the limits in force. */
export const agreementDebtSchema = z.object({
  entityId: z.number().int(),
  entityName: z.string(),
  agreementDate: z.string(),
  orders: z.array(agreementOrderSchema),
  principal: moneyDecimalSchema,
  interest: moneyDecimalSchema,
  adminCharge: moneyDecimalSchema,
  adminChargeRate: z.string(),
  debt: moneyDecimalSchema,
  minDownPayment: moneyDecimalSchema,
  downPaymentRate: z.string(),
  maxInstalments: z.number().int(),
  /** An agreement of the entity in force (one at a time), if any. */
  currentAgreementId: z.number().int().nullable(),
});
export type AgreementDebtView = z.infer<typeof agreementDebtSchema>;

export const scheduleLineSchema = z.object({
  number: z.number().int(),
  dueDate: z.string(),
  amount: moneyDecimalSchema,
});

export const agreementSimulationSchema = z.object({
  debt: agreementDebtSchema,
  downPayment: moneyDecimalSchema,
  instalments: z.number().int(),
  firstDueDate: z.string(),
  schedule: z.array(scheduleLineSchema),
  total: moneyDecimalSchema,
});
export type AgreementSimulation = z.infer<typeof agreementSimulationSchema>;

export const agreementInstalmentSchema = z.object({
  number: z.number().int(),
  orderId: z.number().int(),
  reference: z.string(),
  dueDate: z.string(),
  amount: moneyDecimalSchema,
  paid: moneyDecimalSchema,
  balance: moneyDecimalSchema,
  state: orderShownStateSchema.or(z.literal('REEMPLAZADA')),
});
export type AgreementInstalment = z.infer<typeof agreementInstalmentSchema>;

export const agreementSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  entityId: z.number().int(),
  entityName: z.string(),
  entityCode: z.string(),
  agreementDate: z.string(),
  state: agreementStateSchema,
  principal: moneyDecimalSchema,
  interest: moneyDecimalSchema,
  adminCharge: moneyDecimalSchema,
  debt: moneyDecimalSchema,
  downPayment: moneyDecimalSchema,
  instalmentCount: z.number().int(),
  paid: moneyDecimalSchema,
  balance: moneyDecimalSchema,
  overdueInstalments: z.number().int(),
  restructurings: z.number().int(),
  maxRestructurings: z.number().int(),
  defaultedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  voidReason: z.string().nullable(),
  createdAt: z.string(),
  asOf: z.string(),
  /** The schedule in force (replaced instalments last, marked REEMPLAZADA). */
  instalments: z.array(agreementInstalmentSchema),
  orders: z.array(agreementOrderSchema),
  transitions: z.array(availableTransitionSchema),
});
export type Agreement = z.infer<typeof agreementSchema>;

export const agreementListItemSchema = agreementSchema.omit({ instalments: true, orders: true, transitions: true });
export type AgreementListItem = z.infer<typeof agreementListItemSchema>;

export const agreementListQuerySchema = listQuerySchema.extend({
  entityId: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, { error: text('agreements.entityInvalid') })
    .transform(Number)
    .optional(),
  state: agreementStateSchema.optional(),
});
export type AgreementListQuery = z.infer<typeof agreementListQuerySchema>;

/** Detection as of a day: today by default; a past day to rerun a missed one, never a day after today. */
export const agreementJobSchema = z.object({ asOf: actingDateSchema('La fecha de revisión').optional() }).strict();

/** The agreement number as printed: `CP-AAAA-NNNNNN`. */
export const agreementNumber = (year: string, id: number) => `CP-${year}-${String(id).padStart(6, '0')}`;
