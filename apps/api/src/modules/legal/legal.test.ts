import { addDays, decimalToCents, guatemalaToday } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalCaseDeadlines, notifications } from '../../db/schema/index.ts';
import { systemContext } from '../../platform/context.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { multipartBody, samplePdf } from '../../test/pdfs.ts';
import { contributorFixtures } from '../contributors/fixtures.ts';
import { insertOrder } from '../payments/orders.ts';
import { remindDeadlines } from './deadlines.ts';

let t: TestApp;
let admin: TestUser;
const today = guatemalaToday();

const get = (url: string) => t.request({ method: 'GET', url, token: admin.token });
const post = (url: string, payload?: object) =>
  t.request({ method: 'POST', url, token: admin.token, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
});
afterAll(() => t.close());

async function entityInArrears() {
  const fx = await contributorFixtures(t.database.db);
  const ctx = systemContext(t.database.db);
  for (const period of ['2025-01', '2025-02']) {
    await insertOrder(ctx, t.database.db, {
      kind: 'PATRONAL',
      entityId: fx.entityA.id,
      period,
      principal: 250_000n,
      issueDate: `${period}-25`,
    });
  }
  return fx;
}

describe('collection cases', () => {
  it('opens from the ranking in one call, covering the overdue orders; one open case per entity; an entity owing nothing is refused', async () => {
    const fx = await entityInArrears();
    const ranking = (await get('/api/financial/arrears'))
      .json()
      .items.find((r: { entityId: number }) => r.entityId === fx.entityA.id);
    expect(ranking.legalCaseId).toBeNull();
    const r = await post('/api/legal/cases', { entityId: fx.entityA.id });
    expect(r.statusCode, r.body).toBe(201);
    const c = r.json();
    expect(c.number).toMatch(/^EXP-\d{4}-\d{6}$/);
    expect(c.stage).toBe('ABIERTO');
    expect(c.items).toHaveLength(2);
    expect(c.amountAtOpening).toBe(ranking.total);
    expect(c.amountNow).toBe(ranking.total);
    expect(
      (await get('/api/financial/arrears')).json().items.find((x: { entityId: number }) => x.entityId === fx.entityA.id)
        .legalCaseId,
    ).toBe(c.id);
    const again = await post('/api/legal/cases', { entityId: fx.entityA.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toContain(c.number);
    const nothing = await post('/api/legal/cases', { entityId: fx.entityB.id });
    expect(nothing.statusCode).toBe(409);
  });

  it('moves through the stages; CONVENIO needs an agreement in force; closing needs the debt paid or an agreement', async () => {
    const fx = await entityInArrears();
    const c = (await post('/api/legal/cases', { entityId: fx.entityA.id })).json();
    expect((await post(`/api/legal/cases/${c.id}/transitions`, { to: 'REQUERIMIENTO' })).json().stage).toBe('REQUERIMIENTO');
    const noAgreement = await post(`/api/legal/cases/${c.id}/transitions`, { to: 'CONVENIO' });
    expect(noAgreement.statusCode).toBe(409);
    expect(noAgreement.json().error.message).toContain('convenio de pago vigente');
    const noClose = await post(`/api/legal/cases/${c.id}/transitions`, { to: 'CERRADO', comment: 'Intento' });
    expect(noClose.statusCode).toBe(409);
    const noComment = await post(`/api/legal/cases/${c.id}/transitions`, { to: 'CERRADO' });
    expect([400, 409]).toContain(noComment.statusCode);
    expect((await post(`/api/legal/cases/${c.id}/transitions`, { to: 'DEMANDA' })).json().stage).toBe('DEMANDA');

    const debt = (await get(`/api/payment-agreements/debt?entityId=${fx.entityA.id}`)).json();
    const ag = await post('/api/payment-agreements', {
      entityId: fx.entityA.id,
      downPayment: debt.minDownPayment,
      instalments: 6,
      firstDueDate: addDays(today, 30),
    });
    expect(ag.statusCode, ag.body).toBe(201);
    const conv = await post(`/api/legal/cases/${c.id}/transitions`, { to: 'CONVENIO', comment: 'Convenio firmado' });
    expect(conv.statusCode, conv.body).toBe(200);
    const now = conv.json();
    expect(now.stage).toBe('CONVENIO');
    // The orders went into the agreement: the case owes nothing on them now; the amount at opening stays.
    expect(decimalToCents(now.amountNow)).toBe(0n);
    expect(now.amountAtOpening).toBe(c.amountAtOpening);
    const closed = await post(`/api/legal/cases/${c.id}/transitions`, { to: 'CERRADO', comment: 'Cubierto por convenio' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({
      stage: 'CERRADO',
      closeReason: 'Cubierto por convenio',
      closedOn: today,
      transitions: [],
    });
    expect(
      (await post(`/api/legal/cases/${c.id}/actions`, { actionDate: today, kind: 'OTRO', description: 'x' })).statusCode,
    ).toBe(409);
  });

  it('records actions with date and lawyer, deadlines reminded the week before and on the day, attached documents', async () => {
    const fx = await entityInArrears();
    const c = (await post('/api/legal/cases', { entityId: fx.entityA.id })).json();
    const act = await post(`/api/legal/cases/${c.id}/actions`, {
      actionDate: today,
      kind: 'NOTIFICACION',
      description: 'Se notificó al alcalde.',
    });
    expect(act.statusCode, act.body).toBe(201);
    expect(act.json().actions[0]).toMatchObject({ kind: 'NOTIFICACION', lawyer: admin.email, actionDate: today });
    expect(
      (await post(`/api/legal/cases/${c.id}/actions`, { actionDate: addDays(today, 1), kind: 'OTRO', description: 'x' }))
        .statusCode,
    ).toBe(400);

    const due = addDays(today, 5);
    const dl = await post(`/api/legal/cases/${c.id}/deadlines`, { dueDate: due, description: 'Contestar la demanda' });
    expect(dl.statusCode, dl.body).toBe(201);
    expect((await post(`/api/legal/cases/${c.id}/deadlines`, { dueDate: addDays(today, -1), description: 'x' })).statusCode).toBe(
      400,
    );
    const week = (await get('/api/legal/deadlines')).json().items.map((x: { caseId: number }) => x.caseId);
    expect(week).toContain(c.id);

    const ctx = systemContext(t.database.db);
    const before = await remindDeadlines(ctx, addDays(due, -8));
    const mine = (r: { reminded: number }) => r.reminded;
    expect(mine(before)).toBe(0);
    expect(mine(await remindDeadlines(ctx, addDays(due, -7)))).toBeGreaterThanOrEqual(1);
    // Not again the next day; again on the day itself.
    const [row] = await t.database.db.select().from(legalCaseDeadlines).where(eq(legalCaseDeadlines.caseId, c.id));
    expect(row.remindedOn).toBe(addDays(due, -7));
    await remindDeadlines(ctx, addDays(due, -6));
    expect((await t.database.db.select().from(legalCaseDeadlines).where(eq(legalCaseDeadlines.caseId, c.id)))[0].remindedOn).toBe(
      addDays(due, -7),
    );
    await remindDeadlines(ctx, due);
    expect((await t.database.db.select().from(legalCaseDeadlines).where(eq(legalCaseDeadlines.caseId, c.id)))[0].remindedOn).toBe(
      due,
    );
    const notes = await t.database.db.select().from(notifications).where(eq(notifications.userId, admin.id));
    expect(notes.filter((n) => n.title.includes(c.number))).toHaveLength(2);

    const done = await post(`/api/legal/cases/${c.id}/deadlines/${row.id}/done`);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().deadlines[0].done).toBe(true);

    const upload = multipartBody({}, { name: 'requerimiento.pdf', bytes: await samplePdf('Requerimiento de pago') });
    const doc = await t.request({
      method: 'POST',
      url: `/api/legal/cases/${c.id}/documents`,
      token: admin.token,
      payload: upload.payload,
      headers: upload.headers,
    });
    expect(doc.statusCode, doc.body).toBe(201);
    expect(doc.json().documents[0]).toMatchObject({ title: 'requerimiento.pdf' });
  });
});
