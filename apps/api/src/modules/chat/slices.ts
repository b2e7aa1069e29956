import { and, asc, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import { z } from 'zod';
import { chatMembers, chatMessages } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { listBookmarks, listContacts, listConversations, type MessageRow, messageSelection, toMessage } from './service.ts';

/** The template's chat data calls (spec §7: message, chatData, channnellist…), answered from the real chat. */

/** Files shared in the user's conversations, newest first (the template's attachments panel). */
async function listAttachments(ctx: RequestContext) {
  const rows = await ctx.db
    .select({
      id: chatMessages.id,
      fileName: chatMessages.fileName,
      size: chatMessages.fileSize,
      roomId: chatMessages.conversationId,
    })
    .from(chatMessages)
    .innerJoin(chatMembers, and(eq(chatMembers.conversationId, chatMessages.conversationId), eq(chatMembers.userId, ctx.user.id)))
    .where(isNotNull(chatMessages.fileSha256))
    .orderBy(desc(chatMessages.id))
    .limit(200);
  return rows.map((r) => ({ id: r.id, fileName: r.fileName ?? '', size: r.size ?? 0, roomId: r.roomId }));
}

// ─── The spec's chat slices (/app/message, chatData, channnellist…) ───────────────────────────────

export const chatSliceSchema = z.array(z.record(z.string(), z.unknown()));

/** The template's chat data calls, answered from the real chat for the signed-in user. */
export async function chatSlice(ctx: RequestContext, name: string): Promise<Record<string, unknown>[]> {
  const conversations = await listConversations(ctx);
  switch (name) {
    case 'chatData':
      return conversations
        .filter((c) => c.kind === 'direct')
        .map((c) => ({
          id: c.id,
          name: c.name,
          status: c.presence,
          profile: null,
          desc: c.lastMessage,
          messagecount: c.unread,
          nickname: c.name,
        }));
    case 'channnellist':
      return conversations.filter((c) => c.kind === 'channel').map((c) => ({ id: c.id, name: c.name, messageCount: c.unread }));
    case 'chatContactData': {
      const contacts = await listContacts(ctx);
      const groups = new Map<string, Record<string, unknown>[]>();
      for (const c of contacts) {
        const title = (c.name[0] ?? '#').toUpperCase();
        groups.set(title, [
          ...(groups.get(title) ?? []),
          { id: c.id, name: c.name, status: c.status, roomId: c.roomId, image: null, profile: null },
        ]);
      }
      return [...groups.entries()].map(([title, list]) => ({ title, contacts: list }));
    }
    case 'attachementsData':
      return listAttachments(ctx);
    case 'bookmarkData':
      return (await listBookmarks(ctx)).map((m) => ({
        id: m.id,
        roomId: m.conversationId,
        sender: m.senderName,
        message: m.body,
        createdAt: m.createdAt,
      }));
    default: {
      // message: the latest messages of the user's conversations.
      const ids = conversations.map((c) => c.id);
      if (!ids.length) return [];
      const rows = (await ctx.db
        .select(messageSelection(ctx.user.id))
        .from(chatMessages)
        .where(inArray(chatMessages.conversationId, ids))
        .orderBy(asc(chatMessages.id))
        .limit(500)) as MessageRow[];
      return rows.map((r) => {
        const m = toMessage(ctx.user.id, r);
        return {
          id: m.id,
          roomId: m.conversationId,
          sender: m.senderName,
          message: m.body,
          createdAt: m.createdAt,
          isSender: m.isSender,
          image: [],
        };
      });
    }
  }
}
