// The command palette's searches (issue 28) use the lists' `q` filter: a clerk finds their own
// entity's planilla and payment orders by name, period and reference (grouped or not), and never
// another entity's, however the query is written (scope is in the SQL of each list).
import { formatPaymentReference, type Grant, guatemalaToday, periodOf, previousPeriod } from '@aporta/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentOrders } from '../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { attachUserToEntity, contributorFixtures, newCui } from '../contributors/fixtures.ts';

let t: TestApp;
let admin: TestUser;
let reviewer: TestUser;
let clerkA: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;
const period = previousPeriod(periodOf(guatemalaToday()));
const g = (scope: Grant['scope'], entries: [Grant['resource'], Grant['action'][]][]): Grant[] =>
  entries.flatMap(([resource, actions]) => actions.map((action) => ({ resource, action, scope })));
const get = (token: string, url: string) => t.request({ method: 'GET', url, token });

async function approvedPlanilla(entityId: number) {
  const post = (token: string, url: string, payload: object) => t.request({ method: 'POST', url, token, payload });
  const p = await post(admin.token, '/api/planillas', { entityId, period });
  expect(p.statusCode, p.body).toBe(201);
  const id = p.json().id as number;
  const line = await post(admin.token, `/api/planillas/${id}/lines`, {
    cui: newCui(),
    fullName: 'Ana López',
    budgetLine: '011',
    salary: '10000.00',
  });
  expect(line.statusCode, line.body).toBe(201);
  expect((await post(admin.token, `/api/planillas/${id}/transitions`, { to: 'ENVIANDO' })).statusCode).toBe(200);
  for (let tries = 0; (await get(admin.token, `/api/planillas/${id}`)).json().state !== 'ENVIADA'; tries++) {
    expect(tries, 'the submit job did not send the planilla').toBeLessThan(1200);
    await new Promise((r) => setTimeout(r, 50));
  }
  for (const to of ['EN_REVISION', 'APROBADA']) {
    const r = await post(reviewer.token, `/api/planillas/${id}/transitions`, { to });
    expect(r.statusCode, r.body).toBe(200);
  }
  const orders = await t.database.db.select().from(paymentOrders).where(eq(paymentOrders.planillaId, id));
  expect(orders.length).toBeGreaterThan(0);
  return { id, references: orders.map((o) => o.reference) };
}

let own: Awaited<ReturnType<typeof approvedPlanilla>>;
let other: Awaited<ReturnType<typeof approvedPlanilla>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  reviewer = await t.createUser({ system: true });
  fx = await contributorFixtures(t.database.db);
  clerkA = await t.createUser({
    grants: g('ENTITY', [
      ['planillas', ['READ']],
      ['payment-orders', ['READ']],
    ]),
  });
  await attachUserToEntity(t.database.db, clerkA.id, fx.entityA.id);
  await t.app.jobs.start();
  own = await approvedPlanilla(fx.entityA.id);
  other = await approvedPlanilla(fx.entityB.id);
});
afterAll(() => t.close());

const ids = (res: { json: () => { items: { id: number }[] } }) => res.json().items.map((x) => x.id);
const q = (s: string) => encodeURIComponent(s);

describe('palette searches within the user scope', () => {
  it("a clerk finds their own entity's planilla by name, code and period, and not another entity's", async () => {
    const [mm, yyyy] = [period.slice(5), period.slice(0, 4)];
    for (const text of [fx.entityA.name, `${fx.entityA.code} ${mm}/${yyyy}`, `${period}`]) {
      const res = await get(clerkA.token, `/api/planillas?pageSize=8&q=${q(text)}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(ids(res), text).toContain(own.id);
      expect(ids(res), text).not.toContain(other.id);
    }
    // The other entity by its own name: nothing, not even that it exists.
    const theirs = await get(clerkA.token, `/api/planillas?pageSize=8&q=${q(fx.entityB.name)}`);
    expect(ids(theirs)).toEqual([]);
    // The administrator (scope ALL) finds it: the query is right, the scope hides it.
    expect(ids(await get(admin.token, `/api/planillas?pageSize=8&q=${q(fx.entityB.name)}`))).toContain(other.id);
  });

  it("a clerk finds their own entity's order by reference, grouped or not, and not another entity's", async () => {
    const mine = own.references[0];
    for (const text of [mine, formatPaymentReference(mine), mine.slice(0, 8), formatPaymentReference(mine.slice(0, 8))]) {
      const res = await get(clerkA.token, `/api/payment-orders?pageSize=8&q=${q(text)}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(
        res.json().items.map((o: { reference: string }) => o.reference),
        text,
      ).toContain(mine);
    }
    for (const theirs of other.references) {
      for (const text of [theirs, formatPaymentReference(theirs)]) {
        const res = await get(clerkA.token, `/api/payment-orders?pageSize=8&q=${q(text)}`);
        expect(res.statusCode).toBe(200);
        expect(res.json().items, text).toEqual([]);
      }
      const adminRes = await get(admin.token, `/api/payment-orders?pageSize=8&q=${q(formatPaymentReference(theirs))}`);
      expect(adminRes.json().items.map((o: { reference: string }) => o.reference)).toContain(theirs);
    }
  });

  it('a user without the permission gets a 403, which the palette leaves out', async () => {
    const none = await t.createUser({ grants: g('ENTITY', [['planillas', ['READ']]]) });
    expect((await get(none.token, `/api/payment-orders?q=${q(own.references[0])}`)).statusCode).toBe(403);
  });
});
