import {
  AppError,
  CHAT_MAX_ATTACHMENT_BYTES,
  type ChatContact,
  type ChatConversation,
  type ChatMessage,
  detail,
  msg,
  PRESENCE_STALE_SECONDS,
  type Presence,
} from '@aporta/domain';
import { and, desc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { chatBookmarks, chatConversations, chatMembers, chatMessages, chatPresence, users } from '../../db/schema/index.ts';
import { getBlob, putBlob } from '../../platform/blobs.ts';
import type { RequestContext } from '../../platform/context.ts';
import type { FileStore } from '../../platform/files.ts';
import { checkUpload } from '../../platform/uploads.ts';
import type { ChatHub } from './hub.ts';

/**
 * The chat (template area, issue 18): conversations, messages, attachments, bookmarks and presence, each
 * for a member only. The live delivery is in hub.ts; the template's chat data calls in slices.ts.
 */

// ─── Reads ────────────────────────────────────────────────────────────────────────────────────────

const fullName = sql<string>`coalesce(nullif(trim(${users.firstName} || ' ' || ${users.lastName}), ''), ${users.email})`;

/** Presence as others see it: the chosen status while the person's stream is alive, offline after. */
const presenceExpr = sql<Presence>`case when ${chatPresence.updatedAt} > now() - make_interval(secs => ${PRESENCE_STALE_SECONDS}) then ${chatPresence.status} else 'offline' end`;

async function membership(db: Db, conversationId: number, userId: number) {
  const [m] = await db
    .select({ lastReadId: chatMembers.lastReadId })
    .from(chatMembers)
    .where(and(eq(chatMembers.conversationId, conversationId), eq(chatMembers.userId, userId)));
  return m ?? null;
}

/** The conversation if the user is in it; otherwise 404 (never saying whether it exists). */
async function requireMember(ctx: RequestContext, conversationId: number) {
  const m = await membership(ctx.db, conversationId, ctx.user.id);
  if (!m) throw new AppError('NOT_FOUND', msg('settings.conversationNotFound'));
  return m;
}

const memberIds = async (db: Db, conversationId: number) =>
  (await db.select({ id: chatMembers.userId }).from(chatMembers).where(eq(chatMembers.conversationId, conversationId))).map(
    (r) => r.id,
  );

/** The user's conversations: channels and direct ones, unread counts, last message, the other's presence. */
export async function listConversations(ctx: RequestContext): Promise<ChatConversation[]> {
  const me = ctx.user.id;
  type Row = {
    id: number;
    kind: 'channel' | 'direct';
    name: string | null;
    other_id: number | null;
    other_name: string | null;
    presence: Presence | null;
    unread: number;
    last_body: string | null;
    last_at: string | null;
    members: number;
  };
  const rows = await ctx.db.execute(sql`
    select c.id, c.kind, c.name,
      o.user_id as other_id,
      (select ${fullName} from ${users} where ${users.id} = o.user_id) as other_name,
      (select ${presenceExpr} from ${chatPresence} where ${chatPresence.userId} = o.user_id) as presence,
      (select count(*)::int from ${chatMessages} msg where msg.conversation_id = c.id and msg.id > m.last_read_id
         and msg.sender_id is distinct from ${me}) as unread,
      l.body as last_body, l.created_at as last_at,
      (select count(*)::int from ${chatMembers} mm where mm.conversation_id = c.id) as members
    from ${chatMembers} m
    join ${chatConversations} c on c.id = m.conversation_id
    left join lateral (select user_id from ${chatMembers} x where x.conversation_id = c.id and x.user_id <> ${me} and c.kind = 'direct' limit 1) o on true
    left join lateral (select body, created_at from ${chatMessages} y where y.conversation_id = c.id order by y.id desc limit 1) l on true
    where m.user_id = ${me}
    order by c.kind, coalesce(l.created_at, c.created_at) desc, c.id`);
  return rowsOf<Row>(rows).map((r) => ({
    id: Number(r.id),
    kind: r.kind,
    name: r.kind === 'direct' ? (r.other_name ?? 'Conversación') : (r.name ?? `Canal ${r.id}`),
    otherUserId: r.other_id == null ? null : Number(r.other_id),
    presence: r.kind === 'direct' ? (r.presence ?? 'offline') : null,
    unread: Number(r.unread),
    lastMessage: r.last_body,
    lastAt: r.last_at ? new Date(r.last_at).toISOString() : null,
    members: Number(r.members),
  }));
}

/** The columns of a message as the user `me` sees it (with whether they bookmarked it). */
export const messageSelection = (me: number) => ({
  id: chatMessages.id,
  conversationId: chatMessages.conversationId,
  senderId: chatMessages.senderId,
  senderName: sql<string>`coalesce((select ${fullName} from ${users} where ${users.id} = ${chatMessages.senderId}), 'Usuario eliminado')`,
  body: chatMessages.body,
  createdAt: chatMessages.createdAt,
  fileName: chatMessages.fileName,
  fileSize: chatMessages.fileSize,
  fileType: chatMessages.fileType,
  bookmarked: sql<boolean>`exists (select 1 from ${chatBookmarks} b where b.message_id = ${chatMessages.id} and b.user_id = ${me})`,
});

export type MessageRow = {
  id: number;
  conversationId: number;
  senderId: number | null;
  senderName: string;
  body: string;
  createdAt: Date;
  fileName: string | null;
  fileSize: number | null;
  fileType: string | null;
  bookmarked: boolean;
};

export const toMessage = (me: number, r: MessageRow): ChatMessage => ({
  id: Number(r.id),
  conversationId: r.conversationId,
  senderId: r.senderId,
  senderName: r.senderName,
  body: r.body,
  createdAt: new Date(r.createdAt).toISOString(),
  isSender: r.senderId === me,
  bookmarked: !!r.bookmarked,
  attachment: r.fileName ? { name: r.fileName, size: r.fileSize ?? 0, type: r.fileType ?? '' } : null,
});

/** A page of a conversation's messages, oldest first, ending before `before`; members only. */
export async function listMessages(
  ctx: RequestContext,
  { id, before, limit = 50 }: { id: number; before?: number; limit?: number },
) {
  await requireMember(ctx, id);
  const rows = (await ctx.db
    .select(messageSelection(ctx.user.id))
    .from(chatMessages)
    .where(and(eq(chatMessages.conversationId, id), before ? lt(chatMessages.id, before) : undefined))
    .orderBy(desc(chatMessages.id))
    .limit(limit + 1)) as MessageRow[];
  const hasMore = rows.length > limit;
  return {
    items: rows
      .slice(0, limit)
      .reverse()
      .map((r) => toMessage(ctx.user.id, r)),
    hasMore,
  };
}

/** Everyone of the institution's active users with their presence, and the direct room with each. */
export async function listContacts(ctx: RequestContext): Promise<ChatContact[]> {
  const me = ctx.user.id;
  const rows = await ctx.db
    .select({
      id: users.id,
      name: fullName,
      email: users.email,
      status: sql<Presence>`coalesce((select ${presenceExpr} from ${chatPresence} where ${chatPresence.userId} = ${users.id}), 'offline')`,
    })
    .from(users)
    .where(and(eq(users.isActive, true), ne(users.id, me)))
    .orderBy(fullName)
    .limit(500);
  const keys = rows.map((r) => directKey(me, r.id));
  const rooms = keys.length
    ? await ctx.db
        .select({ id: chatConversations.id, key: chatConversations.directKey })
        .from(chatConversations)
        .where(inArray(chatConversations.directKey, keys))
    : [];
  const roomOf = new Map(rooms.map((r) => [r.key, r.id]));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    status: r.status,
    roomId: roomOf.get(directKey(me, r.id)) ?? null,
  }));
}

const directKey = (a: number, b: number) => (a < b ? `${a}:${b}` : `${b}:${a}`);

// ─── Writes ───────────────────────────────────────────────────────────────────────────────────────

/** The direct conversation with `userId`, created (both as members) the first time. */
export async function openDirect(ctx: RequestContext, { userId }: { userId: number }): Promise<{ id: number }> {
  const me = ctx.user.id;
  if (userId === me)
    throw new AppError('VALIDATION', msg('settings.directWithSelf'), [
      { path: 'userId', ...detail(msg('settings.chooseAnotherPerson')) },
    ]);
  const [other] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.isActive, true)));
  if (!other) throw new AppError('NOT_FOUND', msg('settings.chatUserNotFound', { userId }));
  const key = directKey(me, userId);
  return ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(chatConversations)
      .values({ kind: 'direct', directKey: key, createdBy: me })
      .onConflictDoNothing({ target: chatConversations.directKey })
      .returning({ id: chatConversations.id });
    if (created) {
      await tx.insert(chatMembers).values([
        { conversationId: created.id, userId: me },
        { conversationId: created.id, userId },
      ]);
      return created;
    }
    const [found] = await tx
      .select({ id: chatConversations.id })
      .from(chatConversations)
      .where(eq(chatConversations.directKey, key));
    return found;
  });
}

/** A new channel with its creator and the chosen active users as members. */
export async function createChannel(ctx: RequestContext, { name, memberIds: ids }: { name: string; memberIds: number[] }) {
  const wanted = [...new Set([ctx.user.id, ...ids])];
  const found = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, wanted), eq(users.isActive, true)));
  const missing = wanted.filter((id) => !found.some((f) => f.id === id));
  if (missing.length) {
    const ids = missing.join(', ');
    throw new AppError('VALIDATION', msg('settings.membersInvalid', { ids }), [
      { path: 'memberIds', ...detail(msg('settings.usersInvalid', { ids })) },
    ]);
  }
  return ctx.db.transaction(async (tx) => {
    const [conv] = await tx
      .insert(chatConversations)
      .values({ kind: 'channel', name, createdBy: ctx.user.id })
      .returning({ id: chatConversations.id });
    await tx.insert(chatMembers).values(wanted.map((userId) => ({ conversationId: conv.id, userId })));
    await ctx.audit({ action: 'CREATE', entityType: 'chat_channel', entityId: conv.id, after: { name, members: wanted } }, tx);
    return conv;
  });
}

async function stored(ctx: RequestContext, id: number): Promise<ChatMessage> {
  const [row] = (await ctx.db
    .select(messageSelection(ctx.user.id))
    .from(chatMessages)
    .where(eq(chatMessages.id, id))) as MessageRow[];
  return toMessage(ctx.user.id, row);
}

/** Sends a message to a conversation the user is in; every member hears of it at once. */
export async function sendMessage(
  ctx: RequestContext,
  hub: ChatHub,
  { id, body, file }: { id: number; body: string; file?: { sha256: string; name: string; size: number; type: string } | null },
): Promise<ChatMessage> {
  await requireMember(ctx, id);
  const [msg] = await ctx.db
    .insert(chatMessages)
    .values({
      conversationId: id,
      senderId: ctx.user.id,
      body,
      ...(file ? { fileSha256: file.sha256, fileName: file.name, fileSize: file.size, fileType: file.type } : {}),
    })
    .returning({ id: chatMessages.id });
  // The sender has read what they wrote.
  await ctx.db
    .update(chatMembers)
    .set({ lastReadId: msg.id })
    .where(and(eq(chatMembers.conversationId, id), eq(chatMembers.userId, ctx.user.id)));
  await hub.publish({ type: 'message', conversationId: id, messageId: msg.id, userIds: await memberIds(ctx.db, id) });
  return stored(ctx, msg.id);
}

/** A message with a file: the bytes go to the documents storage (platform/blobs.ts), once by hash. */
export async function sendAttachment(
  ctx: RequestContext,
  hub: ChatHub,
  files: FileStore,
  { id, bytes, filename, body }: { id: number; bytes: Uint8Array; filename: string; body: string },
): Promise<ChatMessage> {
  await requireMember(ctx, id);
  if (bytes.length > CHAT_MAX_ATTACHMENT_BYTES) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      msg('settings.chatFileTooLarge', { filename, mb: CHAT_MAX_ATTACHMENT_BYTES / 1024 / 1024 }),
    );
  }
  const type = checkUpload(bytes, filename);
  const sha256 = await putBlob(ctx.db, files, bytes, type);
  return sendMessage(ctx, hub, { id, body: body || filename, file: { sha256, name: filename, size: bytes.length, type } });
}

/** The file of a message, for a member of its conversation. */
export async function attachmentOf(ctx: RequestContext, files: FileStore, { id }: { id: number }) {
  const [m] = await ctx.db
    .select({
      conversationId: chatMessages.conversationId,
      sha256: chatMessages.fileSha256,
      name: chatMessages.fileName,
      type: chatMessages.fileType,
    })
    .from(chatMessages)
    .where(eq(chatMessages.id, id));
  if (!m?.sha256) throw new AppError('NOT_FOUND', msg('settings.messageHasNoFile'));
  await requireMember(ctx, m.conversationId);
  return { bytes: await getBlob(files, m.sha256), name: m.name ?? 'archivo', type: m.type ?? 'application/octet-stream' };
}

/** Marks everything in a conversation as read by the user. */
export async function markRead(ctx: RequestContext, hub: ChatHub, { id }: { id: number }) {
  await requireMember(ctx, id);
  await ctx.db
    .update(chatMembers)
    .set({
      lastReadId: sql`coalesce((select max(${chatMessages.id}) from ${chatMessages} where ${chatMessages.conversationId} = ${id}), 0)`,
    })
    .where(and(eq(chatMembers.conversationId, id), eq(chatMembers.userId, ctx.user.id)));
  await hub.publish({ type: 'read', conversationId: id, userIds: [ctx.user.id] });
}

/** Bookmarks (or un-bookmarks) a message of a conversation the user is in. */
export async function setBookmark(ctx: RequestContext, { id, on }: { id: number; on: boolean }) {
  const [m] = await ctx.db
    .select({ conversationId: chatMessages.conversationId })
    .from(chatMessages)
    .where(eq(chatMessages.id, id));
  if (!m) throw new AppError('NOT_FOUND', msg('settings.chatMessageNotFound', { id }));
  await requireMember(ctx, m.conversationId);
  if (on) await ctx.db.insert(chatBookmarks).values({ userId: ctx.user.id, messageId: id }).onConflictDoNothing();
  else await ctx.db.delete(chatBookmarks).where(and(eq(chatBookmarks.userId, ctx.user.id), eq(chatBookmarks.messageId, id)));
  return stored(ctx, id);
}

/** The user's bookmarked messages, newest first. */
export async function listBookmarks(ctx: RequestContext): Promise<ChatMessage[]> {
  const rows = (await ctx.db
    .select(messageSelection(ctx.user.id))
    .from(chatMessages)
    .innerJoin(chatBookmarks, and(eq(chatBookmarks.messageId, chatMessages.id), eq(chatBookmarks.userId, ctx.user.id)))
    .innerJoin(chatMembers, and(eq(chatMembers.conversationId, chatMessages.conversationId), eq(chatMembers.userId, ctx.user.id)))
    .orderBy(desc(chatBookmarks.createdAt))
    .limit(200)) as MessageRow[];
  return rows.map((r) => toMessage(ctx.user.id, r));
}

/** Sets the user's presence (and refreshes it: the stream calls this every 25 s with the current status). */
export async function setPresence(db: Db, hub: ChatHub, userId: number, status: Presence | 'keep') {
  const [before] = await db.select({ status: presenceExpr }).from(chatPresence).where(eq(chatPresence.userId, userId));
  const next: Presence = status === 'keep' ? (before?.status === 'offline' || !before ? 'online' : before.status) : status;
  await db
    .insert(chatPresence)
    .values({ userId, status: next, updatedAt: new Date() })
    .onConflictDoUpdate({ target: chatPresence.userId, set: { status: next, updatedAt: new Date() } });
  if (before?.status !== next) await hub.publish({ type: 'presence', userId, status: next });
  return { status: next };
}
