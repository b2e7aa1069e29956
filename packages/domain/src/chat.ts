import { z } from 'zod';
import { idParamsSchema, idSchema } from './fields.ts';
import { presenceStatuses } from './template.ts';

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
    .string({ error: 'Mensaje: escriba un texto.' })
    .trim()
    .min(1, { error: 'Mensaje: escriba un texto.' })
    .max(CHAT_MAX_MESSAGE, { error: `Mensaje: máximo ${CHAT_MAX_MESSAGE} caracteres.` }),
});

export const chatChannelInputSchema = z.strictObject({
  name: z
    .string({ error: 'Nombre del canal: obligatorio.' })
    .trim()
    .min(2, { error: 'Nombre del canal: al menos 2 caracteres.' })
    .max(60, { error: 'Nombre del canal: máximo 60 caracteres.' }),
  memberIds: z.array(idSchema).max(500, { error: 'Miembros: como máximo 500.' }).default([]),
});

export const chatDirectInputSchema = z.strictObject({ userId: idSchema });
export const chatPresenceInputSchema = z.strictObject({
  status: z.enum(presenceStatuses, { error: 'Estado: en línea, ausente o desconectado.' }),
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
