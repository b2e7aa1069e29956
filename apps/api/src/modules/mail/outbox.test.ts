import { MAIL_PREFERENCE_EVENTS } from '@aporta/domain';
import { and, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mailDigestItems, mailOutbox, mailPreferences } from '../../db/schema/index.ts';
import { systemContext } from '../../platform/context.ts';
import { enqueueMail } from '../../platform/mail.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { sendDailyDigests } from './digest.ts';

let t: TestApp;
let admin: TestUser;
let reader: TestUser;
let nobody: TestUser;
const ids: Record<string, number> = {};

const today = () => new Date(Date.now() - 6 * 3_600_000).toISOString().slice(0, 10);
const get = (url: string, token = admin.token) => t.request({ method: 'GET', url, token });
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  reader = await t.createUser({ grants: [{ resource: 'mail', action: 'READ', scope: 'ALL' }] });
  nobody = await t.createUser();
  await db().transaction(async (tx) => {
    ids.observed = (await enqueueMail(tx, {
      event: 'planilla.observed',
      to: ['Tesoreria@Mixco.example'],
      params: { entity: 'Municipalidad de Mixco', period: '2026-10' },
      link: '/planilla/12',
    })) as number;
    ids.issued = (await enqueueMail(tx, {
      event: 'order.issued',
      to: ['pagos@villanueva.example', 'conta@villanueva.example'],
      language: 'en',
      params: { entity: 'Municipalidad de Villa Nueva', reference: 'OP-2026-000777', amount: 1_234_500n, due: '2026-11-30' },
      link: '/ordenes-pago/7',
    })) as number;
    ids.failed = (await enqueueMail(tx, {
      event: 'job.finished',
      to: ['operador@aporta.example'],
      params: { job: 'Exportación de afiliados' },
    })) as number;
  });
  // The dispatcher gave up on one of them.
  await db()
    .update(mailOutbox)
    .set({ state: 'FAILED', attempts: 8, lastError: '550 5.1.1 Mailbox unavailable' })
    .where(eq(mailOutbox.id, ids.failed));
});
afterAll(() => t.close());

describe('«Correo saliente»: who may see it', () => {
  it('asks for a session and the mail permission; retrying asks for UPDATE', async () => {
    expect((await t.request({ method: 'GET', url: '/api/mail/outbox' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/mail/preferences' })).statusCode).toBe(401);
    for (const url of [
      '/api/mail/outbox',
      '/api/mail/outbox/status',
      `/api/mail/outbox/${ids.observed}`,
      '/api/mail/templates/preview?event=job.finished',
    ]) {
      expect((await get(url, nobody.token)).statusCode, url).toBe(403);
      expect((await get(url, reader.token)).statusCode, url).toBe(200);
    }
    expect((await get('/api/mail/outbox/export', reader.token)).statusCode).toBe(403);
    const retry = await t.request({ method: 'POST', url: `/api/mail/outbox/${ids.failed}/retry`, token: reader.token });
    expect(retry.statusCode).toBe(403);
  });
});

describe('«Correo saliente»: list, filters, detail', () => {
  it('lists newest first and filters by state, event, recipient, date and search', async () => {
    const all = (await get('/api/mail/outbox')).json();
    expect(all.items.map((r: { id: number }) => r.id)).toEqual([ids.failed, ids.issued, ids.observed]);
    expect(all.items[2]).toMatchObject({
      event: 'planilla.observed',
      to: ['tesoreria@mixco.example'],
      state: 'PENDING',
      digestId: null,
    });
    expect(all.items[2]).not.toHaveProperty('html');

    const ofState = (await get('/api/mail/outbox?state=FAILED')).json();
    expect(ofState.items.map((r: { id: number }) => r.id)).toEqual([ids.failed]);
    expect(ofState.items[0]).toMatchObject({ attempts: 8, lastError: '550 5.1.1 Mailbox unavailable' });
    expect((await get('/api/mail/outbox?event=order.issued')).json().total).toBe(1);
    expect((await get('/api/mail/outbox?recipient=CONTA@villa')).json().items[0].id).toBe(ids.issued);
    expect((await get('/api/mail/outbox?q=OP-2026-000777')).json().items[0].id).toBe(ids.issued);
    expect((await get(`/api/mail/outbox?from=${today()}&to=${today()}`)).json().total).toBe(3);
    expect((await get('/api/mail/outbox?to=2000-01-01')).json().total).toBe(0);
    expect((await get('/api/mail/outbox?pageSize=1')).json()).toMatchObject({ total: 3, next: String(ids.failed) });
  });

  it('refuses bad filters with a 400 naming the field', async () => {
    for (const [q, field] of [
      ['state=LOST', 'consulta.state'],
      ['event=planilla.lost', 'consulta.event'],
      ['from=31/12/2026', 'consulta.from'],
      [`recipient=${'x'.repeat(201)}`, 'consulta.recipient'],
    ]) {
      const res = await get(`/api/mail/outbox?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.details.map((d: { path: string }) => d.path)).toContain(field);
      expect(res.json().error.details[0].key).toBeTruthy();
    }
  });

  it('shows one message with its headers, text, HTML and attempts; 404 for none, 400 for a bad id', async () => {
    const m = (await get(`/api/mail/outbox/${ids.issued}`)).json();
    expect(m).toMatchObject({
      id: ids.issued,
      event: 'order.issued',
      language: 'en',
      to: ['pagos@villanueva.example', 'conta@villanueva.example'],
      link: '/ordenes-pago/7',
      attachments: [],
      digestItems: [],
    });
    expect(m.subject).toContain('OP-2026-000777');
    expect(m.text).toContain('/ordenes-pago/7');
    expect(m.html).toMatch(/^<!doctype html>/);
    const none = await get('/api/mail/outbox/2147483647');
    expect(none.statusCode).toBe(404);
    expect(none.json().error.key).toBe('mail.outboxNotFound');
    expect((await get('/api/mail/outbox/abc')).statusCode).toBe(400);
  });

  it('exports what is filtered', async () => {
    const res = await get('/api/mail/outbox/export?format=xlsx&event=order.issued');
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as never);
    const sheet = wb.worksheets[0];
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(2).getCell(3).value).toBe('Orden de pago emitida');
    expect(sheet.getRow(2).getCell(4).value).toBe('pagos@villanueva.example, conta@villanueva.example');
  });

  it('counts per state and says the server keeps mail without SMTP_URL', async () => {
    const s = (await get('/api/mail/outbox/status')).json();
    expect(s.sending).toBe(false);
    expect(s.sender).toContain('no-responder@aporta.local');
    expect(s.counts).toMatchObject({ PENDING: 2, FAILED: 1, SENT: 0, SENDING: 0 });
  });
});

describe('«Reintentar»', () => {
  it('puts a FAILED message back to PENDING, with what it had in the audit trail; only once', async () => {
    const res = await t.request({ method: 'POST', url: `/api/mail/outbox/${ids.failed}/retry`, token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ state: 'PENDING', attempts: 0, lastError: null });
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'mail_outbox'), eq(auditLog.entityId, String(ids.failed))));
    expect(audit).toMatchObject({
      action: 'MAIL_RETRY',
      actorEmail: admin.email,
      before: { state: 'FAILED', attempts: 8, lastError: '550 5.1.1 Mailbox unavailable' },
      after: { state: 'PENDING', attempts: 0 },
    });
    const again = await t.request({ method: 'POST', url: `/api/mail/outbox/${ids.failed}/retry`, token: admin.token });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.key).toBe('mail.retryNotFailed');
    const none = await t.request({ method: 'POST', url: '/api/mail/outbox/2147483647/retry', token: admin.token });
    expect(none.statusCode).toBe(404);
  });
});

describe('template preview', () => {
  it('renders an event in a language with the example data', async () => {
    const es = (await get('/api/mail/templates/preview?event=order.issued&language=es')).json();
    expect(es).toMatchObject({ event: 'order.issued', language: 'es' });
    expect(es.subject).toContain('OP-2026-000123');
    expect(es.text).toContain('Q 123,456.78');
    expect(es.html).toContain('lang="es"');
    const ar = (await get('/api/mail/templates/preview?event=order.issued&language=ar')).json();
    expect(ar.html).toContain('dir="rtl"');
    expect(ar.subject).not.toBe(es.subject);
    const bad = await get('/api/mail/templates/preview?event=nope&language=xx');
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .error.details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['consulta.event', 'consulta.language']);
  });
});

describe('my mail preferences', () => {
  it('reads the defaults and the events that concern me', async () => {
    const clerk = await t.createUser({ grants: [{ resource: 'planillas', action: 'READ', scope: 'ALL' }] });
    const mine = (await get('/api/mail/preferences', clerk.token)).json();
    expect(mine.language).toBe('es');
    expect(Object.keys(mine.events).sort()).toEqual([...MAIL_PREFERENCE_EVENTS].sort());
    expect(Object.values(mine.events).every((v) => v === 'immediate')).toBe(true);
    expect(mine.concerning).toEqual([
      'planilla.observed',
      'planilla.approved',
      'planilla.returned',
      'order.issued',
      'order.dueSoon',
      'payment.registered',
      'job.finished',
    ]);
    expect((await get('/api/mail/preferences', nobody.token)).json().concerning).toEqual(['job.finished']);
  });

  it('saves a round trip on the caller only, audited, and enqueueMail follows it', async () => {
    const u = await t.createUser();
    const other = await t.createUser();
    const put = await t.request({
      method: 'PUT',
      url: '/api/mail/preferences',
      token: u.token,
      payload: { language: 'fr', events: { 'planilla.observed': 'digest', 'job.finished': 'off' } },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({
      language: 'fr',
      events: { 'planilla.observed': 'digest', 'job.finished': 'off', 'order.issued': 'immediate' },
    });
    // Only what is named changes.
    await t.request({
      method: 'PUT',
      url: '/api/mail/preferences',
      token: u.token,
      payload: { events: { 'order.issued': 'digest' } },
    });
    const back = (await get('/api/mail/preferences', u.token)).json();
    expect(back).toMatchObject({
      language: 'fr',
      events: { 'planilla.observed': 'digest', 'job.finished': 'off', 'order.issued': 'digest' },
    });
    expect((await get('/api/mail/preferences', other.token)).json()).toMatchObject({
      language: 'es',
      events: { 'job.finished': 'immediate' },
    });
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'mail_preferences'), eq(auditLog.entityId, String(u.id))));
    expect(audit).toMatchObject({ action: 'MAIL_PREFERENCES', actorId: u.id });

    const off = await enqueueMail(db(), { event: 'job.finished', to: [u.email], userId: u.id, params: { job: 'X' } });
    expect(off).toBeNull();
    const digest = await enqueueMail(db(), {
      event: 'planilla.observed',
      to: [u.email],
      userId: u.id,
      params: { entity: 'Municipalidad de Mixco', period: '2026-10' },
    });
    const [row] = await db()
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.id, digest as number));
    expect(row).toMatchObject({ state: 'DIGEST', language: 'fr' });
  });

  it('refuses an unknown event, delivery, language or field with a 400 naming it', async () => {
    const cases: [unknown, string][] = [
      [{ events: { 'planilla.lost': 'digest' } }, 'events'],
      [{ events: { 'planilla.observed': 'weekly' } }, 'events.planilla.observed'],
      [{ events: { 'auth.passwordReset': 'off' } }, 'events'],
      [{ language: 'xx' }, 'language'],
      [{ colour: 'red' }, ''],
    ];
    for (const [payload, path] of cases) {
      const res = await t.request({
        method: 'PUT',
        url: '/api/mail/preferences',
        token: nobody.token,
        payload: payload as object,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const paths = res.json().error.details.map((d: { path: string }) => d.path);
      expect(
        paths.some((p: string) => p.startsWith(path)),
        `${JSON.stringify(payload)} → ${paths}`,
      ).toBe(true);
    }
    expect((await get('/api/mail/preferences', nobody.token)).json().events['planilla.observed']).toBe('immediate');
  });
});

describe('daily digest', () => {
  it('gathers a user’s DIGEST rows of the day into one message in their language, once', async () => {
    const u = await t.createUser();
    await t.request({
      method: 'PUT',
      url: '/api/mail/preferences',
      token: u.token,
      payload: { language: 'en', events: { 'planilla.observed': 'digest', 'order.issued': 'digest', 'job.finished': 'digest' } },
    });
    const queued: number[] = [];
    for (const [event, params] of [
      ['job.finished', { job: 'Exportación de planillas' }],
      ['planilla.observed', { entity: 'Municipalidad de Mixco', period: '2026-10' }],
      ['order.issued', { entity: 'Municipalidad de Mixco', reference: 'OP-2026-000900', amount: 500_000n, due: '2026-12-01' }],
      ['planilla.observed', { entity: 'Municipalidad de Amatitlán', period: '2026-09' }],
    ] as const) {
      queued.push((await enqueueMail(db(), { event, to: [u.email], userId: u.id, params, link: '/procesos' })) as number);
    }
    const ctx = systemContext(db());
    const first = await sendDailyDigests(ctx, today());
    expect(first.included).toBeGreaterThanOrEqual(4);
    const digests = await db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.userId, u.id), eq(mailOutbox.event, 'mail.digest')));
    expect(digests).toHaveLength(1);
    const d = digests[0];
    expect(d).toMatchObject({
      state: 'PENDING',
      to: [u.email.toLowerCase()],
      language: 'en',
      dedupeKey: `mail.digest:${today()}:u${u.id}`,
    });
    expect(d.subject).toMatch(/digest/i);
    for (const needle of ['Mixco', 'Amatitlán', 'OP-2026-000900', 'Exportación de planillas']) expect(d.text).toContain(needle);
    // Grouped by event, in the catalogue's order: planillas, then the order, then the job.
    expect(d.text.indexOf('Amatitlán')).toBeLessThan(d.text.indexOf('OP-2026-000900'));
    expect(d.text.indexOf('OP-2026-000900')).toBeLessThan(d.text.indexOf('Exportación de planillas'));
    expect(d.html).toContain('Amatitlán');
    expect(d.html).toMatch(/^<!doctype html>/);
    const items = await db().select().from(mailDigestItems).where(inArray(mailDigestItems.outboxId, queued));
    expect(items.map((i) => i.digestId)).toEqual([d.id, d.id, d.id, d.id]);

    // The detail of the digest lists what it carries; each carried row names its digest.
    const shown = (await get(`/api/mail/outbox/${d.id}`)).json();
    expect(shown.digestItems.map((i: { id: number }) => i.id)).toEqual(queued);
    expect((await get(`/api/mail/outbox/${queued[0]}`)).json()).toMatchObject({ state: 'DIGEST', digestId: d.id });

    // A second run sends nothing again.
    const second = await sendDailyDigests(ctx, today());
    expect(second).toMatchObject({ messages: 0, included: 0 });
    // A row queued after the day's digest waits for the next day's.
    const late = (await enqueueMail(db(), {
      event: 'job.finished',
      to: [u.email],
      userId: u.id,
      params: { job: 'Reporte tardío' },
    })) as number;
    expect((await sendDailyDigests(ctx, today())).messages).toBe(0);
    const tomorrow = new Date(Date.now() - 6 * 3_600_000 + 86_400_000).toISOString().slice(0, 10);
    const next = await sendDailyDigests(ctx, tomorrow);
    expect(next).toMatchObject({ messages: 1, included: 1 });
    const [lateItem] = await db().select().from(mailDigestItems).where(eq(mailDigestItems.outboxId, late));
    expect(lateItem.digestId).not.toBe(d.id);
  });

  it('leaves the rows of an inactive user waiting', async () => {
    const u = await t.createUser({ isActive: false });
    await db()
      .insert(mailPreferences)
      .values({ userId: u.id, language: 'es', events: { 'job.finished': 'digest' } });
    const id = (await enqueueMail(db(), { event: 'job.finished', to: [u.email], userId: u.id, params: { job: 'X' } })) as number;
    await sendDailyDigests(systemContext(db()), today());
    expect(await db().select().from(mailDigestItems).where(eq(mailDigestItems.outboxId, id))).toEqual([]);
  });
});

describe('with SMTP_URL', () => {
  it('says the server sends (never the address’s credentials)', async () => {
    const smtp = await createTestApp({
      SMTP_URL: 'smtp://usuario:clave-secreta@127.0.0.1:2',
      MAIL_FROM: 'Aporta <avisos@aporta.example>',
    });
    try {
      const a = await smtp.createUser({ grants: [{ resource: 'mail', action: 'READ', scope: 'ALL' }] });
      const res = await smtp.request({ method: 'GET', url: '/api/mail/outbox/status', token: a.token });
      expect(res.json()).toMatchObject({ sending: true, sender: 'Aporta <avisos@aporta.example>' });
      expect(res.body).not.toContain('clave-secreta');
    } finally {
      await smtp.close();
    }
  });
});

describe('«Correo saliente» never shows a password-reset link', () => {
  it('hides the token of the link in the text, the HTML and the link of the message', async () => {
    const target = await t.createUser({ email: 'olvido@aporta.example' });
    const asked = await t.request({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: target.email } });
    expect(asked.statusCode, asked.body).toBe(202);
    const [row] = await db()
      .select({ id: mailOutbox.id, text: mailOutbox.text })
      .from(mailOutbox)
      .where(eq(mailOutbox.event, 'auth.passwordReset'));
    // The message itself carries the token (it must reach its owner)…
    const token = /token=([^&\s"'<>]+)/.exec(row.text)?.[1];
    expect(token && token !== '[oculto]').toBeTruthy();
    // …but whoever reads the outbox never sees it.
    const shown = await get(`/api/mail/outbox/${row.id}`, reader.token);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).not.toContain(token as string);
    const m = shown.json();
    for (const part of [m.text, m.html, m.link]) expect(part).toContain('token=[oculto]');
  });
});
