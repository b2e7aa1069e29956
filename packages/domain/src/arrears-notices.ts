import { z } from 'zod';
import { actingDateSchema } from './acting-dates.ts';
import { idSchema } from './fields.ts';
import { listQuerySchema } from './list.ts';
import type { OutboxState } from './mail.ts';
import { text } from './messages.ts';
import { moneyDecimalSchema, moneyInputSchema } from './money.ts';

/**
 * Arrears notices as a campaign (issue 29): entities chosen from the arrears ranking are each sent a
 * letter with their debt as of a day (filed in Documentos) by e-mail to their notice addresses; a record
 * of who was notified when, which the legal module cites.
 */

/** At most this many entities in one campaign (the ranking lists up to 5 000; a campaign is a batch of letters). */
export const NOTICE_CAMPAIGN_MAX_ENTITIES = 500;

export const noticeCampaignStates = ['EN_CURSO', 'TERMINADA', 'FALLIDA'] as const;
export type NoticeCampaignState = (typeof noticeCampaignStates)[number];
export const noticeCampaignStateLabels: Record<NoticeCampaignState, string> = {
  EN_CURSO: 'En curso',
  TERMINADA: 'Terminada',
  FALLIDA: 'Fallida',
};

/**
 * What became of one entity of a campaign: `NOTIFICADA` (letter filed, mail queued), `SIN_DIRECCION`
 * (letter filed, no address to send it to), `SIN_DEUDA` (nothing overdue on the day: no letter),
 * `YA_NOTIFICADA` (another campaign notified it that same day), `NO_ENVIADA` (the campaign failed before
 * reaching it), `PENDIENTE` (not reached yet).
 */
export const noticeOutcomes = ['PENDIENTE', 'NOTIFICADA', 'SIN_DIRECCION', 'SIN_DEUDA', 'YA_NOTIFICADA', 'NO_ENVIADA'] as const;
export type NoticeOutcome = (typeof noticeOutcomes)[number];
export const noticeOutcomeLabels: Record<NoticeOutcome, string> = {
  PENDIENTE: 'Pendiente',
  NOTIFICADA: 'Notificada',
  SIN_DIRECCION: 'Sin dirección',
  SIN_DEUDA: 'Sin deuda a la fecha',
  YA_NOTIFICADA: 'Ya notificada ese día',
  NO_ENVIADA: 'No enviada',
};

/** The mail of a notice as the outbox tells it: queued (not sent yet, or retrying), sent, failed for good. */
export const noticeMailStates = ['QUEUED', 'SENT', 'FAILED'] as const;
export type NoticeMailState = (typeof noticeMailStates)[number];
export const noticeMailStateLabels: Record<NoticeMailState, string> = {
  QUEUED: 'En cola',
  SENT: 'Enviado',
  FAILED: 'Fallido',
};
export function noticeMailStateOf(state: OutboxState | null | undefined): NoticeMailState | null {
  if (!state) return null;
  if (state === 'SENT') return 'SENT';
  if (state === 'FAILED') return 'FAILED';
  return 'QUEUED';
}

/**
 * The addresses a notice goes to: the entity's notice addresses (the catalogue keeps them as
 * `a@x.gt, b@y.gt`), else its e-mail; none when it has neither.
 */
export function noticeAddressesOf(e: { noticeEmails: string | null; email: string | null }): string[] {
  const list = (e.noticeEmails ?? '')
    .split(',')
    .map((a) => a.trim().toLowerCase())
    .filter(Boolean);
  if (list.length) return [...new Set(list)];
  const email = e.email?.trim().toLowerCase();
  return email ? [email] : [];
}

// ─── Contracts ──────────────────────────────────────────────────────────────────────────────────────

/**
 * Starting a campaign: the day the debt is computed as of (today when absent; never after today), and
 * either the entities chosen in the ranking or "every entity owing at least `minTotal`" (not both).
 */
export const noticeCampaignCreateSchema = z
  .object({
    asOf: actingDateSchema('La fecha de la deuda').optional(),
    entityIds: z
      .array(idSchema, { error: text('financial.campaignEntitiesInvalid') })
      .min(1, { error: text('financial.campaignEntitiesInvalid') })
      .max(NOTICE_CAMPAIGN_MAX_ENTITIES, { error: text('financial.campaignTooManyEntities') })
      .optional(),
    minTotal: moneyInputSchema('La deuda mínima')
      .refine((v) => v !== '0.00', { error: text('financial.campaignMinTotalZero') })
      .optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if ((v.entityIds === undefined) === (v.minTotal === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['entityIds'], message: text('financial.campaignSelectionRequired') });
    }
  });
export type NoticeCampaignCreate = z.infer<typeof noticeCampaignCreateSchema>;

export const noticeCampaignCountsSchema = z.object({
  entities: z.number().int(),
  notified: z.number().int(),
  withoutAddress: z.number().int(),
  withoutDebt: z.number().int(),
  alreadyNotified: z.number().int(),
  notSent: z.number().int(),
  pending: z.number().int(),
});

export const noticeCampaignSchema = z.object({
  id: z.number().int(),
  asOf: z.string(),
  issuedOn: z.string(),
  minTotal: moneyDecimalSchema.nullable(),
  state: z.enum(noticeCampaignStates),
  failure: z.string().nullable(),
  jobId: z.number().int().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  counts: noticeCampaignCountsSchema,
  /** What the letters sent claim, together (notified and without address). */
  amount: moneyDecimalSchema,
});
export type NoticeCampaign = z.infer<typeof noticeCampaignSchema>;

export const noticeCampaignStartedSchema = z.object({ campaign: noticeCampaignSchema, jobId: z.number().int() });

export const arrearsNoticeSchema = z.object({
  id: z.number().int(),
  campaignId: z.number().int(),
  entityId: z.number().int(),
  entityName: z.string(),
  entityCode: z.string(),
  asOf: z.string(),
  issuedOn: z.string(),
  outcome: z.enum(noticeOutcomes),
  amount: moneyDecimalSchema.nullable(),
  orders: z.number().int().nullable(),
  documentId: z.number().int().nullable(),
  outboxId: z.number().int().nullable(),
  addresses: z.array(z.string()),
  mailState: z.enum(noticeMailStates).nullable(),
  notifiedAt: z.string().nullable(),
});
export type ArrearsNotice = z.infer<typeof arrearsNoticeSchema>;

export const noticeCampaignListQuerySchema = listQuerySchema.extend({
  state: z.enum(noticeCampaignStates, { error: text('financial.campaignStateInvalid') }).optional(),
});
export type NoticeCampaignListQuery = z.infer<typeof noticeCampaignListQuerySchema>;

const optionalId = z
  .string()
  .regex(/^[1-9]\d{0,8}$/, { error: text('agreements.entityInvalid') })
  .transform(Number)
  .optional();

export const arrearsNoticeListQuerySchema = listQuerySchema.extend({
  campaignId: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, { error: text('financial.campaignInvalid') })
    .transform(Number)
    .optional(),
  entityId: optionalId,
  outcome: z.enum(noticeOutcomes, { error: text('financial.noticeOutcomeInvalid') }).optional(),
});
export type ArrearsNoticeListQuery = z.infer<typeof arrearsNoticeListQuerySchema>;
