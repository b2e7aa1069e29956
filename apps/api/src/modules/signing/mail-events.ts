/**
 * The signing flow's mails (issue 29): a document waiting for someone's signature (bell and mail, in the step's
 * transaction), and the daily reminders while it stays pending — after `mail.signingReminderAfterDays` days,
 * once a day, at most `mail.signingRemindersMax` times.
 */
import { eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { signingEvents, signingRequests, signingSigners, users } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { scheduleDaily } from '../../platform/jobs.ts';
import { mailUsers } from '../notifications/mail-users.ts';
import { notifyUsers } from '../notifications/service.ts';
import { settingsAt } from '../settings/service.ts';

const PENDING_LINK = '/firmaDoc/pendientes';

/** A user as a person names them: first and last name, else the address. */
async function nameOf(tx: Db, userId: number): Promise<string> {
  const [u] = await tx
    .select({ first: users.firstName, last: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  if (!u) return '';
  return `${u.first ?? ''} ${u.last ?? ''}`.trim() || u.email;
}

/** Tells `userId` that request `requestId` («title», sent by `senderId`) waits for their signature: bell and mail. */
export async function notifyWaitingSigner(
  tx: Db,
  r: { requestId: number; userId: number; title: string; senderId: number },
): Promise<void> {
  await notifyUsers({
    db: tx,
    userIds: [r.userId],
    type: 'info',
    title: 'Documento pendiente de firma',
    body: `«${r.title}» espera su firma.`.slice(0, 2000),
    link: PENDING_LINK,
    mail: {
      event: 'signing.waiting',
      params: { document: r.title, requester: await nameOf(tx, r.senderId) },
      dedupeKey: `signing.waiting:${r.requestId}:${r.userId}`,
    },
  });
}

/**
 * The reminders of `day` (idempotent): every signer whose turn came (PENDIENTE on a pending request) `after` or
 * more days ago gets reminder number `days waited − after + 1` while it is at most `max`. Their turn came when
 * the request was last sent (a first signer) or when the signer before them signed. The dedupe key names the
 * request, the signer and the reminder's number, so a second run of the day sends nothing again.
 */
export async function sendSigningReminders(
  ctx: RequestContext,
  day: string,
): Promise<{ day: string; pending: number; mails: number }> {
  const s = (await settingsAt(ctx.db, day)).values;
  const after = s['mail.signingReminderAfterDays'];
  const max = s['mail.signingRemindersMax'];
  if (max <= 0) return { day, pending: 0, mails: 0 };
  const rows = rowsOf<{ id: number; title: string; created_by: number; user_id: number; since: string }>(
    await ctx.db.execute(sql`
      select r.id, r.title, r.created_by, s.user_id,
        (greatest(
          (select max(e.at) from ${signingEvents} e where e.request_id = r.id and e.action = 'ENVIADO'),
          (select p.acted_at from ${signingSigners} p where p.request_id = r.id and p.position = s.position - 1)
        ) at time zone 'America/Guatemala')::date::text as since
      from ${signingSigners} s join ${signingRequests} r on r.id = s.request_id
      where r.state = 'PENDIENTE' and s.state = 'PENDIENTE'
      order by r.id, s.position`),
  );
  let pending = 0;
  let mails = 0;
  for (const row of rows) {
    if (!row.since) continue;
    const waited = daysBetween(row.since, day);
    const n = waited - after + 1;
    if (n < 1 || n > max) continue;
    pending += 1;
    mails += await ctx.db.transaction(async (tx) =>
      mailUsers(tx, [Number(row.user_id)], {
        event: 'signing.reminder',
        params: { document: row.title, requester: await nameOf(tx, Number(row.created_by)), since: row.since },
        link: PENDING_LINK,
        dedupeKey: `signing.reminder:${row.id}:${row.user_id}:${n}`,
      }),
    );
  }
  return { day, pending, mails };
}

/** Whole days from `from` to `to` (both `aaaa-mm-dd`, read as UTC days). */
const daysBetween = (from: string, to: string): number => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

const schedule = {
  key: 'mail.signingReminders',
  title: 'Recordatorios de documentos pendientes de firma',
  at: '07:00',
  permission: { resource: 'signature-admin', action: 'READ' },
  run: (ctx: RequestContext, day: string) => sendSigningReminders(ctx, day),
} as const;

/** Registers the daily reminders (idempotent). Called by the module's routes plugin. */
export function registerSigningReminders(): void {
  scheduleDaily(schedule);
}
