import {
  DEFAULT_MAIL_DELIVERY,
  isLanguage,
  MAIL_DELIVERY,
  MAIL_PREFERENCE_EVENTS,
  type MailDelivery,
  type MailPreferenceEvent,
  type MailPreferencesInput,
  type MailPreferencesView,
  mailEventsConcerning,
} from '@aporta/domain';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { mailPreferences } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';

/**
 * Each signed-in user's mail preferences (issue 29): the language of their mails and, per event, no mail, one
 * at once, or a line in the daily digest. Open to every signed-in user, always on the caller's own row; what
 * enqueueMail reads (platform/mail.ts `mailPreferenceOf`). Events that are always sent (arrears notices,
 * password resets) have no choice.
 */

type Stored = { language: string; events: Partial<Record<string, MailDelivery>> } | undefined;

const isDelivery = (v: unknown): v is MailDelivery => (MAIL_DELIVERY as readonly unknown[]).includes(v);

/** Every preference event's delivery: the stored choice, or the default for one never chosen (or corrupt). */
function choicesOf(row: Stored): Record<MailPreferenceEvent, MailDelivery> {
  return Object.fromEntries(
    MAIL_PREFERENCE_EVENTS.map((e) => {
      const v = row?.events?.[e];
      return [e, isDelivery(v) ? v : DEFAULT_MAIL_DELIVERY];
    }),
  ) as Record<MailPreferenceEvent, MailDelivery>;
}

async function storedOf(db: Db, userId: number, lock = false): Promise<Stored> {
  const q = db
    .select({ language: mailPreferences.language, events: mailPreferences.events })
    .from(mailPreferences)
    .where(eq(mailPreferences.userId, userId));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

function viewOf(ctx: RequestContext, row: Stored): MailPreferencesView {
  return {
    language: row && isLanguage(row.language) ? row.language : 'es',
    events: choicesOf(row),
    concerning: mailEventsConcerning(ctx.user.permissions),
  };
}

/** The caller's mail preferences, with the events that concern them (their permissions). */
export async function getMyMailPreferences(ctx: RequestContext): Promise<MailPreferencesView> {
  return viewOf(ctx, await storedOf(ctx.db, ctx.user.id));
}

/**
 * Stores the caller's choices (validated by the route: a known language, known events, known deliveries);
 * events not named keep theirs. The change and its audit row in one transaction; answers what is stored.
 */
export async function saveMyMailPreferences(ctx: RequestContext, input: MailPreferencesInput): Promise<MailPreferencesView> {
  const userId = ctx.user.id;
  const row = await ctx.db.transaction(async (tx) => {
    const before = await storedOf(tx, userId, true);
    const language = input.language ?? (before && isLanguage(before.language) ? before.language : 'es');
    // Only valid choices are written back: a corrupt stored value is dropped, the input's are checked by the route.
    const events = { ...choicesOf(before), ...input.events };
    await tx
      .insert(mailPreferences)
      .values({ userId, language, events })
      .onConflictDoUpdate({ target: mailPreferences.userId, set: { language, events, updatedAt: sql`now()` } });
    await ctx.audit(
      {
        action: 'MAIL_PREFERENCES',
        entityType: 'mail_preferences',
        entityId: userId,
        before: before ? { language: before.language, events: choicesOf(before) } : null,
        after: { language, events },
      },
      tx,
    );
    return { language, events };
  });
  return viewOf(ctx, row);
}
