import {
  AppError,
  type MailEvent,
  type NewNotification,
  type Notification,
  type NotificationIds,
  type NotificationList,
  type NotificationListQuery,
  newNotificationSchema,
} from '@aporta/domain';
import { and, count, desc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notifications, users } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { enqueueMail, isMailAddress, type MailAttachment, type MailParams } from '../../platform/mail.ts';

type Row = typeof notifications.$inferSelect;

const toDto = (r: Row): Notification => ({
  id: r.id,
  type: r.type,
  title: r.title,
  body: r.body,
  link: r.link,
  readAt: r.readAt ? r.readAt.toISOString() : null,
  createdAt: r.createdAt.toISOString(),
});

async function unreadCount(db: Db, userId: number): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return n;
}

/** The signed-in user's notifications, newest first, with the total and the unread count. */
export async function findNotifications(ctx: RequestContext, query: NotificationListQuery): Promise<NotificationList> {
  const { db } = ctx;
  const userId = ctx.user.id;
  const where = and(eq(notifications.userId, userId), query.unread === 'true' ? isNull(notifications.readAt) : undefined);
  const [items, [{ total }], unread] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(where)
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(query.limit),
    db.select({ total: count() }).from(notifications).where(where),
    unreadCount(db, userId),
  ]);
  return { items: items.map(toDto), total, unread };
}

const target = (userId: number, sel: NotificationIds): SQL =>
  and(eq(notifications.userId, userId), 'ids' in sel ? inArray(notifications.id, sel.ids) : undefined)!;

/**
 * Marks some or all of the user's notifications read. Ids that are not the user's, or no longer
 * exist, are simply not affected: acting twice on the same item answers cleanly.
 */
export async function markNotificationsRead(
  ctx: RequestContext,
  selection: NotificationIds,
): Promise<{ affected: number; unread: number }> {
  const rows = await ctx.db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(target(ctx.user.id, selection), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return { affected: rows.length, unread: await unreadCount(ctx.db, ctx.user.id) };
}

/** Deletes some or all of the user's notifications; already deleted ids count as nothing to do. */
export async function deleteNotifications(
  ctx: RequestContext,
  selection: NotificationIds,
): Promise<{ affected: number; unread: number }> {
  const rows = await ctx.db.delete(notifications).where(target(ctx.user.id, selection)).returning({ id: notifications.id });
  return { affected: rows.length, unread: await unreadCount(ctx.db, ctx.user.id) };
}

/** The e-mail that goes with a notification (issue 29): the event's template, its params and attachments. */
export interface NotificationMail {
  event: MailEvent;
  params: MailParams;
  attachments?: MailAttachment[];
  /** Queued once per user: `:u<userId>` is appended for each recipient. */
  dedupeKey?: string;
}

/**
 * Notifies users, for any module (e.g. "Planilla enviada a revisión" to the region's delegates). Pass
 * the module's transaction as `db` so the notification exists only if the change commits. Duplicate
 * user ids are notified once. Throws VALIDATION for an empty title or a link outside the app.
 *
 * With `mail`, each active user with a valid address also gets the event's e-mail in their language, with
 * the notification's link, by their preference for the event (default at once; 'off' sends nothing):
 * `enqueueMail` in the same transaction.
 */
export async function notifyUsers(
  opts: { db: Db; userIds: readonly number[]; mail?: NotificationMail } & NewNotification,
): Promise<number> {
  const { db, userIds, mail, ...input } = opts;
  const parsed = newNotificationSchema.safeParse(input);
  if (!parsed.success) {
    throw new AppError(
      'VALIDATION',
      undefined,
      parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  }
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return 0;
  await db.insert(notifications).values(unique.map((userId) => ({ userId, ...parsed.data })));
  if (mail) {
    const recipients = await db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(and(inArray(users.id, unique), eq(users.isActive, true)))
      .orderBy(users.id);
    for (const r of recipients) {
      if (!isMailAddress(r.email)) continue;
      await enqueueMail(db, {
        event: mail.event,
        to: [r.email],
        userId: r.id,
        params: mail.params,
        link: parsed.data.link,
        attachments: mail.attachments,
        dedupeKey: mail.dedupeKey === undefined ? undefined : `${mail.dedupeKey}:u${r.id}`,
      });
    }
  }
  return unique.length;
}
