import { z } from 'zod';
import { idParamsSchema, idSchema } from './fields.ts';
import { text } from './messages.ts';
import { presenceStatuses, type TemplateSliceName, type templateSlices } from './template.ts';

/**
 * The chat of the template area (issue 18): channels and direct conversations between users of the
 * institution, stored messages, attachments in the documents storage, presence, bookmarks and unread
 * counts. Delivered live through the API's event stream (GET /api/chat/stream).
 */

/** Longest message, in characters. */
export const CHAT_MAX_MESSAGE = 2000;
/** Largest attachment (bytes): the documents storage takes up to 20 MB; a chat file is kept smaller. */
export const CHAT_MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
/** Presence not refreshed for this long reads as offline (the stream refreshes it every 25 s). */
export const PRESENCE_STALE_SECONDS = 90;

export const chatMessageInputSchema = z.strictObject({
  body: z
    .string({ error: text('settings.chatMessageRequired') })
    .trim()
    .min(1, { error: text('settings.chatMessageRequired') })
    .max(CHAT_MAX_MESSAGE, { error: text('settings.chatMessageTooLong') }),
});

export const chatChannelInputSchema = z.strictObject({
  name: z
    .string({ error: text('settings.channelNameRequired') })
    .trim()
    .min(2, { error: text('settings.channelNameTooShort') })
    .max(60, { error: text('settings.channelNameTooLong') }),
  memberIds: z
    .array(idSchema)
    .max(500, { error: text('settings.channelMembersMax') })
    .default([]),
});

export const chatDirectInputSchema = z.strictObject({ userId: idSchema });
export const chatPresenceInputSchema = z.strictObject({
  status: z.enum(presenceStatuses, { error: text('settings.presenceInvalid') }),
});
/** A conversation's or a message's id in the path: the platform's one id rule (digits, no sign or zeros, int4). */
export const chatConversationParamsSchema = idParamsSchema;
export const chatMessageParamsSchema = idParamsSchema;
export const chatMessagesQuerySchema = z.object({
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const chatAttachmentSchema = z.object({ name: z.string(), size: z.number().int(), type: z.string() });

export const chatMessageSchema = z.object({
  id: z.number().int(),
  conversationId: z.number().int(),
  senderId: z.number().int().nullable(),
  senderName: z.string(),
  body: z.string(),
  createdAt: z.string(),
  isSender: z.boolean(),
  bookmarked: z.boolean(),
  attachment: chatAttachmentSchema.nullable(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const chatConversationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['channel', 'direct']),
  name: z.string(),
  /** Direct: the other person, with their presence. */
  otherUserId: z.number().int().nullable(),
  presence: z.enum(presenceStatuses).nullable(),
  unread: z.number().int(),
  lastMessage: z.string().nullable(),
  lastAt: z.string().nullable(),
  members: z.number().int(),
});
export type ChatConversation = z.infer<typeof chatConversationSchema>;

export const chatContactSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  status: z.enum(presenceStatuses),
  roomId: z.number().int().nullable(),
});
export type ChatContact = z.infer<typeof chatContactSchema>;

export const chatMessagesPageSchema = z.object({ items: z.array(chatMessageSchema), hasMore: z.boolean() });
export const chatConversationListSchema = z.array(chatConversationSchema);
export const chatContactListSchema = z.array(chatContactSchema);
export const chatMessageListSchema = z.array(chatMessageSchema);

/** The conversation a direct chat opened (or found) or a channel created: its id. */
export const chatConversationIdSchema = z.object({ id: z.number().int() });
/** The user's presence, as set (or refreshed). */
export const chatPresenceSchema = z.object({ status: z.enum(presenceStatuses) });

// ─── The template spec's chat data calls (GET /app/message, chatData…), answered from the real chat ──

/** `message`: the latest messages of the user's conversations (`image`: the spec's pictures, always none). */
export const chatSliceMessageSchema = z.object({
  id: z.number().int(),
  roomId: z.number().int(),
  sender: z.string(),
  message: z.string(),
  createdAt: z.string(),
  isSender: z.boolean(),
  image: z.array(z.string()),
});
/** `chatData`: the direct conversations, with the other person's presence and the unread count. */
export const chatSliceDirectSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(presenceStatuses).nullable(),
  profile: z.null(),
  desc: z.string().nullable(),
  messagecount: z.number().int(),
  nickname: z.string(),
});
/** `channnellist` (the spec's spelling): the channels and their unread count. */
export const chatSliceChannelSchema = z.object({ id: z.number().int(), name: z.string(), messageCount: z.number().int() });
/** `chatContactData`: the contacts grouped by the initial of their name. */
export const chatSliceContactGroupSchema = z.object({
  title: z.string(),
  contacts: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      status: z.enum(presenceStatuses),
      roomId: z.number().int().nullable(),
      image: z.null(),
      profile: z.null(),
    }),
  ),
});
/** `attachementsData` (the spec's spelling): files shared in the user's conversations, newest first. */
export const chatSliceAttachmentSchema = z.object({
  id: z.number().int(),
  fileName: z.string(),
  size: z.number().int(),
  roomId: z.number().int(),
});
/** `bookmarkData`: the user's saved messages. */
export const chatSliceBookmarkSchema = z.object({
  id: z.number().int(),
  roomId: z.number().int(),
  sender: z.string(),
  message: z.string(),
  createdAt: z.string(),
});
export const chatSliceMessageListSchema = z.array(chatSliceMessageSchema);
export const chatSliceDirectListSchema = z.array(chatSliceDirectSchema);
export const chatSliceChannelListSchema = z.array(chatSliceChannelSchema);
export const chatSliceContactGroupListSchema = z.array(chatSliceContactGroupSchema);
export const chatSliceAttachmentListSchema = z.array(chatSliceAttachmentSchema);
export const chatSliceBookmarkListSchema = z.array(chatSliceBookmarkSchema);

/** The template's slices answered by the chat (`templateSlices` whose collection is `chat`). */
export type ChatSliceName = {
  [K in TemplateSliceName]: (typeof templateSlices)[K]['collection'] extends 'chat' ? K : never;
}[TemplateSliceName];

/** The answer of each chat data call of the template: one for every chat slice, and no other. */
export const chatSliceSchemas = {
  message: chatSliceMessageListSchema,
  chatData: chatSliceDirectListSchema,
  channnellist: chatSliceChannelListSchema,
  chatContactData: chatSliceContactGroupListSchema,
  attachementsData: chatSliceAttachmentListSchema,
  bookmarkData: chatSliceBookmarkListSchema,
} as const satisfies Record<ChatSliceName, z.ZodType>;

export const isChatSlice = (name: string): name is ChatSliceName => Object.hasOwn(chatSliceSchemas, name);
