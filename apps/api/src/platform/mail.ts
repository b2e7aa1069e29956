import { EventEmitter } from 'node:events';
import {
  AppError,
  DEFAULT_MAIL_DELIVERY,
  detail,
  isLanguage,
  isMailPreferenceEvent,
  type Language,
  MAIL_EVENTS,
  type MailDelivery,
  type MailEvent,
  msg,
} from '@aporta/domain';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { mailOutbox, mailPreferences, type StoredMailAttachment } from '../db/schema/index.ts';
import { type MailParams, renderMailTemplate } from './mail-templates.ts';

/**
 * Outgoing mail (issue 29). A module writes a mail with `enqueueMail(tx, …)` in the transaction of the change
 * that causes it (or, for a user, through `notifyUsers({ …, mail })`): the template is rendered then, in the
 * recipient's language, and the row waits in `mail_outbox` for the dispatcher (platform/mail-dispatcher.ts),
 * which sends it through SMTP with retries. Without SMTP_URL nothing is sent: the rows stay PENDING and the
 * «Correo saliente» screen shows them.
 */

export type { MailParams } from './mail-templates.ts';

export type MailAttachment =
  /** Produced at send time by a registered renderer (`registerMailAttachment`). */
  | { kind: 'render'; renderer: string; id: string | number }
  /** Content kept in platform/blobs.ts. */
  | { kind: 'blob'; sha256: string; filename: string; contentType: string };

export interface OutgoingMail {
  event: MailEvent;
  /** Addresses (validated; duplicates removed). */
  to: string[];
  /** The recipient user, when it is one (language, preferences, digest). */
  userId?: number | null;
  /** Default: the user's stored mail language, else 'es'. */
  language?: Language;
  /** Template placeholders; money as cents with {{x, money}}, dates aaaa-mm-dd. */
  params: MailParams;
  /** A path inside the app ('/planillas/12'); rendered as an absolute link. */
  link?: string | null;
  attachments?: MailAttachment[];
  /** Unique in the outbox: the same key is queued once. */
  dedupeKey?: string;
}

export interface RenderedAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}
export type MailAttachmentRenderer = (db: Db, id: string) => Promise<RenderedAttachment>;

const renderers = new Map<string, MailAttachmentRenderer>();

/** A module registers how to produce an attachment at send time (e.g. 'payment-order' → its PDF). Idempotent. */
export function registerMailAttachment(name: string, render: MailAttachmentRenderer): void {
  renderers.set(name, render);
}

/** The renderer registered under a name (the dispatcher's). */
export const mailAttachmentRenderer = (name: string): MailAttachmentRenderer | undefined => renderers.get(name);

/** Tells this process's dispatcher that mail was queued (it also polls, for mail queued by other processes). */
export const mailWakeups = new EventEmitter();

const MAX_RECIPIENTS = 50;
const MAX_ATTACHMENTS = 10;
const addressSchema = z.email();

/** An address a mail can go to (what `enqueueMail` accepts). */
export const isMailAddress = (address: string): boolean =>
  addressSchema.safeParse(address.trim().toLowerCase()).success && !/[\r\n,;<>"]/.test(address.trim());

const invalid = (path: string, m: ReturnType<typeof msg>): AppError =>
  new AppError('VALIDATION', undefined, [{ path, ...detail(m) }]);

/** The addresses cleaned (trimmed, lower case, once each), or a 400 naming the bad one. */
export function cleanAddresses(to: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of to) {
    const a = String(raw ?? '')
      .trim()
      .toLowerCase();
    if (!isMailAddress(a)) {
      throw invalid('to', msg('mail.addressInvalid', { address: String(raw ?? '').slice(0, 200) }));
    }
    out.add(a);
  }
  if (out.size === 0) throw invalid('to', msg('mail.recipientsRequired'));
  if (out.size > MAX_RECIPIENTS) throw invalid('to', msg('mail.recipientsTooMany'));
  return [...out];
}

/** A user's stored mail preferences: their language and their delivery of one event (defaults when none). */
export async function mailPreferenceOf(
  db: Db,
  userId: number,
  event: MailEvent,
): Promise<{ language: Language; delivery: MailDelivery }> {
  const [row] = await db
    .select({ language: mailPreferences.language, events: mailPreferences.events })
    .from(mailPreferences)
    .where(eq(mailPreferences.userId, userId));
  const language = row && isLanguage(row.language) ? row.language : 'es';
  if (!isMailPreferenceEvent(event)) return { language, delivery: 'immediate' };
  const chosen = row?.events?.[event];
  const delivery: MailDelivery =
    chosen === 'off' || chosen === 'immediate' || chosen === 'digest' ? chosen : DEFAULT_MAIL_DELIVERY;
  return { language, delivery };
}

/**
 * Renders the template in the recipient's language and writes it to the outbox in `tx` (the same transaction
 * as the change). Returns the outbox id, or null when deduplicated or the user chose 'off'. A user who chose
 * the daily digest gets a DIGEST row (sent within the digest, never alone).
 */
export async function enqueueMail(tx: Db, mail: OutgoingMail): Promise<number | null> {
  if (!(MAIL_EVENTS as readonly string[]).includes(mail.event)) throw invalid('event', msg('mail.eventInvalid'));
  if (mail.language !== undefined && !isLanguage(mail.language)) throw invalid('language', msg('mail.languageInvalid'));
  if (mail.link != null && !/^\/(?!\/)/.test(mail.link)) throw invalid('link', msg('mail.linkInvalid'));
  if (mail.dedupeKey !== undefined && mail.dedupeKey.length > 300) throw invalid('dedupeKey', msg('mail.dedupeKeyTooLong'));
  if ((mail.attachments?.length ?? 0) > MAX_ATTACHMENTS) throw invalid('attachments', msg('mail.attachmentsTooMany'));
  const to = cleanAddresses(mail.to);

  const userId = mail.userId ?? null;
  let language: Language = mail.language ?? 'es';
  let delivery: MailDelivery = 'immediate';
  if (userId !== null) {
    const pref = await mailPreferenceOf(tx, userId, mail.event);
    if (mail.language === undefined) language = pref.language;
    delivery = pref.delivery;
  }
  if (delivery === 'off') return null;

  const rendered = renderMailTemplate(mail.event, language, mail.params, {
    link: mail.link ?? null,
    withPreferences: userId !== null && isMailPreferenceEvent(mail.event),
  });
  const attachments: StoredMailAttachment[] = (mail.attachments ?? []).map((a) =>
    a.kind === 'render'
      ? { kind: 'render', renderer: a.renderer, id: String(a.id) }
      : { kind: 'blob', sha256: a.sha256, filename: a.filename, contentType: a.contentType },
  );
  const [row] = await tx
    .insert(mailOutbox)
    .values({
      event: mail.event,
      userId,
      to,
      language,
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      attachments,
      link: mail.link ?? null,
      dedupeKey: mail.dedupeKey ?? null,
      state: delivery === 'digest' ? 'DIGEST' : 'PENDING',
      nextAttemptAt: sql`now()`,
    })
    .onConflictDoNothing({ target: mailOutbox.dedupeKey })
    .returning({ id: mailOutbox.id });
  if (!row) return null;
  if (delivery !== 'digest') mailWakeups.emit('enqueued');
  return row.id;
}
