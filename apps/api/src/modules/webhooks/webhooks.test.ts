/**
 * Issue 30, signed webhooks: a receiver on loopback gets a correctly signed, timestamped delivery for a
 * planilla's approval (the issue's "Done when"); a receiver answering 500 then 200 is retried and the delivery
 * SENT once; «Reenviar» and «Probar» send again; an endpoint of entity B never receives A's events; an entity's
 * administrator reaches only its own endpoints and deliveries (404 otherwise); a bad URL is a 400 naming «url»;
 * in production private addresses are refused.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Grant, guatemalaToday, periodOf, previousPeriod } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  delegates,
  entityRegions,
  regionDelegates,
  regions,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/schema/index.ts';
import { postWebhook, sendWebhookBatch } from '../../platform/webhook-dispatcher.ts';
import {
  checkWebhookUrl,
  configureWebhooks,
  enqueueWebhook,
  openWebhookSecret,
  sealWebhookSecret,
  webhookLookup,
} from '../../platform/webhooks.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { attachUserToEntity, contributorFixtures, newCui } from '../contributors/fixtures.ts';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let t: TestApp;
let admin: TestUser;
let operator: TestUser;
let adminA: TestUser;
let adminB: TestUser;
let delegate: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;
let server: Server;
let base: string;
let received: Received[] = [];
let answers: number[] = [];

const g = (scope: Grant['scope'], entries: [Grant['resource'], Grant['action'][]][]): Grant[] =>
  entries.flatMap(([resource, actions]) => actions.map((action) => ({ resource, action, scope })));
const webhookAdmin = g('ENTITY', [['webhooks', ['READ', 'CREATE', 'UPDATE', 'EXPORT']]]);

const req = (token: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
  t.request({ method, url, token, ...(payload === undefined ? {} : { payload: payload as object }) });

/** Sends what is due (no back-off between attempts). */
const dispatch = () => sendWebhookBatch(t.database.db, { baseDelayMs: 0, maxDelayMs: 0, maxAttempts: 3 });

async function createEndpoint(token: string, over: Record<string, unknown>) {
  const r = await req(token, 'POST', '/api/webhooks', {
    name: 'Sistema de nómina',
    entityId: fx.entityA.id,
    url: `${base}/a`,
    events: ['planilla.validated', 'planilla.observed', 'planilla.approved', 'order.issued', 'payment.registered'],
    ...over,
  });
  return r;
}

const verify = (secret: string, r: Received) => {
  const ts = String(r.headers['x-aporta-timestamp']);
  const expected = `sha256=${createHmac('sha256', secret).update(`${ts}.${r.body}`).digest('hex')}`;
  return r.headers['x-aporta-signature'] === expected && Math.abs(Date.now() / 1000 - Number(ts)) < 300;
};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  admin = await t.createUser({ system: true });
  fx = await contributorFixtures(db);
  operator = await t.createUser({ grants: g('ENTITY', [['planillas', ['READ', 'CREATE', 'UPDATE']]]) });
  await attachUserToEntity(db, operator.id, fx.entityA.id);
  adminA = await t.createUser({ grants: webhookAdmin });
  await attachUserToEntity(db, adminA.id, fx.entityA.id);
  adminB = await t.createUser({ grants: webhookAdmin });
  await attachUserToEntity(db, adminB.id, fx.entityB.id);
  const [region] = await db
    .insert(regions)
    .values({ code: `R-WH-${Date.now()}`, name: 'Región webhooks' })
    .returning();
  await db.insert(entityRegions).values({ entityId: fx.entityA.id, regionId: region.id });
  delegate = await t.createUser({ grants: g('REGION', [['planillas', ['READ', 'APPROVE']]]) });
  const [d] = await db.insert(delegates).values({ userId: delegate.id, cui: newCui() }).returning();
  await db.insert(regionDelegates).values({ regionId: region.id, delegateId: d.id });
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = answers.shift() ?? 200;
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'recibido' : 'error del receptor');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await t.app.jobs.start();
}, 120_000);
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t.close();
});
beforeEach(() => {
  received = [];
  answers = [];
});

let secretA = '';
let endpointA = 0;
let endpointB = 0;
let secretAll = '';

describe('registering endpoints', () => {
  it('an entity administrator registers one for its entity; the secret is answered once and stored sealed or marked', async () => {
    const r = await createEndpoint(adminA.token, {});
    expect(r.statusCode, r.body).toBe(201);
    const body = r.json();
    secretA = body.secret;
    endpointA = body.endpoint.id;
    expect(secretA).toMatch(/^whsec_/);
    expect(body.endpoint).toMatchObject({ entityId: fx.entityA.id, isActive: true, url: `${base}/a` });
    expect(JSON.stringify(body.endpoint)).not.toContain(secretA);
    const [row] = await t.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointA));
    expect(row.secret).toMatch(/^(enc|raw):/);
    const again = await req(adminA.token, 'GET', `/api/webhooks/${endpointA}`);
    expect(again.body).not.toContain(secretA);

    const b = await createEndpoint(adminB.token, { entityId: fx.entityB.id, url: `${base}/b` });
    expect(b.statusCode, b.body).toBe(201);
    endpointB = b.json().endpoint.id;
    const all = await createEndpoint(admin.token, { entityId: null, url: `${base}/all`, events: ['planilla.approved'] });
    expect(all.statusCode, all.body).toBe(201);
    secretAll = all.json().secret;
  });

  it('a bad URL is a 400 naming «url»; http only to loopback; unknown events refused', async () => {
    for (const url of ['ftp://example.com/x', 'no es url', 'http://example.com/hook', 'https://user:pw@example.com/']) {
      const r = await createEndpoint(adminA.token, { url });
      expect(r.statusCode, `${url}: ${r.body}`).toBe(400);
      expect(r.json().error.details.map((d: { path: string }) => d.path)).toContain('url');
      expect(r.json().error.details[0].key).toMatch(/^webhooks\./);
    }
    const ev = await createEndpoint(adminA.token, { events: ['planilla.borrada'] });
    expect(ev.statusCode).toBe(400);
    const none = await createEndpoint(adminA.token, { events: [] });
    expect(none.statusCode).toBe(400);
    // No entity picked (the form sends 0) or not an id: the field says what to pick.
    for (const entityId of [0, 'A', -3]) {
      const r = await createEndpoint(adminA.token, { entityId });
      expect(r.statusCode).toBe(400);
      expect(r.json().error.details).toContainEqual(
        expect.objectContaining({
          path: 'entityId',
          message: 'Entidad: elija una entidad de la lista o «Toda la institución».',
        }),
      );
    }
  });

  it('an entity administrator reaches only its own endpoints: 404 for another entity, 403 institution-wide', async () => {
    expect((await req(adminB.token, 'GET', `/api/webhooks/${endpointA}`)).statusCode).toBe(404);
    expect((await req(adminB.token, 'PATCH', `/api/webhooks/${endpointA}`, { isActive: false })).statusCode).toBe(404);
    expect((await req(adminB.token, 'POST', `/api/webhooks/${endpointA}/ping`)).statusCode).toBe(404);
    expect((await createEndpoint(adminB.token, { entityId: fx.entityA.id })).statusCode).toBe(404);
    expect((await createEndpoint(adminB.token, { entityId: null })).statusCode).toBe(403);
    const list = await req(adminB.token, 'GET', '/api/webhooks?pageSize=100');
    expect(list.json().items.map((e: { id: number }) => e.id)).toEqual([endpointB]);
    const opts = await req(adminB.token, 'GET', '/api/webhooks/entities');
    expect(opts.json()).toMatchObject({ institutionWide: false, entities: [{ id: fx.entityB.id }] });
    const adminList = await req(admin.token, 'GET', '/api/webhooks?pageSize=100');
    expect(adminList.json().items).toHaveLength(3);
    expect((await req(operator.token, 'GET', '/api/webhooks')).statusCode).toBe(403);
  });
});

describe('deliveries', () => {
  it('the approval of A’s planilla reaches A’s receiver correctly signed and timestamped, never B’s', async () => {
    const period = previousPeriod(periodOf(guatemalaToday()));
    const p = await req(operator.token, 'POST', '/api/planillas', { entityId: fx.entityA.id, period });
    expect(p.statusCode, p.body).toBe(201);
    const id = p.json().id as number;
    const l = await req(operator.token, 'POST', `/api/planillas/${id}/lines`, {
      cui: newCui(),
      fullName: 'Ana López',
      budgetLine: '011',
      salary: '10000.00',
    });
    expect(l.statusCode, l.body).toBe(201);
    expect((await req(operator.token, 'POST', `/api/planillas/${id}/transitions`, { to: 'ENVIANDO' })).statusCode).toBe(200);
    for (let tries = 0; (await req(operator.token, 'GET', `/api/planillas/${id}`)).json().state !== 'ENVIADA'; tries++) {
      expect(tries, 'the submit job did not send the planilla').toBeLessThan(1200);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await req(delegate.token, 'POST', `/api/planillas/${id}/transitions`, { to: 'EN_REVISION' })).statusCode).toBe(200);
    const ok = await req(delegate.token, 'POST', `/api/planillas/${id}/transitions`, { to: 'APROBADA' });
    expect(ok.statusCode, ok.body).toBe(200);

    const r = await dispatch();
    expect(r).toMatchObject({ claimed: 5, sent: 5, failed: 0 });
    const deliveries = await t.database.db.select().from(webhookDeliveries).orderBy(webhookDeliveries.id);
    // A's endpoint: validated, approved and the two orders issued; the institution's: approved; B's: nothing.
    const ofA = deliveries.filter((d) => d.endpointId === endpointA);
    expect(ofA.map((d) => d.event).sort()).toEqual(['order.issued', 'order.issued', 'planilla.approved', 'planilla.validated']);
    expect(ofA.every((d) => d.state === 'SENT' && d.responseStatus === 200 && d.responseBody === 'recibido')).toBe(true);
    expect(deliveries.filter((d) => d.endpointId === endpointB)).toHaveLength(0);
    expect(deliveries.filter((d) => d.endpointId !== endpointA && d.endpointId !== endpointB).map((d) => d.event)).toEqual([
      'planilla.approved',
    ]);

    const approval = received.find((x) => x.headers['x-aporta-event'] === 'planilla.approved' && verify(secretA, x));
    expect(approval, 'a correctly signed approval reached A').toBeDefined();
    const payload = JSON.parse(approval!.body);
    const delivery = ofA.find((d) => d.event === 'planilla.approved')!;
    expect(approval!.headers['x-aporta-delivery']).toBe(String(delivery.id));
    expect(approval!.headers['content-type']).toBe('application/json');
    expect(payload).toMatchObject({
      event: 'planilla.approved',
      id: String(delivery.id),
      data: {
        planillaId: id,
        entityId: fx.entityA.id,
        period,
        state: 'APROBADA',
        totalEmployee: expect.stringMatching(/^\d+\.\d{2}$/),
      },
    });
    expect(new Date(payload.occurred_at).toISOString()).toBe(payload.occurred_at);
    expect(approval!.body).not.toContain('Ana López');
    // The institution's copy is signed with its own secret, not A's.
    const inst = received.filter((x) => x.headers['x-aporta-event'] === 'planilla.approved' && !verify(secretA, x));
    expect(inst).toHaveLength(1);
    expect(verify(secretAll, inst[0])).toBe(true);
    // A tampered body no longer verifies.
    expect(verify(secretA, { ...approval!, body: approval!.body.replace('APROBADA', 'OBSERVADA') })).toBe(false);
    // Nothing twice: a second pass has nothing to send.
    expect((await dispatch()).claimed).toBe(0);
  }, 120_000);

  it('a receiver answering 500 then 200 is retried and the delivery SENT once', async () => {
    answers = [500, 200];
    const n = await t.database.db.transaction((tx) =>
      enqueueWebhook(tx, 'payment.registered', fx.entityA.id, { record: 'retry-1', data: { paymentId: 1, amount: '12.50' } }),
    );
    expect(n).toBe(1);
    const first = await dispatch();
    expect(first).toMatchObject({ claimed: 1, retried: 1, sent: 0 });
    let [d] = await t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.recordKey, 'retry-1'));
    expect(d).toMatchObject({ state: 'PENDING', attempts: 1, responseStatus: 500, lastError: 'HTTP 500' });
    const second = await dispatch();
    expect(second).toMatchObject({ claimed: 1, sent: 1 });
    [d] = await t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.recordKey, 'retry-1'));
    expect(d).toMatchObject({ state: 'SENT', attempts: 2, responseStatus: 200, lastError: null });
    expect(received).toHaveLength(2);
    expect(received[0].headers['x-aporta-delivery']).toBe(received[1].headers['x-aporta-delivery']);
    expect(received.every((x) => verify(secretA, x))).toBe(true);
    expect((await dispatch()).claimed).toBe(0);
    // The same record is queued once per endpoint and event.
    const again = await t.database.db.transaction((tx) =>
      enqueueWebhook(tx, 'payment.registered', fx.entityA.id, { record: 'retry-1', data: { paymentId: 1 } }),
    );
    expect(again).toBe(0);
  });

  it('a receiver that keeps failing: FAILED after the attempts, with the answer kept; «Reenviar» sends it again', async () => {
    answers = [503, 503, 503];
    await t.database.db.transaction((tx) =>
      enqueueWebhook(tx, 'order.issued', fx.entityA.id, { record: 'fail-1', data: { orderId: 9, reference: '1' } }),
    );
    for (let i = 0; i < 3; i++) await dispatch();
    const [d] = await t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.recordKey, 'fail-1'));
    expect(d).toMatchObject({ state: 'FAILED', attempts: 3, responseStatus: 503, responseBody: 'error del receptor' });

    const list = await req(adminA.token, 'GET', `/api/webhook-deliveries?state=FAILED&endpointId=${endpointA}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items.map((x: { id: number }) => x.id)).toContain(d.id);
    // Another entity's administrator: 404, and not in its list.
    expect((await req(adminB.token, 'POST', `/api/webhook-deliveries/${d.id}/resend`)).statusCode).toBe(404);
    expect((await req(adminB.token, 'GET', `/api/webhook-deliveries/${d.id}`)).statusCode).toBe(404);
    expect((await req(adminB.token, 'GET', '/api/webhook-deliveries?pageSize=200')).json().items).toHaveLength(0);

    const resent = await req(adminA.token, 'POST', `/api/webhook-deliveries/${d.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({ state: 'PENDING', attempts: 0 });
    received = [];
    expect((await dispatch()).sent).toBe(1);
    expect(received).toHaveLength(1);
    expect(received[0].headers['x-aporta-delivery']).toBe(String(d.id));
    expect(verify(secretA, received[0])).toBe(true);
    const after = await req(adminA.token, 'GET', `/api/webhook-deliveries/${d.id}`);
    expect(after.json()).toMatchObject({ state: 'SENT', responseStatus: 200 });
  });

  it('«Probar» queues a ping; a deactivated endpoint gets nothing and cannot be tested', async () => {
    const ping = await req(adminA.token, 'POST', `/api/webhooks/${endpointA}/ping`);
    expect(ping.statusCode, ping.body).toBe(200);
    expect(ping.json()).toMatchObject({ event: 'ping', state: 'PENDING', endpointId: endpointA });
    await dispatch();
    expect(received.map((x) => x.headers['x-aporta-event'])).toEqual(['ping']);
    expect(verify(secretA, received[0])).toBe(true);

    const off = await req(adminA.token, 'PATCH', `/api/webhooks/${endpointA}`, { isActive: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().isActive).toBe(false);
    expect((await req(adminA.token, 'POST', `/api/webhooks/${endpointA}/ping`)).statusCode).toBe(409);
    const n = await t.database.db.transaction((tx) =>
      enqueueWebhook(tx, 'order.issued', fx.entityA.id, { record: 'off-1', data: { orderId: 10 } }),
    );
    // Only the institution-wide endpoint would take it, and it listens to planilla.approved only.
    expect(n).toBe(0);
    const bad = await req(adminA.token, 'PATCH', `/api/webhooks/${endpointA}`, { url: 'http://example.com/x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].path).toBe('url');
    const on = await req(adminA.token, 'PATCH', `/api/webhooks/${endpointA}`, { isActive: true, name: 'Nómina 2' });
    expect(on.json()).toMatchObject({ isActive: true, name: 'Nómina 2' });
  });
});

describe('the dispatcher of the application', () => {
  it('started, it sends a delivery shortly after it is queued, without a poll', async () => {
    await t.app.webhooks.start();
    try {
      const ping = await req(adminA.token, 'POST', `/api/webhooks/${endpointA}/ping`);
      expect(ping.statusCode, ping.body).toBe(200);
      for (let tries = 0; received.length === 0; tries++) {
        expect(tries, 'the dispatcher did not send the ping').toBeLessThan(100);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(received[0].headers['x-aporta-delivery']).toBe(String(ping.json().id));
      expect(verify(secretA, received[0])).toBe(true);
    } finally {
      await t.app.webhooks.stop();
    }
  });
});

describe('where a webhook may point', () => {
  it('the POST goes through the checked lookup, keeps 2 KB of the answer and gives up at the timeout', async () => {
    const big = createServer((_q, r) => r.writeHead(200).end('x'.repeat(5000)));
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => big.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (s: Server) => (s.address() as AddressInfo).port;
    try {
      const a = await postWebhook({ url: `http://localhost:${port(big)}/h`, headers: {}, body: '{}', timeoutMs: 2000 });
      expect(a).toMatchObject({ status: 200 });
      expect(a.body).toHaveLength(2048);
      const t0 = Date.now();
      await expect(
        postWebhook({ url: `http://127.0.0.1:${port(silent)}/`, headers: {}, body: '{}', timeoutMs: 300 }),
      ).rejects.toThrow(/Tiempo de espera/);
      expect(Date.now() - t0).toBeLessThan(2000);
      configureWebhooks({ production: true, allowPrivate: false });
      // A name that resolves to loopback, and a literal private address, are refused at connection time.
      await expect(
        postWebhook({ url: `http://localhost:${port(big)}/h`, headers: {}, body: '{}', timeoutMs: 2000 }),
      ).rejects.toThrow();
      await expect(
        postWebhook({ url: `http://127.0.0.1:${port(big)}/h`, headers: {}, body: '{}', timeoutMs: 2000 }),
      ).rejects.toThrow();
    } finally {
      configureWebhooks({ production: false, allowPrivate: false });
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      await new Promise<void>((resolve) => big.close(() => resolve()));
    }
  });

  it('the secret is sealed with SIGNING_MASTER_KEY when configured, and read back only with it', () => {
    configureWebhooks({ production: false, allowPrivate: false, masterKey: 'k'.repeat(40) });
    try {
      const sealed = sealWebhookSecret('whsec_abc');
      expect(sealed).toMatch(/^enc:/);
      expect(sealed).not.toContain('whsec_abc');
      expect(openWebhookSecret(sealed)).toBe('whsec_abc');
      expect(openWebhookSecret('raw:whsec_old')).toBe('whsec_old');
      configureWebhooks({ production: false, allowPrivate: false, masterKey: 'otra'.repeat(10) });
      expect(() => openWebhookSecret(sealed)).toThrow();
    } finally {
      configureWebhooks({ production: false, allowPrivate: false });
    }
    expect(sealWebhookSecret('whsec_abc')).toBe('raw:whsec_abc');
  });

  it('in production: https only, private addresses refused unless allowed', async () => {
    configureWebhooks({ production: true, allowPrivate: false });
    try {
      expect(() => checkWebhookUrl('http://127.0.0.1:8080/x')).toThrow();
      expect(() => checkWebhookUrl('https://10.1.2.3/x')).toThrow();
      expect(() => checkWebhookUrl('https://[::1]/x')).toThrow();
      expect(() => checkWebhookUrl('https://169.254.169.254/latest')).toThrow();
      expect(() => checkWebhookUrl('https://localhost/x')).toThrow();
      expect(checkWebhookUrl('https://receptor.example.com/hook')).toBe('https://receptor.example.com/hook');
      const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => webhookLookup('localhost', {}, (e) => resolve(e)));
      expect(err?.code).toBe('EPRIVATE');
      configureWebhooks({ production: true, allowPrivate: true });
      expect(checkWebhookUrl('https://10.1.2.3/x')).toBe('https://10.1.2.3/x');
      expect(() => checkWebhookUrl('http://10.1.2.3/x')).toThrow();
    } finally {
      configureWebhooks({ production: false, allowPrivate: false });
    }
  });
});
