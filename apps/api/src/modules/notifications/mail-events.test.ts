/**
 * Issue 29's events, end to end: each change writes the right mail (mail_outbox) to the right people only — a
 * user of another entity gets nothing —, attachments are PDFs, the daily reminders queue nothing twice, and a
 * user's 'off' is respected.
 */
import {
  addBusinessDays,
  addDays,
  type BusinessCalendar,
  type Grant,
  guatemalaToday,
  isBusinessDay,
  periodOf,
  previousPeriod,
} from '@aporta/domain';
import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contributors,
  delegates,
  entityRegions,
  jobs,
  mailOutbox,
  mailPreferences,
  paymentOrders,
  pensions,
  regionDelegates,
  regions,
  signingEvents,
  signingRequests,
  signingSigners,
} from '../../db/schema/index.ts';
import { putBlob } from '../../platform/blobs.ts';
import { systemContext } from '../../platform/context.ts';
import { defineJob } from '../../platform/jobs.ts';
import { mailAttachmentRenderer } from '../../platform/mail.ts';
import { createMailTransport, sendOutboxBatch } from '../../platform/mail-dispatcher.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { startTestSmtp } from '../../test/smtp.ts';
import { detectAgreements } from '../agreements/detection.ts';
import { sendInstalmentReminders } from '../agreements/reminders.ts';
import { attachUserToEntity, contributorFixtures, newCui } from '../contributors/fixtures.ts';
import { notifyJobEnded } from '../jobs/mail-events.ts';
import { insertOrder } from '../payments/orders.ts';
import { sendOrderReminders } from '../payments/reminders.ts';
import { sendSurvivalNotices } from '../pensions/reminders.ts';
import { settingsAt } from '../settings/service.ts';
import { notifyWaitingSigner, sendSigningReminders } from '../signing/mail-events.ts';

let t: TestApp;
let admin: TestUser;
let operator: TestUser;
let payer: TestUser;
let payerOff: TestUser;
let operatorB: TestUser;
let delegate: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;

const today = guatemalaToday();
const last = previousPeriod(periodOf(today));
const OFFICE = 'CORREO';
let keyN = 0;
const key = () => `mail-${Date.now()}-${++keyN}`;

const g = (scope: Grant['scope'], entries: [Grant['resource'], Grant['action'][]][]): Grant[] =>
  entries.flatMap(([resource, actions]) => actions.map((action) => ({ resource, action, scope })));
const clerkGrants = g('ENTITY', [
  ['planillas', ['READ', 'CREATE', 'UPDATE']],
  ['payment-orders', ['READ']],
  ['receipts-7b', ['READ']],
]);

const req = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.request({ method, url, token, ...(payload === undefined ? {} : { payload: payload as object }) });

/** The outbox rows of `event` (with `keyLike` on the dedupe key when given), by recipient user id. */
async function mails(event: string, keyLike?: string) {
  const rows = await t.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.event, event as never), keyLike ? like(mailOutbox.dedupeKey, keyLike) : undefined))
    .orderBy(mailOutbox.id);
  return rows;
}
const recipients = (rows: { userId: number | null }[]) => rows.map((r) => r.userId).sort((a, b) => (a ?? 0) - (b ?? 0));

async function calendarOn(day: string): Promise<BusinessCalendar> {
  return (await settingsAt(t.database.db, day)).values['calendar.holidays'];
}

/** The business day whose reminder `lead` business days ahead covers `due`. */
async function reminderDayFor(due: string, lead: number): Promise<string> {
  const cal = await calendarOn(due);
  for (let d = addDays(due, -1); d > addDays(due, -40); d = addDays(d, -1)) {
    if (isBusinessDay(d, cal) && addBusinessDays(d, lead - 1, cal) < due && due <= addBusinessDays(d, lead, cal)) return d;
  }
  throw new Error(`no reminder day for ${due}`);
}

async function planillaFor(period: string, token = operator.token) {
  const p = await req(token, 'POST', '/api/planillas', { entityId: fx.entityA.id, period });
  expect(p.statusCode, p.body).toBe(201);
  const id = p.json().id as number;
  const l = await req(token, 'POST', `/api/planillas/${id}/lines`, {
    cui: newCui(),
    fullName: 'Ana López',
    budgetLine: '011',
    salary: '10000.00',
  });
  expect(l.statusCode, l.body).toBe(201);
  return id;
}

async function submitAndTake(id: number) {
  const sent = await req(operator.token, 'POST', `/api/planillas/${id}/transitions`, { to: 'ENVIANDO' });
  expect(sent.statusCode, sent.body).toBe(200);
  for (let tries = 0; (await req(operator.token, 'GET', `/api/planillas/${id}`)).json().state !== 'ENVIADA'; tries++) {
    expect(tries, 'the submit job did not send the planilla').toBeLessThan(1200);
    await new Promise((r) => setTimeout(r, 50));
  }
  const take = await req(delegate.token, 'POST', `/api/planillas/${id}/transitions`, { to: 'EN_REVISION' });
  expect(take.statusCode, take.body).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  admin = await t.createUser({ system: true });
  fx = await contributorFixtures(db);
  operator = await t.createUser({ grants: clerkGrants });
  await attachUserToEntity(db, operator.id, fx.entityA.id);
  payer = await t.createUser({ grants: g('ENTITY', [['payment-orders', ['READ']]]) });
  await attachUserToEntity(db, payer.id, fx.entityA.id);
  payerOff = await t.createUser({ grants: g('ENTITY', [['payment-orders', ['READ']]]) });
  await attachUserToEntity(db, payerOff.id, fx.entityA.id);
  await db
    .insert(mailPreferences)
    .values({ userId: payerOff.id, events: { 'order.issued': 'off', 'payment.registered': 'off' } });
  operatorB = await t.createUser({ grants: clerkGrants });
  await attachUserToEntity(db, operatorB.id, fx.entityB.id);
  const [region] = await db
    .insert(regions)
    .values({ code: `R-ML-${Date.now()}`, name: 'Región correo' })
    .returning();
  await db.insert(entityRegions).values({ entityId: fx.entityA.id, regionId: region.id });
  delegate = await t.createUser({ grants: g('REGION', [['planillas', ['READ', 'APPROVE']]]) });
  const [d] = await db.insert(delegates).values({ userId: delegate.id, cui: newCui() }).returning();
  await db.insert(regionDelegates).values({ regionId: region.id, delegateId: d.id });
  const rng = await req(admin.token, 'POST', '/api/receipt-ranges', {
    office: OFFICE,
    series: 'M',
    firstNumber: 1,
    lastNumber: 500,
    authorizationRef: 'Res. correo',
    authorizationDate: '2024-01-02',
  });
  expect(rng.statusCode, rng.body).toBe(201);
  await t.app.jobs.start();
}, 120_000);
afterAll(() => t.close());

let planillaId: number;

describe('planilla and payment events', () => {
  it('observed and approved reach the clerk who owns the planilla; each order issued reaches the payers with its PDF', async () => {
    planillaId = await planillaFor(last);
    await submitAndTake(planillaId);
    const obs = await req(delegate.token, 'POST', `/api/planillas/${planillaId}/transitions`, {
      to: 'OBSERVADA',
      comment: 'Revise el salario.',
    });
    expect(obs.statusCode, obs.body).toBe(200);
    const observed = await mails('planilla.observed');
    expect(observed).toHaveLength(1);
    expect(observed[0]).toMatchObject({ userId: operator.id, to: [operator.email], link: `/planilla/vista/${planillaId}` });
    expect(observed[0].subject).toContain(fx.entityA.name);

    await submitAndTake(planillaId);
    const ok = await req(delegate.token, 'POST', `/api/planillas/${planillaId}/transitions`, { to: 'APROBADA' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(recipients(await mails('planilla.approved'))).toEqual([operator.id]);

    const orders = await t.database.db.select().from(paymentOrders).where(eq(paymentOrders.planillaId, planillaId));
    expect(orders).toHaveLength(2);
    const issued = await mails('order.issued');
    // Each order to each payer of the entity: never to the one who chose 'off', nor to another entity's clerk.
    expect(issued).toHaveLength(4);
    expect([...new Set(recipients(issued))]).toEqual([operator.id, payer.id].sort((a, b) => a - b));
    for (const m of issued) {
      expect(m.attachments).toHaveLength(1);
      expect(m.attachments[0]).toMatchObject({ kind: 'render', renderer: 'payment-order' });
    }
    const render = mailAttachmentRenderer('payment-order');
    expect(render).toBeDefined();
    const { id } = issued[0].attachments[0] as { id: string };
    const pdf = await render!(t.database.db, id);
    expect(pdf.contentType).toBe('application/pdf');
    expect(pdf.filename).toMatch(/^orden-\d+\.pdf$/);
    expect(pdf.content.subarray(0, 5).toString()).toBe('%PDF-');

    // Through a real SMTP server (the issue's "done when"): the observation arrives once to the clerk, and
    // each order issued arrives with its PDF attached.
    const smtp = await startTestSmtp();
    const transport = createMailTransport(smtp.url);
    try {
      const queued = [...observed, ...(await mails('planilla.approved')), ...issued];
      const opts = { from: '"Aporta" <no-responder@aporta.example.gt>', host: 'aporta.example.gt', batchSize: 50 };
      while ((await sendOutboxBatch(t.database.db, transport, opts)).claimed > 0);
      await smtp.waitFor(queued.length, 20_000);
      const arrived = smtp.messages.filter((m) => queued.some((q) => m.messageId === `<outbox-${q.id}@aporta.example.gt>`));
      expect(arrived).toHaveLength(queued.length);
      const toClerk = arrived.filter((m) => m.subject?.includes(fx.entityA.name) && m.text?.includes('/planilla/vista/'));
      expect(toClerk.filter((m) => (m.to as { text: string }).text === operator.email).length).toBeGreaterThanOrEqual(1);
      const orderMails = arrived.filter((m) => issued.some((q) => m.messageId === `<outbox-${q.id}@aporta.example.gt>`));
      expect(orderMails).toHaveLength(4);
      for (const m of orderMails) {
        expect(m.attachments).toHaveLength(1);
        expect(m.attachments[0].contentType).toBe('application/pdf');
        expect(m.attachments[0].filename).toMatch(/^orden-\d+\.pdf$/);
        expect(m.attachments[0].content.subarray(0, 5).toString()).toBe('%PDF-');
      }
    } finally {
      transport.close?.();
      await smtp.close();
    }
  }, 120_000);

  it('a rejected planilla is returned to its clerk with the reason', async () => {
    const id = await planillaFor(previousPeriod(last));
    await submitAndTake(id);
    const r = await req(delegate.token, 'POST', `/api/planillas/${id}/transitions`, {
      to: 'RECHAZADA',
      comment: 'Faltan empleados del renglón 011.',
    });
    expect(r.statusCode, r.body).toBe(200);
    const returned = await mails('planilla.returned');
    expect(recipients(returned)).toEqual([operator.id]);
    expect(returned[0].text).toContain('Faltan empleados del renglón 011.');
  }, 120_000);

  it('a payment registered reaches the payers with the 7-B receipt attached as a PDF', async () => {
    const [laboral] = await t.database.db
      .select()
      .from(paymentOrders)
      .where(and(eq(paymentOrders.planillaId, planillaId), eq(paymentOrders.kind, 'LABORAL')));
    const paid = await req(admin.token, 'POST', '/api/payments', {
      idempotencyKey: key(),
      orderIds: [laboral.id],
      bank: 'Banrural',
      payDate: today,
      bankReference: `BR-${key()}`,
      amount: '100.00',
      office: OFFICE,
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const rows = await mails('payment.registered');
    expect(recipients(rows)).toEqual([operator.id, payer.id].sort((a, b) => a - b));
    expect(rows[0].attachments[0]).toMatchObject({ kind: 'render', renderer: 'receipt' });
    const pdf = await mailAttachmentRenderer('receipt')!(t.database.db, (rows[0].attachments[0] as { id: string }).id);
    expect(pdf.content.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.filename).toMatch(/^recibo-M-\d+\.pdf$/);
  }, 60_000);

  it('reminds N and 1 business days before an order falls due, once each, only to its entity', async () => {
    const db = t.database.db;
    const ctx = systemContext(db);
    const [patronal] = await db
      .select()
      .from(paymentOrders)
      .where(and(eq(paymentOrders.planillaId, planillaId), eq(paymentOrders.kind, 'PATRONAL')));
    const lead = (await settingsAt(db, today)).values['mail.reminderBusinessDays'];
    const due = addDays(today, 40);
    const cal = await calendarOn(due);
    const dueDay = isBusinessDay(due, cal) ? due : addBusinessDays(due, 1, cal);
    await db.update(paymentOrders).set({ dueDate: dueDay, accruedTo: dueDay }).where(eq(paymentOrders.id, patronal.id));
    // Another entity's order due the same day: its own clerk only.
    const other = await insertOrder(ctx, db, {
      kind: 'PATRONAL',
      entityId: fx.entityB.id,
      period: last,
      principal: 50_000n,
      dueDate: dueDay,
    });
    const day = await reminderDayFor(dueDay, lead);
    await sendOrderReminders(ctx, day);
    await sendOrderReminders(ctx, day);
    const first = await mails('order.dueSoon', `order.dueSoon:${patronal.id}:%`);
    // The payers of the entity, 'off' for other events only: one mail each, a second run queues nothing.
    expect(recipients(first)).toEqual([operator.id, payer.id, payerOff.id].sort((a, b) => a - b));
    expect(first[0].subject).toContain(dueDay.slice(0, 4));
    expect(recipients(await mails('order.dueSoon', `order.dueSoon:${other.id}:%`))).toEqual([operatorB.id]);

    const dayBefore = await reminderDayFor(dueDay, 1);
    await sendOrderReminders(ctx, dayBefore);
    await sendOrderReminders(ctx, dayBefore);
    expect(await mails('order.dueSoon', `order.dueSoon:${patronal.id}:%`)).toHaveLength(6);
    // A day that is not a business day reminds nothing.
    let weekend = today;
    while (isBusinessDay(weekend, cal)) weekend = addDays(weekend, 1);
    expect(await sendOrderReminders(ctx, weekend)).toMatchObject({ orders: 0, mails: 0 });
  }, 60_000);
});

describe('agreements', () => {
  it('reminds before an instalment falls due (once), and tells the entity and the agreements staff of a default', async () => {
    const db = t.database.db;
    const ctx = systemContext(db);
    const ent = (await contributorFixtures(db)).entityA;
    for (const period of ['2025-01', '2025-02']) {
      for (const kind of ['LABORAL', 'PATRONAL'] as const) {
        await insertOrder(ctx, db, { kind, entityId: ent.id, period, principal: 150_000n, issueDate: `${period}-28` });
      }
    }
    const clerk = await t.createUser({ grants: g('ENTITY', [['payment-orders', ['READ']]]) });
    await attachUserToEntity(db, clerk.id, ent.id);
    const staff = await t.createUser({ grants: g('ALL', [['payment-agreements', ['READ', 'APPROVE']]]) });
    // An agreements officer of a region that does not hold this entity: not told.
    const farStaff = await t.createUser({ grants: g('REGION', [['payment-agreements', ['READ', 'APPROVE']]]) });
    const debt = (await req(admin.token, 'GET', `/api/payment-agreements/debt?entityId=${ent.id}`)).json();
    const created = await req(admin.token, 'POST', '/api/payment-agreements', {
      entityId: ent.id,
      downPayment: debt.minDownPayment,
      instalments: 4,
      firstDueDate: addDays(today, 30),
    });
    expect(created.statusCode, created.body).toBe(201);
    const ag = created.json();
    const first = ag.instalments.find((i: { number: number }) => i.number === 1);
    const lead = (await settingsAt(db, today)).values['mail.reminderBusinessDays'];
    const day = await reminderDayFor(first.dueDate, lead);
    await sendInstalmentReminders(ctx, day);
    await sendInstalmentReminders(ctx, day);
    const reminded = await mails('agreement.instalmentDueSoon', `agreement.instalmentDueSoon:${first.orderId}:%`);
    expect(recipients(reminded)).toEqual([clerk.id]);
    expect(reminded[0].subject).toContain(ag.number);

    const second = ag.instalments.find((i: { number: number }) => i.number === 2);
    const r = await detectAgreements(ctx, addDays(second.dueDate, 1));
    expect(r.defaulted).toBeGreaterThanOrEqual(1);
    const defaultMails = await mails('agreement.default', `agreement.default:${ag.id}:%`);
    const told = recipients(defaultMails);
    expect(told).toContain(clerk.id);
    // Each link opens what its reader may see: the agreement for the agreements staff; the entity's orders (the
    // instalments now due) for the entity's clerk, who may not read agreements.
    const textOf = (userId: number) => defaultMails.find((m) => m.userId === userId)!.text;
    expect(textOf(staff.id)).toContain(`/planilla/convenios-pago/${ag.id}`);
    expect(textOf(clerk.id)).toContain('/ordenes-pago');
    expect(textOf(clerk.id)).not.toContain('/convenios-pago/');
    expect(told).toContain(staff.id);
    expect(told).toContain(admin.id);
    expect(told).not.toContain(farStaff.id);
    expect(told).not.toContain(operatorB.id);
    expect(told).not.toContain(operator.id);
  }, 120_000);
});

describe('survival checks', () => {
  it('tells the pensions staff how many checks close soon and fell overdue, in their scope, once a day', async () => {
    const db = t.database.db;
    const s = (await settingsAt(db, today)).values;
    const closes = addDays(today, s['mail.survivalNoticeDays']);
    const pension = async (survivalDue: string) => {
      const cui = newCui();
      const [c] = await db
        .insert(contributors)
        .values({
          cui,
          firstName: 'Ana',
          firstSurname: 'Pensionada',
          searchName: 'ANA PENSIONADA',
          birthDate: '1950-01-01',
          sex: 'F',
          typeId: fx.typeId,
        })
        .returning();
      await db.insert(pensions).values({
        contributorId: c.id,
        cui,
        fullName: 'Ana Pensionada',
        birthDate: '1950-01-01',
        type: 'JUBILACION',
        resolutionNumber: `R-${cui}`,
        resolutionDate: '2020-01-01',
        startDate: '2020-01-01',
        monthlyAmount: 300_000n,
        bankAccount: '123',
        state: 'ACTIVA',
        entityId: fx.entityA.id,
        survivalDue,
      });
    };
    await pension(addDays(closes, -s['survival.windowDaysAfterBirthday']));
    await pension(addDays(today, -s['survival.windowDaysAfterBirthday'] - 1));
    const all = await t.createUser({ grants: g('ALL', [['supervivencia', ['READ', 'APPROVE']]]) });
    const onlyB = await t.createUser({ grants: g('ENTITY', [['supervivencia', ['READ', 'APPROVE']]]) });
    await attachUserToEntity(db, onlyB.id, fx.entityB.id);
    const ctx = systemContext(db);
    expect(await sendSurvivalNotices(ctx, today)).toMatchObject({ dueSoon: 1, overdue: 1 });
    await sendSurvivalNotices(ctx, today);
    for (const event of ['survival.dueSoon', 'survival.overdue']) {
      const rows = await mails(event);
      expect(recipients(rows)).toContain(all.id);
      expect(recipients(rows)).not.toContain(onlyB.id);
      expect(rows.filter((r) => r.userId === all.id)).toHaveLength(1);
    }
    expect((await mails('survival.dueSoon')).find((r) => r.userId === all.id)!.subject).toContain('1');
  }, 60_000);
});

describe('signing', () => {
  it('tells a signer a document waits, then reminds them daily after the days set, at most the maximum', async () => {
    const db = t.database.db;
    const signer = await t.createUser({ grants: g('ALL', [['signing-pending', ['READ', 'SIGN']]]) });
    const sha = await putBlob(db, t.app.files, new TextEncoder().encode(`%PDF-1.4 ${key()}`), 'application/pdf');
    const [r] = await db
      .insert(signingRequests)
      .values({
        title: 'Acta de prueba',
        state: 'PENDIENTE',
        filename: 'acta.pdf',
        originalSha256: sha,
        currentSha256: sha,
        createdBy: admin.id,
      })
      .returning();
    await db.insert(signingSigners).values({ requestId: r.id, position: 1, userId: signer.id, state: 'PENDIENTE' });
    await db
      .insert(signingEvents)
      .values({ requestId: r.id, action: 'ENVIADO', userName: 'Admin', at: new Date(`${today}T12:00:00-06:00`) });
    await db.transaction((tx) =>
      notifyWaitingSigner(tx, { requestId: r.id, userId: signer.id, title: r.title, senderId: admin.id }),
    );
    expect(recipients(await mails('signing.waiting', `signing.waiting:${r.id}:%`))).toEqual([signer.id]);

    const s = (await settingsAt(db, today)).values;
    const ctx = systemContext(db);
    const reminders = async () => (await mails('signing.reminder', `signing.reminder:${r.id}:%`)).length;
    await sendSigningReminders(ctx, addDays(today, s['mail.signingReminderAfterDays'] - 1));
    expect(await reminders()).toBe(0);
    for (let k = 0; k < s['mail.signingRemindersMax'] + 2; k++) {
      const day = addDays(today, s['mail.signingReminderAfterDays'] + k);
      await sendSigningReminders(ctx, day);
      await sendSigningReminders(ctx, day);
    }
    expect(await reminders()).toBe(s['mail.signingRemindersMax']);
    const row = (await mails('signing.reminder', `signing.reminder:${r.id}:%`))[0];
    expect(row).toMatchObject({ userId: signer.id, link: '/firmaDoc/pendientes' });
    expect(row.subject).toContain('Acta de prueba');
  }, 60_000);
});

describe('jobs', () => {
  const slowJob = defineJob<Record<string, never>>({
    kind: 'test.mail-events',
    title: 'Proceso de prueba de correo',
    run: async () => ({ ok: true }),
  });

  it("tells a long job's starter when it ends (bell and mail), not a quick one", async () => {
    const db = t.database.db;
    const u = await t.createUser({ grants: [] });
    const [long] = await db
      .insert(jobs)
      .values({ kind: slowJob.kind, userId: u.id, scope: 'ALL', createdAt: sql`now() - interval '5 minutes'` })
      .returning();
    const [quick] = await db.insert(jobs).values({ kind: slowJob.kind, userId: u.id, scope: 'ALL' }).returning();
    for (let tries = 0; ; tries++) {
      const rows = await db.select({ state: jobs.state }).from(jobs).where(sql`${jobs.id} in (${long.id}, ${quick.id})`);
      if (rows.every((x) => x.state === 'DONE')) break;
      expect(tries, 'the test jobs did not run').toBeLessThan(600);
      await new Promise((res) => setTimeout(res, 50));
    }
    const rows = await mails('job.finished');
    expect(rows.map((r) => r.dedupeKey)).toEqual([`job.finished:${long.id}:u${u.id}`]);
    expect(rows[0]).toMatchObject({ userId: u.id, link: '/procesos' });
    expect(rows[0].subject).toContain('Proceso de prueba de correo');
    // A job of the system, or one cancelled, tells nobody.
    const [sys] = await db.select().from(jobs).where(eq(jobs.id, long.id));
    await db.transaction((tx) => notifyJobEnded(tx, { ...sys, id: sys.id + 100_000, userId: null }));
    await db.transaction((tx) => notifyJobEnded(tx, { ...sys, id: sys.id + 100_001, state: 'CANCELLED' }));
    expect(await mails('job.finished')).toHaveLength(1);
  }, 60_000);
});
