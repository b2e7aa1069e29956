import { isLanguage, type Language, MAIL_DIGEST_EVENT, MAIL_EVENTS } from '@aporta/domain';
import { and, asc, eq, isNotNull, lt, notExists, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { mailDigestItems, mailOutbox, mailPreferences, users } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { type JobRun, scheduleDaily } from '../../platform/jobs.ts';
import { mailWakeups } from '../../platform/mail.ts';
import {
  absoluteLink,
  escapeHtml,
  fillMailText,
  MAIL_LOCALES,
  type MailParams,
  mailSite,
  type RenderedMail,
} from '../../platform/mail-templates.ts';

/**
 * The daily digest (issue 29): a user who chose «resumen diario» for an event gets its mails as DIGEST rows of
 * the outbox (platform/mail.ts), never alone; once a day this job gathers each user's DIGEST rows not yet sent
 * in a digest into one message — a section per mail, grouped by event, in the user's mail language — queued
 * as an ordinary outbox row (PENDING, sent by the dispatcher). Each row is listed in `mail_digest_items` in the
 * same transaction, so it goes out in exactly one digest: a rerun, a second process or a crash midway sends
 * nothing twice (one digest per user and day: its dedupe key), and loses nothing (rows not taken wait for the
 * next digest).
 */

/** Guatemala keeps UTC−6 all year: the end of a local day. */
const endOfDay = (day: string) => new Date(new Date(`${day}T00:00:00-06:00`).getTime() + 86_400_000);

/** DIGEST rows no digest has carried yet. */
const notIncluded = notExists(sql`(select 1 from ${mailDigestItems} where ${mailDigestItems.outboxId} = ${mailOutbox.id})`);

type DigestRow = { id: number; event: string; subject: string; text: string; link: string | null; createdAt: Date };

/** What a mail says before its footer: its paragraphs, and the button's line («Ver la planilla: https://…»). */
function partsOf(row: DigestRow): { paragraphs: string[]; action: { label: string; url: string } | null } {
  const main = row.text.split('\n\n--\n\n')[0];
  const paragraphs = main.split(/\n{2,}/).filter((p) => p.trim() !== '');
  const last = paragraphs[paragraphs.length - 1] ?? '';
  const m = /^(.+): (https?:\/\/\S+)$/.exec(last);
  if (!m) return { paragraphs, action: row.link ? { label: row.link, url: absoluteLink(row.link) } : null };
  return { paragraphs: paragraphs.slice(0, -1), action: { label: m[1], url: m[2] } };
}

const eventOrder = (e: string) => {
  const i = (MAIL_EVENTS as readonly string[]).indexOf(e);
  return i < 0 ? MAIL_EVENTS.length : i;
};

/** One user's digest of `day`: the rows' sections, grouped by event (the catalogue's order), oldest first. */
export function renderDigest(language: Language, day: string, rows: readonly DigestRow[]): RenderedMail {
  const site = mailSite();
  const locale = MAIL_LOCALES[language] ?? MAIL_LOCALES.es;
  const params: MailParams = { app: site.appTitle, date: day };
  const fill = (t: string) => fillMailText(t, params, language);
  const sorted = [...rows].sort((a, b) => eventOrder(a.event) - eventOrder(b.event) || a.id - b.id);
  const sections = sorted.map((r) => ({ subject: r.subject, ...partsOf(r) }));
  const subject = fill(locale.digestSubject)
    .replace(/[\r\n]+/g, ' ')
    .trim();
  const intro = fill(locale.digestIntro);
  const action = fill(locale.digestAction);
  const home = absoluteLink('/');
  const footer = fill(locale.footer);
  const preferences = fill(locale.preferences);

  const text = [
    intro,
    ...sections.map((s) =>
      [`■ ${s.subject}`, ...s.paragraphs, ...(s.action ? [`${s.action.label}: ${s.action.url}`] : [])].join('\n\n'),
    ),
    `${action}: ${home}`,
    '--',
    footer,
    preferences,
  ].join('\n\n');

  const e = escapeHtml;
  const dir = language === 'ar' ? 'rtl' : 'ltr';
  const htmlLang = language === 'gr' ? 'de' : language === 'ch' ? 'zh' : language;
  const sectionHtml = sections
    .map(
      (s) => `<tr><td style="padding:16px 24px;border-top:1px solid #e4e7eb;font-size:15px;line-height:1.5">
<h2 style="margin:0 0 8px;font-size:16px;color:#0b7285">${e(s.subject)}</h2>
${s.paragraphs.map((p) => `<p style="margin:0 0 8px">${e(p).replace(/\n/g, '<br>')}</p>`).join('\n')}
${s.action ? `<p style="margin:8px 0 0"><a href="${e(s.action.url)}" style="color:#0b7285;font-weight:bold">${e(s.action.label)}</a></p>` : ''}
</td></tr>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html lang="${htmlLang}" dir="${dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f5f7;font-family:Arial,Helvetica,sans-serif;color:#1f2933">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f5f7;padding:24px 0">
<tr><td align="center">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;background:#ffffff;border-radius:8px;overflow:hidden">
<tr><td style="background:#0b7285;color:#ffffff;padding:16px 24px;font-size:18px;font-weight:bold">${e(site.appTitle)}</td></tr>
<tr><td style="padding:24px 24px 8px;font-size:15px;line-height:1.5"><p style="margin:0">${e(intro)}</p></td></tr>
${sectionHtml}
<tr><td style="padding:24px"><a href="${e(home)}" style="display:inline-block;background:#0b7285;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:6px;font-weight:bold">${e(action)}</a></td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e4e7eb;font-size:12px;color:#52606d">${e(footer)}<br>${e(preferences)}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  return { subject, text, html };
}

/**
 * One user's digest of `day`, in one transaction: their DIGEST rows queued before the day ended and not yet
 * in a digest (locked, skipping rows another run holds), one PENDING message to their address, and the rows
 * listed as included. Nothing when there are no rows, the user is inactive (their rows wait), or the day's
 * digest already exists (the rows wait for the next one). Returns how many rows went in.
 */
async function digestOfUser(db: Db, userId: number, day: string): Promise<number> {
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ email: users.email, isActive: users.isActive }).from(users).where(eq(users.id, userId));
    if (!user?.isActive) return 0;
    const rows = await tx
      .select({
        id: mailOutbox.id,
        event: mailOutbox.event,
        subject: mailOutbox.subject,
        text: mailOutbox.text,
        link: mailOutbox.link,
        createdAt: mailOutbox.createdAt,
      })
      .from(mailOutbox)
      .where(
        and(eq(mailOutbox.userId, userId), eq(mailOutbox.state, 'DIGEST'), lt(mailOutbox.createdAt, endOfDay(day)), notIncluded),
      )
      .orderBy(asc(mailOutbox.id))
      .limit(500)
      .for('update', { skipLocked: true });
    if (rows.length === 0) return 0;
    const [pref] = await tx
      .select({ language: mailPreferences.language })
      .from(mailPreferences)
      .where(eq(mailPreferences.userId, userId));
    const language: Language = pref && isLanguage(pref.language) ? pref.language : 'es';
    const rendered = renderDigest(language, day, rows);
    const [digest] = await tx
      .insert(mailOutbox)
      .values({
        event: MAIL_DIGEST_EVENT,
        userId,
        to: [user.email.trim().toLowerCase()],
        language,
        ...rendered,
        link: '/',
        dedupeKey: `${MAIL_DIGEST_EVENT}:${day}:u${userId}`,
        state: 'PENDING',
        nextAttemptAt: sql`now()`,
      })
      .onConflictDoNothing({ target: mailOutbox.dedupeKey })
      .returning({ id: mailOutbox.id });
    if (!digest) return 0;
    await tx.insert(mailDigestItems).values(rows.map((r) => ({ outboxId: r.id, digestId: digest.id })));
    return rows.length;
  });
}

/**
 * The digests of `day` (aaaa-mm-dd, Guatemala): one message per user with DIGEST rows waiting. Idempotent.
 * Runs as the system (the daily job) or from a test.
 */
export async function sendDailyDigests(
  ctx: RequestContext,
  day: string,
  progress?: JobRun<unknown>['progress'],
): Promise<{ day: string; users: number; messages: number; included: number }> {
  const waiting = await ctx.db
    .selectDistinct({ userId: mailOutbox.userId })
    .from(mailOutbox)
    .where(
      and(eq(mailOutbox.state, 'DIGEST'), isNotNull(mailOutbox.userId), lt(mailOutbox.createdAt, endOfDay(day)), notIncluded),
    )
    .orderBy(asc(mailOutbox.userId));
  let messages = 0;
  let included = 0;
  for (const [i, { userId }] of waiting.entries()) {
    const n = await digestOfUser(ctx.db, userId as number, day);
    if (n > 0) {
      messages += 1;
      included += n;
    }
    await progress?.({ done: i + 1, total: waiting.length, phase: `Resúmenes del ${day}` });
  }
  if (messages > 0) mailWakeups.emit('enqueued');
  return { day, users: waiting.length, messages, included };
}

let registered = false;

/** Registers the daily digest once (called by the module's routes plugin; later calls do nothing). */
export function registerMailJobs(): void {
  if (registered) return;
  registered = true;
  // At the end of the office day in Guatemala: the day's mails of each user who chose the digest.
  scheduleDaily({
    key: 'mail.daily-digest',
    title: 'Resumen diario de correo',
    at: '18:00',
    permission: { resource: 'mail', action: 'UPDATE' },
    async run(ctx, day, progress) {
      await progress({ done: 0, total: null, phase: `Reuniendo los avisos del ${day}` });
      return sendDailyDigests(ctx, day, progress);
    },
  });
}
