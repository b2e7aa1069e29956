import { z } from 'zod';
import { dateSchema } from './fields.ts';
import { exportQueryOf, listQuerySchema } from './list.ts';
import {
  MAIL_EVENTS,
  MAIL_PREFERENCE_EVENTS,
  type MailPreferenceEvent,
  mailPreferenceEventSchema,
  mailPreferencesSchema,
  type OUTBOX_STATES,
  outboxDetailSchema,
  outboxItemSchema,
  outboxStateSchema,
} from './mail.ts';
import { text } from './messages.ts';
import { type EffectivePermissions, hasAnyPermission, type Resource } from './permissions.ts';

/**
 * The screens of outgoing mail (issue 29): «Correo saliente» for administrators (list, detail, retry,
 * counts, template preview), each user's mail preferences, and the daily digest. The events, states and
 * the outbox row's shape are in mail.ts.
 */

/**
 * The outbox row of a user's daily digest (modules/mail/digest.ts): one message that carries the day's
 * DIGEST rows of that user, each as a section. It is not an event a module raises, so it has no template
 * of its own and no preference.
 */
export const MAIL_DIGEST_EVENT = 'mail.digest' as const;
/** What an outbox row's `event` may hold: an event, or the digest. */
export const OUTBOX_EVENTS = [...MAIL_EVENTS, MAIL_DIGEST_EVENT] as const;
export type OutboxEvent = (typeof OUTBOX_EVENTS)[number];
export const outboxEventSchema = z.enum(OUTBOX_EVENTS, { error: text('mail.eventInvalid') });

/**
 * Which users an event concerns, for the preferences screen: holders of any permission on one of these
 * resources (`'everyone'`: every signed-in user). A user is offered only the events that can reach them;
 * a choice stored for another event is kept and applies if it ever does.
 */
export const MAIL_EVENT_CONCERNS: Readonly<Record<MailPreferenceEvent, readonly Resource[] | 'everyone'>> = {
  'planilla.observed': ['planillas', 'planilla-upload'],
  'planilla.approved': ['planillas', 'planilla-upload'],
  'planilla.returned': ['planillas', 'planilla-upload'],
  'order.issued': ['payment-orders', 'planillas', 'planilla-payments'],
  'order.dueSoon': ['payment-orders', 'planillas', 'planilla-payments'],
  'agreement.instalmentDueSoon': ['payment-agreements'],
  'agreement.default': ['payment-agreements'],
  'payment.registered': ['payment-orders', 'planillas', 'planilla-payments'],
  'survival.dueSoon': ['supervivencia', 'passive-classes'],
  'survival.overdue': ['supervivencia', 'passive-classes'],
  'signing.waiting': ['signing-pending', 'documents'],
  'signing.reminder': ['signing-pending', 'documents'],
  'workflow.assigned': ['workflow', 'flow', 'sig-items'],
  'job.finished': 'everyone',
};

/** The preference events that concern a user with these permissions, in the catalogue's order. */
export function mailEventsConcerning(perms: EffectivePermissions): MailPreferenceEvent[] {
  return MAIL_PREFERENCE_EVENTS.filter((e) => {
    const who = MAIL_EVENT_CONCERNS[e];
    return who === 'everyone' || who.some((r) => hasAnyPermission(perms, r));
  });
}

/** One's own mail preferences as the screen reads them: the stored choices and the events that concern the user. */
export const mailPreferencesViewSchema = mailPreferencesSchema.extend({
  concerning: z.array(mailPreferenceEventSchema),
});
export type MailPreferencesView = z.infer<typeof mailPreferencesViewSchema>;

/** The filters of «Correo saliente»: state, event, an address (part of it) and the day it was queued. */
export const outboxListQuerySchema = listQuerySchema.extend({
  state: outboxStateSchema.optional(),
  event: outboxEventSchema.optional(),
  recipient: z.string().trim().max(200).optional(),
  from: dateSchema.optional(),
  to: dateSchema.optional(),
});
export type OutboxListQuery = z.infer<typeof outboxListQuerySchema>;
export const outboxExportQuerySchema = exportQueryOf(outboxListQuerySchema);

/** A row of the list: the outbox item, any event (or the digest), and the digest that carried it. */
export const outboxRowSchema = outboxItemSchema.extend({
  event: outboxEventSchema,
  /** The digest message this DIGEST row went out in; null while it waits for the next digest. */
  digestId: z.number().int().nullable(),
});
export type OutboxRow = z.infer<typeof outboxRowSchema>;

/** One message of the outbox as its detail shows it; a digest lists the messages it carries. */
export const outboxMessageSchema = outboxDetailSchema.extend({
  event: outboxEventSchema,
  digestId: z.number().int().nullable(),
  digestItems: z.array(z.object({ id: z.number().int(), event: outboxEventSchema, subject: z.string(), createdAt: z.string() })),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

/** How many messages are in each state, and whether the server sends them or only keeps them here. */
export const outboxStatusSchema = z.object({
  /** True when SMTP_URL is set: the dispatcher sends. False: messages stay in the outbox, unsent. */
  sending: z.boolean(),
  /** The sender address every message carries (MAIL_FROM). */
  sender: z.string(),
  counts: z.object({
    PENDING: z.number().int(),
    SENDING: z.number().int(),
    SENT: z.number().int(),
    FAILED: z.number().int(),
    DIGEST: z.number().int(),
  }) satisfies z.ZodType<Record<(typeof OUTBOX_STATES)[number], number>>,
});
export type OutboxStatus = z.infer<typeof outboxStatusSchema>;
