import { CHAT_MAX_MESSAGE } from '@aporta/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedChat } from '../../seed/template.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';

let t: TestApp;
let ana: TestUser;
let beto: TestUser;
let carla: TestUser;
const grants = [
  { resource: 'plantilla' as const, action: 'READ' as const, scope: 'ALL' as const },
  { resource: 'plantilla' as const, action: 'CREATE' as const, scope: 'ALL' as const },
];
/** Streams one user may hold open at once in this test (STREAMS_PER_USER). */
const STREAMS = 3;
beforeAll(async () => {
  t = await createTestApp({ STREAMS_PER_USER: String(STREAMS) });
  ana = await t.createUser({ grants });
  beto = await t.createUser({ grants });
  carla = await t.createUser({ grants });
  await seedChat(t.database.db);
});
afterAll(() => t.close());

const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: unknown) =>
  t.request({ method, url, token, ...(payload === undefined ? {} : { payload: payload as object }) });

let address: string | undefined;
/** The app listening on a free port (once), for the event stream, which a real connection reads. */
const listening = async () => {
  address ??= await t.app.listen({ port: 0, host: '127.0.0.1' });
  return address;
};

/** Opens the event stream as `token`: its answer, and once it is 200 the stream read up to "ready". */
async function openStream(token: string) {
  const controller = new AbortController();
  const res = await fetch(`${await listening()}/api/chat/stream`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  if (res.status === 200) {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('event: ready')) text += (await reader.read()).value ?? '';
  }
  return { res, close: () => controller.abort() };
}

describe('chat', () => {
  let room: number;

  it('opens one direct conversation between two users, whoever opens it', async () => {
    const a = await req('POST', '/api/chat/direct', ana.token, { userId: beto.id });
    expect(a.statusCode).toBe(200);
    room = a.json().id;
    const b = await req('POST', '/api/chat/direct', beto.token, { userId: ana.id });
    expect((await req('POST', '/api/chat/direct', ana.token, { userId: ana.id })).statusCode).toBe(400);
    expect(b.json().id).toBe(room);
  });

  it('stores messages, counts unread for the other member, clears them when read', async () => {
    const sent = await req('POST', `/api/chat/conversations/${room}/messages`, ana.token, { body: 'Hola, Beto' });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ body: 'Hola, Beto', isSender: true });
    let list = (await req('GET', '/api/chat/conversations', beto.token)).json();
    expect(list.find((c: { id: number }) => c.id === room).unread).toBe(1);
    const msgs = (await req('GET', `/api/chat/conversations/${room}/messages`, beto.token)).json();
    expect(msgs.items.map((m: { body: string }) => m.body)).toEqual(['Hola, Beto']);
    expect((await req('POST', `/api/chat/conversations/${room}/read`, beto.token)).statusCode).toBe(204);
    list = (await req('GET', '/api/chat/conversations', beto.token)).json();
    expect(list.find((c: { id: number }) => c.id === room).unread).toBe(0);
  });

  it('refuses a message over the size limit, an empty one, and a conversation the user is not in', async () => {
    const long = await req('POST', `/api/chat/conversations/${room}/messages`, ana.token, {
      body: 'x'.repeat(CHAT_MAX_MESSAGE + 1),
    });
    expect(long.statusCode).toBe(400);
    expect(JSON.stringify(long.json())).toContain(`máximo ${CHAT_MAX_MESSAGE} caracteres`);
    expect((await req('POST', `/api/chat/conversations/${room}/messages`, ana.token, { body: '   ' })).statusCode).toBe(400);
    const outsider = await req('POST', `/api/chat/conversations/${room}/messages`, carla.token, { body: 'Hola' });
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json().error.message).toMatch(/no es miembro/);
    expect((await req('GET', `/api/chat/conversations/${room}/messages`, carla.token)).statusCode).toBe(404);
  });

  it('keeps attachments in the documents storage, for members only', async () => {
    const boundary = 'b0undary';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="nota.txt"\r\nContent-Type: text/plain\r\n\r\nActa de la reunión\r\n--${boundary}--\r\n`;
    const up = await t.request({
      method: 'POST',
      url: `/api/chat/conversations/${room}/attachments`,
      token: ana.token,
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(up.statusCode, up.body).toBe(201);
    const msg = up.json();
    expect(msg.attachment).toMatchObject({ name: 'nota.txt', type: 'text/plain' });
    const file = await req('GET', `/api/chat/messages/${msg.id}/attachment`, beto.token);
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('Acta de la reunión');
    expect((await req('GET', `/api/chat/messages/${msg.id}/attachment`, carla.token)).statusCode).toBe(404);
    const files = (await req('GET', '/app/attachementsData', beto.token)).json();
    expect(files.some((f: { fileName: string }) => f.fileName === 'nota.txt')).toBe(true);
  });

  it('bookmarks messages per user and sets presence', async () => {
    const msgs = (await req('GET', `/api/chat/conversations/${room}/messages`, beto.token)).json();
    const id = msgs.items[0].id;
    expect((await req('PUT', `/api/chat/messages/${id}/bookmark`, beto.token)).json().bookmarked).toBe(true);
    expect((await req('GET', '/api/chat/bookmarks', beto.token)).json().map((m: { id: number }) => m.id)).toEqual([id]);
    expect((await req('GET', '/api/chat/bookmarks', ana.token)).json()).toEqual([]);
    expect((await req('PUT', `/api/chat/messages/${id}/bookmark`, carla.token)).statusCode).toBe(404);
    expect((await req('PUT', '/api/chat/presence', ana.token, { status: 'away' })).json()).toEqual({ status: 'away' });
    const contacts = (await req('GET', '/api/chat/contacts', beto.token)).json();
    expect(contacts.find((c: { roomId: number | null }) => c.roomId === room).status).toBe('away');
    expect((await req('PUT', '/api/chat/presence', ana.token, { status: 'busy' })).statusCode).toBe(400);
  });

  it('delivers a message live to the other member through the event stream', async () => {
    const controller = new AbortController();
    const res = await fetch(`${await listening()}/api/chat/stream`, {
      headers: { authorization: `Bearer ${beto.token}` },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    // The headers every answer carries, on the hijacked stream too.
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('event: ready')) text += (await reader.read()).value ?? '';
    const sent = (await req('POST', `/api/chat/conversations/${room}/messages`, ana.token, { body: 'en vivo' })).json();
    while (!text.includes('event: message')) text += (await reader.read()).value ?? '';
    expect(text).toContain(`"messageId":${sent.id}`);
    controller.abort();
  });

  it(`holds at most ${STREAMS} open streams per user: 429 beyond, a place given back when a client leaves`, async () => {
    const open = [];
    for (let i = 0; i < STREAMS; i++) open.push(await openStream(ana.token));
    expect(open.map((o) => o.res.status)).toEqual(Array(STREAMS).fill(200));
    const over = await openStream(ana.token);
    expect(over.res.status).toBe(429);
    expect(over.res.headers.get('retry-after')).toBe('5');
    expect(((await over.res.json()) as { error: { message: string } }).error.message).toBe(
      `Tiene ${STREAMS} conexiones en vivo abiertas (pestañas o ventanas), el máximo por usuario. Cierre alguna e intente de nuevo.`,
    );
    // Another user's streams are theirs.
    const other = await openStream(beto.token);
    expect(other.res.status).toBe(200);
    other.close();
    // A tab closed: its place comes back (once the server sees the connection go).
    open.shift()!.close();
    let again = await openStream(ana.token);
    for (const end = Date.now() + 10_000; again.res.status === 429 && Date.now() < end; ) {
      await new Promise((r) => setTimeout(r, 50));
      again = await openStream(ana.token);
    }
    expect(again.res.status).toBe(200);
    open.push(again);
    // Every one closed: all the places come back.
    for (const o of open) o.close();
    const reopened = [];
    for (const end = Date.now() + 10_000; reopened.length < STREAMS && Date.now() < end; ) {
      const o = await openStream(ana.token);
      if (o.res.status === 200) reopened.push(o);
      else await new Promise((r) => setTimeout(r, 50));
    }
    expect(reopened).toHaveLength(STREAMS);
    expect((await openStream(ana.token)).res.status).toBe(429);
    for (const o of reopened) o.close();
  });

  it('seeds the channels with every active user and answers the spec chat slices', async () => {
    const channels = (await req('GET', '/app/channnellist', ana.token)).json();
    expect(channels.map((c: { name: string }) => c.name).sort()).toEqual(['General', 'Soporte']);
    const direct = (await req('GET', '/app/chatData', ana.token)).json();
    expect(direct[0]).toMatchObject({ id: room });
    const contacts = (await req('GET', '/app/chatContactData', ana.token)).json();
    expect(contacts.length).toBeGreaterThan(0);
    expect(contacts[0].contacts.length).toBeGreaterThan(0);
    expect(Array.isArray((await req('GET', '/app/message', ana.token)).json())).toBe(true);
    expect(Array.isArray((await req('GET', '/app/bookmarkData', beto.token)).json())).toBe(true);
  });
});
