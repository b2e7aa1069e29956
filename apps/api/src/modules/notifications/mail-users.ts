// Mail to named users without a bell notification: reminders and daily notices, each queued once (issue 29).
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { enqueueMail, type OutgoingMail } from '../../platform/mail.ts';

/**
 * Queues `mail` to each active user of `userIds` (their address, language and preference for the event), in
 * `tx`. The dedupe key gets `:u<userId>` appended, so a rerun (the daily job retried, or run again by hand)
 * queues nothing twice. Answers how many mails were queued (not those deduplicated or turned off).
 */
export async function mailUsers(
  tx: Db,
  userIds: readonly number[],
  mail: Omit<OutgoingMail, 'to' | 'userId'> & { dedupeKey: string },
): Promise<number> {
  const ids = [...new Set(userIds)];
  if (!ids.length) return 0;
  const rows = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.isActive, true)))
    .orderBy(users.id);
  let queued = 0;
  for (const u of rows) {
    // An account created with an odd address is skipped (as notifyUsers does), never an error of the run.
    if (!/^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/.test(u.email.trim())) continue;
    const id = await enqueueMail(tx, { ...mail, to: [u.email], userId: u.id, dedupeKey: `${mail.dedupeKey}:u${u.id}` });
    if (id != null) queued += 1;
  }
  return queued;
}
