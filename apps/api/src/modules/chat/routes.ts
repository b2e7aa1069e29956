import type { OutgoingHttpHeaders } from 'node:http';
import {
  CHAT_MAX_MESSAGE,
  chatChannelInputSchema,
  chatContactListSchema,
  chatConversationIdSchema,
  chatConversationListSchema,
  chatConversationParamsSchema,
  chatDirectInputSchema,
  chatMessageInputSchema,
  chatMessageListSchema,
  chatMessageParamsSchema,
  chatMessageSchema,
  chatMessagesPageSchema,
  chatMessagesQuerySchema,
  chatPresenceInputSchema,
  chatPresenceSchema,
  noContentSchema,
  TEMPLATE_RESOURCE,
  text,
} from '@aporta/domain';
import multipart from '@fastify/multipart';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendDownload } from '../../platform/downloads.ts';
import { errorResponses } from '../../platform/http.ts';
import { FAIR_SHARE_RETRY_AFTER_SECONDS, fairShareMessages, overShare, PerUserLimit } from '../../platform/load.ts';
import { DOCUMENT_TYPES, readUpload, uploadLimits } from '../../platform/uploads.ts';
import { type ChatEvent, ChatHub, chatEventSchema } from './hub.ts';
import {
  attachmentOf,
  createChannel,
  listBookmarks,
  listContacts,
  listConversations,
  listMessages,
  markRead,
  openDirect,
  sendAttachment,
  sendMessage,
  setBookmark,
  setPresence,
} from './service.ts';

const CHANNEL = 'aporta_chat';
/** The stream's keep-alive and presence refresh. */
const HEARTBEAT_MS = 25_000;

/**
 * The chat (template area, issue 18): conversations, messages, attachments, bookmarks, presence, and
 * the live event stream (server-sent events) every member's screen listens to. Under `plantilla`.
 */
export const chatRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, { limits: uploadLimits });
  const hub = new ChatHub();
  if (app.database.listen) {
    // Several API processes: every event goes through the database, each process delivers to its streams.
    const stop = await app.database.listen(
      CHANNEL,
      (payload) => {
        const parsed = chatEventSchema.safeParse(JSON.parse(payload));
        if (parsed.success) hub.deliver(parsed.data);
      },
      () => app.log.warn('chat: notification channel lost'),
    );
    hub.useNotify(async (payload) => {
      await app.db.execute(sql`select pg_notify(${CHANNEL}, ${payload})`);
    });
    app.addHook('onClose', async () => stop());
  }

  const tags = ['chat'];
  const read = { access: { resource: TEMPLATE_RESOURCE, action: 'READ' } } as const;
  const write = { access: { resource: TEMPLATE_RESOURCE, action: 'CREATE' } } as const;

  app.get(
    '/api/chat/conversations',
    {
      config: read,
      schema: {
        tags,
        summary: 'Mis conversaciones',
        response: { 200: chatConversationListSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => listConversations(request.ctx),
  );
  app.get(
    '/api/chat/contacts',
    {
      config: read,
      schema: {
        tags,
        summary: 'Contactos con su presencia',
        response: { 200: chatContactListSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => listContacts(request.ctx),
  );
  app.get(
    '/api/chat/bookmarks',
    {
      config: read,
      schema: {
        tags,
        summary: 'Mis mensajes guardados',
        response: { 200: chatMessageListSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => listBookmarks(request.ctx),
  );
  app.post(
    '/api/chat/direct',
    {
      config: write,
      schema: {
        tags,
        summary: 'Abrir (o crear) la conversación directa con un usuario',
        body: chatDirectInputSchema,
        response: { 200: chatConversationIdSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => openDirect(request.ctx, request.body),
  );
  app.post(
    '/api/chat/channels',
    {
      config: write,
      schema: {
        tags,
        summary: 'Crear un canal con miembros',
        body: chatChannelInputSchema,
        response: { 201: chatConversationIdSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.status(201).send(await createChannel(request.ctx, request.body)),
  );
  app.get(
    '/api/chat/conversations/:id/messages',
    {
      config: read,
      schema: {
        tags,
        summary: 'Mensajes de una conversación (solo miembros)',
        params: chatConversationParamsSchema,
        querystring: chatMessagesQuerySchema,
        response: { 200: chatMessagesPageSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => listMessages(request.ctx, { id: request.params.id, ...request.query }),
  );
  app.post(
    '/api/chat/conversations/:id/messages',
    {
      config: write,
      schema: {
        tags,
        summary: `Enviar un mensaje (máximo ${CHAT_MAX_MESSAGE} caracteres; solo miembros)`,
        params: chatConversationParamsSchema,
        body: chatMessageInputSchema,
        response: { 201: chatMessageSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await sendMessage(request.ctx, hub, { id: request.params.id, body: request.body.body })),
  );
  app.post(
    '/api/chat/conversations/:id/attachments',
    {
      config: write,
      schema: {
        tags,
        summary: 'Enviar un archivo (multipart: file, body opcional); se guarda en el almacén de documentos',
        consumes: ['multipart/form-data'],
        params: chatConversationParamsSchema,
        response: { 201: chatMessageSchema, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const { file, fields } = await readUpload(
        request,
        z.object({
          body: z
            .string()
            .trim()
            .max(CHAT_MAX_MESSAGE, { error: text('settings.chatMessageTooLong') })
            .default(''),
        }),
        { accept: DOCUMENT_TYPES },
      );
      const sent = await sendAttachment(request.ctx, hub, app.files, {
        id: request.params.id,
        bytes: file!.bytes,
        filename: file!.filename,
        body: fields.body,
      });
      return reply.status(201).send(sent);
    },
  );
  app.get(
    '/api/chat/messages/:id/attachment',
    {
      config: read,
      schema: {
        tags,
        summary: 'Descargar el archivo de un mensaje',
        params: chatMessageParamsSchema,
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const f = await attachmentOf(request.ctx, app.files, { id: request.params.id });
      return sendDownload(reply, { body: f.bytes, contentType: f.type, filename: f.name });
    },
  );
  app.post(
    '/api/chat/conversations/:id/read',
    {
      config: read,
      schema: {
        tags,
        summary: 'Marcar la conversación como leída',
        params: chatConversationParamsSchema,
        response: { 204: noContentSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await markRead(request.ctx, hub, { id: request.params.id });
      return reply.status(204).send(null);
    },
  );
  for (const [method, on] of [
    ['PUT', true],
    ['DELETE', false],
  ] as const) {
    app.route({
      method,
      url: '/api/chat/messages/:id/bookmark',
      config: read,
      schema: {
        tags,
        summary: on ? 'Guardar un mensaje' : 'Quitar un mensaje de guardados',
        params: chatMessageParamsSchema,
        response: { 200: chatMessageSchema, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request) => setBookmark(request.ctx, { id: (request.params as { id: number }).id, on }),
    });
  }
  app.put(
    '/api/chat/presence',
    {
      config: read,
      schema: {
        tags,
        summary: 'Mi presencia: en línea, ausente o desconectado',
        body: chatPresenceInputSchema,
        response: { 200: chatPresenceSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => setPresence(app.db, hub, request.ctx.user.id, request.body.status),
  );

  // Open streams end when the server closes (they would hold it open otherwise).
  const streams = new Set<() => void>();
  // Each user's share of open streams in this process (STREAMS_PER_USER): one per tab; beyond it, 429.
  const perUser = new PerUserLimit(app.config.STREAMS_PER_USER);
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });

  // The live stream: server-sent events for the signed-in user (read with fetch, bearer header).
  app.get(
    '/api/chat/stream',
    {
      config: read,
      schema: {
        tags,
        summary: 'Eventos del chat en vivo (text/event-stream); a lo sumo STREAMS_PER_USER abiertos por usuario',
        response: { ...errorResponses(401, 403, 429) },
      },
    },
    async (request, reply) => {
      const me = request.ctx.user.id;
      const release = perUser.tryAcquire(me);
      if (!release) {
        reply.header('retry-after', String(FAIR_SHARE_RETRY_AFTER_SECONDS));
        throw overShare(fairShareMessages.streams(perUser.max));
      }
      reply.hijack();
      const res = reply.raw;
      // A hijacked reply writes its own head: the headers every answer carries (security), then the stream's.
      res.writeHead(200, {
        ...(reply.getHeaders() as OutgoingHttpHeaders),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      const send = (event: ChatEvent) => {
        const mine = event.type === 'presence' || event.userIds.includes(me);
        if (mine) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      };
      const unsubscribe = hub.subscribe(send);
      let beat: NodeJS.Timeout | undefined;
      // The client leaving (or the server closing) ends the stream and gives its place back, once.
      const end = () => {
        if (!streams.delete(end)) return;
        clearInterval(beat);
        unsubscribe();
        release();
        res.end();
      };
      streams.add(end);
      request.raw.on('close', end);
      res.on('close', end);
      res.write(`event: ready\ndata: {"userId":${me}}\n\n`);
      await setPresence(app.db, hub, me, 'keep').catch(() => {});
      if (!streams.has(end)) return;
      beat = setInterval(() => {
        res.write(': latido\n\n');
        setPresence(app.db, hub, me, 'keep').catch(() => {});
      }, HEARTBEAT_MS);
    },
  );
};
