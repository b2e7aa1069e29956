import { z } from 'zod';
import { agreementInstalmentSchema, agreementStateSchema } from './agreements.ts';
import { dateSchema, entityIdSchema, idTextSchema, periodSchema } from './fields.ts';
import { type Message, msg, text } from './messages.ts';
import { type Cents, moneyDecimalSchema } from './money.ts';

/**
 * The financial module (issue 14): an entity's account statement as of a date, the arrears ranking by
 * age bucket, the solvency certificate (constancia de solvencia) with its public verification, and the
 * collection dashboard. The rules that decide (age buckets, "al día") are pure and tested here.
 */

// ─── Age buckets ────────────────────────────────────────────────────────────────────────────────────

export const ageBuckets = ['d1_30', 'd31_90', 'd91_180', 'd181'] as const;
export type AgeBucket = (typeof ageBuckets)[number];
export const ageBucketLabels: Record<AgeBucket, string> = {
  d1_30: '1–30 días',
  d31_90: '31–90 días',
  d91_180: '91–180 días',
  d181: 'Más de 180 días',
};

/** The bucket of an order overdue `days` days (null when not overdue): 1–30, 31–90, 91–180, > 180. */
export function ageBucketOf(days: number): AgeBucket | null {
  if (days < 1) return null;
  if (days <= 30) return 'd1_30';
  if (days <= 90) return 'd31_90';
  if (days <= 180) return 'd91_180';
  return 'd181';
}

// ─── Solvency ───────────────────────────────────────────────────────────────────────────────────────

export interface SolvencyFacts {
  overdueOrders: number;
  /** What they owe, in cents. */
  overdueAmount: Cents;
  /** The agreement in force, if any (its overdue instalments count among the overdue orders). */
  currentAgreement: string | null;
}

/**
 * Whether an entity is "al día" (DOMAIN: no overdue order, or a current agreement up to date — the
 * consolidated orders are no longer overdue and an overdue instalment is an overdue order), and the
 * reason either way (a keyed message, messages.ts; its `text` is the Spanish a certificate prints).
 */
export function solvencyOf(f: SolvencyFacts): { solvent: boolean; reason: Message } {
  if (f.overdueOrders > 0) {
    return {
      solvent: false,
      reason:
        f.overdueOrders === 1
          ? msg('financial.notSolventOne', { amount: f.overdueAmount })
          : msg('financial.notSolventMany', { count: f.overdueOrders, amount: f.overdueAmount }),
    };
  }
  return {
    solvent: true,
    reason: f.currentAgreement
      ? msg('financial.solventWithAgreement', { agreement: f.currentAgreement })
      : msg('financial.solventNoOverdue'),
  };
}

/**
 * A certificate's state as verified now: `VIGENTE` (within its validity and what it rests on still
 * holds), `VENCIDA` (past its validity), `REVOCADA` (revoked by the institution), `SIN_EFECTO` (what it
 * rests on no longer holds: the agreement it cited defaulted or was annulled, or an order that was
 * settled when it was issued is owed again — a payment reversed).
 */
export const solvencyStatuses = ['VIGENTE', 'VENCIDA', 'REVOCADA', 'SIN_EFECTO'] as const;
export type SolvencyStatus = (typeof solvencyStatuses)[number];
export const solvencyStatusLabels: Record<SolvencyStatus, string> = {
  VIGENTE: 'Vigente',
  VENCIDA: 'Vencida',
  REVOCADA: 'Revocada',
  SIN_EFECTO: 'Sin efecto',
};

// ─── Contracts ──────────────────────────────────────────────────────────────────────────────────────

export const statementQuerySchema = z.object({ entityId: idTextSchema, asOf: dateSchema.optional() });

export const statementPeriodSchema = z.object({
  period: z.string(),
  declared: moneyDecimalSchema,
  ordered: moneyDecimalSchema,
  paid: moneyDecimalSchema,
  interest: moneyDecimalSchema,
  inAgreement: moneyDecimalSchema,
  balance: moneyDecimalSchema,
});
export type StatementPeriod = z.infer<typeof statementPeriodSchema>;

export const statementSchema = z.object({
  entityId: z.number().int(),
  entityName: z.string(),
  entityCode: z.string(),
  asOf: z.string(),
  periods: z.array(statementPeriodSchema),
  totals: statementPeriodSchema.omit({ period: true }),
  agreements: z.array(
    z.object({
      id: z.number().int(),
      number: z.string(),
      state: agreementStateSchema,
      agreementDate: z.string(),
      debt: moneyDecimalSchema,
      paid: moneyDecimalSchema,
      balance: moneyDecimalSchema,
      instalments: z.array(agreementInstalmentSchema),
    }),
  ),
  solvent: z.boolean(),
  solvencyReason: z.string(),
});
export type Statement = z.infer<typeof statementSchema>;

export const arrearsQuerySchema = z.object({
  asOf: dateSchema.optional(),
  regionId: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, { error: text('financial.regionInvalid') })
    .transform(Number)
    .optional(),
  q: z
    .string()
    .trim()
    .max(100, { error: text('financial.searchTooLong') })
    .optional(),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, { error: text('financial.limitInvalid') })
    .transform(Number)
    .refine((n) => n >= 1 && n <= 5000, { error: text('financial.limitOutOfRange') })
    .optional(),
});
export type ArrearsQuery = z.infer<typeof arrearsQuerySchema>;

export const arrearsRowSchema = z.object({
  rank: z.number().int(),
  entityId: z.number().int(),
  entityName: z.string(),
  entityCode: z.string(),
  regionName: z.string(),
  orders: z.number().int(),
  oldestDueDate: z.string(),
  d1_30: moneyDecimalSchema,
  d31_90: moneyDecimalSchema,
  d91_180: moneyDecimalSchema,
  d181: moneyDecimalSchema,
  total: moneyDecimalSchema,
  /** An open legal case of the entity, if any. */
  legalCaseId: z.number().int().nullable(),
});
export type ArrearsRow = z.infer<typeof arrearsRowSchema>;

export const arrearsSchema = z.object({
  asOf: z.string(),
  items: z.array(arrearsRowSchema),
  totals: arrearsRowSchema.pick({ d1_30: true, d31_90: true, d91_180: true, d181: true, total: true }).extend({
    entities: z.number().int(),
  }),
});
export type Arrears = z.infer<typeof arrearsSchema>;

export const solvencyCreateSchema = z.object({ entityId: entityIdSchema }).strict();

export const solvencyCertificateSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  entityId: z.number().int(),
  entityName: z.string(),
  entityCode: z.string(),
  issuedOn: z.string(),
  validUntil: z.string(),
  basis: z.string(),
  status: z.enum(solvencyStatuses),
  /** Why it is `SIN_EFECTO` (or `REVOCADA`), in Spanish; null otherwise. */
  statusReason: z.string().nullable(),
});
export type SolvencyCertificate = z.infer<typeof solvencyCertificateSchema>;
export const solvencyCertificateListSchema = z.object({ items: z.array(solvencyCertificateSchema) });

export const solvencyListQuerySchema = z.object({
  entityId: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, { error: text('agreements.entityInvalid') })
    .transform(Number)
    .optional(),
});

/** What the public verification tells: only what the certificate itself prints, and whether it is still valid. */
export const solvencyVerificationSchema = z.object({
  code: z.string(),
  entityName: z.string(),
  entityCode: z.string(),
  issuedOn: z.string(),
  validUntil: z.string(),
  status: z.enum(solvencyStatuses),
  /** Why it is no longer valid when it is `SIN_EFECTO` or `REVOCADA`, in Spanish; null otherwise. */
  statusReason: z.string().nullable(),
});
export type SolvencyVerification = z.infer<typeof solvencyVerificationSchema>;

export const solvencyCodeParamsSchema = z.object({
  code: z.string().max(40, { error: text('financial.verificationCodeTooLong') }),
});

export const dashboardQuerySchema = z
  .object({ from: periodSchema.optional(), to: periodSchema.optional() })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    error: text('financial.periodRangeInverted'),
    path: ['to'],
  });

export const dashboardSchema = z.object({
  from: z.string(),
  to: z.string(),
  months: z.array(
    z.object({
      month: z.string(),
      collected: moneyDecimalSchema,
      throughAgreements: moneyDecimalSchema,
    }),
  ),
  agreements: z.array(z.object({ state: agreementStateSchema, count: z.number().int(), debt: moneyDecimalSchema })),
  overdue: moneyDecimalSchema,
  inAgreements: moneyDecimalSchema,
});
export type Dashboard = z.infer<typeof dashboardSchema>;
