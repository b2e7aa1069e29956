import { z } from 'zod';
import { text } from './messages.ts';

/**
 * Outgoing mail (issue 29): the events that send an e-mail, each user's choice per event, the outbox's
 * states and the languages a mail is written in. The platform side is apps/api/src/platform/mail.ts.
 */
export const MAIL_EVENTS = [
  'planilla.observed',
  'planilla.approved',
  'planilla.returned',
  'order.issued',
  'order.dueSoon',
  'agreement.instalmentDueSoon',
  'agreement.default',
  'payment.registered',
  'survival.dueSoon',
  'survival.overdue',
  'signing.waiting',
  'signing.reminder',
  'workflow.assigned',
  'job.finished',
  'arrears.notice',
  'auth.passwordReset',
] as const;
export type MailEvent = (typeof MAIL_EVENTS)[number];

/** Events a user cannot turn off or put in the digest: they are always sent at once. */
export const ALWAYS_SENT_MAIL_EVENTS = ['arrears.notice', 'auth.passwordReset'] as const satisfies readonly MailEvent[];
/** The events a user chooses for (the preferences screen). */
export const MAIL_PREFERENCE_EVENTS = MAIL_EVENTS.filter(
  (e): e is Exclude<MailEvent, (typeof ALWAYS_SENT_MAIL_EVENTS)[number]> =>
    !(ALWAYS_SENT_MAIL_EVENTS as readonly string[]).includes(e),
);
export type MailPreferenceEvent = (typeof MAIL_PREFERENCE_EVENTS)[number];
export const isMailPreferenceEvent = (e: MailEvent): e is MailPreferenceEvent =>
  (MAIL_PREFERENCE_EVENTS as readonly string[]).includes(e);

/** A user's choice per event: no mail, one mail at once, or a line in the daily digest. */
export const MAIL_DELIVERY = ['off', 'immediate', 'digest'] as const;
export type MailDelivery = (typeof MAIL_DELIVERY)[number];
/** What a user who never chose gets. */
export const DEFAULT_MAIL_DELIVERY: MailDelivery = 'immediate';

/**
 * PENDING: waits to be sent (never attempted without SMTP_URL); SENDING: claimed by a dispatcher under a
 * lease; SENT; FAILED: gave up (a permanent refusal, or out of attempts); DIGEST: kept for the user's
 * daily digest (the digest job sends them as one message).
 */
export const OUTBOX_STATES = ['PENDING', 'SENDING', 'SENT', 'FAILED', 'DIGEST'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/** The languages a mail is written in (the web app's: gr = German, ch = Chinese). */
export const MAIL_LANGUAGES = ['es', 'en', 'fr', 'it', 'gr', 'ru', 'ar', 'ch'] as const;
export type Language = (typeof MAIL_LANGUAGES)[number];
export const isLanguage = (v: unknown): v is Language =>
  typeof v === 'string' && (MAIL_LANGUAGES as readonly string[]).includes(v);

export const mailEventSchema = z.enum(MAIL_EVENTS, { error: text('mail.eventInvalid') });
export const mailPreferenceEventSchema = z.enum(MAIL_PREFERENCE_EVENTS, { error: text('mail.eventInvalid') });
export const mailDeliverySchema = z.enum(MAIL_DELIVERY, { error: text('mail.deliveryInvalid') });
export const mailLanguageSchema = z.enum(MAIL_LANGUAGES, { error: text('mail.languageInvalid') });
export const outboxStateSchema = z.enum(OUTBOX_STATES, { error: text('mail.stateInvalid') });

/** A user's mail preferences as read: the language of their mails and the delivery of every preference event. */
export const mailPreferencesSchema = z.object({
  language: mailLanguageSchema,
  events: z.record(mailPreferenceEventSchema, mailDeliverySchema),
});
export type MailPreferences = z.infer<typeof mailPreferencesSchema>;

/** PUT of one's own mail preferences: the events not named keep their choice. */
export const mailPreferencesInputSchema = z.strictObject({
  language: mailLanguageSchema.optional(),
  events: z.partialRecord(mailPreferenceEventSchema, mailDeliverySchema).optional(),
});
export type MailPreferencesInput = z.infer<typeof mailPreferencesInputSchema>;

/** The administrator's preview of a template, rendered with its example data. */
export const mailTemplatePreviewQuerySchema = z.object({
  event: mailEventSchema,
  language: mailLanguageSchema.default('es'),
});
export type MailTemplatePreviewQuery = z.infer<typeof mailTemplatePreviewQuerySchema>;
export const mailTemplatePreviewSchema = z.object({
  event: mailEventSchema,
  language: mailLanguageSchema,
  subject: z.string(),
  text: z.string(),
  /** A whole HTML document (values escaped); shown in a sandboxed frame. */
  html: z.string(),
});
export type MailTemplatePreview = z.infer<typeof mailTemplatePreviewSchema>;

/** What an outbox row's attachment is, as the outbox screen shows it. */
export const outboxAttachmentSchema = z.object({
  kind: z.enum(['render', 'blob']),
  /** The renderer's name and the record's id ('render'), or the file's name ('blob'). */
  name: z.string(),
});

/** One message of the outbox (the "Correo saliente" list). */
export const outboxItemSchema = z.object({
  id: z.number().int(),
  event: mailEventSchema,
  userId: z.number().int().nullable(),
  to: z.array(z.string()),
  language: mailLanguageSchema,
  subject: z.string(),
  state: outboxStateSchema,
  attempts: z.number().int(),
  nextAttemptAt: z.string(),
  lastError: z.string().nullable(),
  messageId: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type OutboxItem = z.infer<typeof outboxItemSchema>;

/** One message with its content, as the detail shows it. */
export const outboxDetailSchema = outboxItemSchema.extend({
  text: z.string(),
  html: z.string(),
  link: z.string().nullable(),
  attachments: z.array(outboxAttachmentSchema),
  dedupeKey: z.string().nullable(),
  leaseUntil: z.string().nullable(),
});
export type OutboxDetail = z.infer<typeof outboxDetailSchema>;
