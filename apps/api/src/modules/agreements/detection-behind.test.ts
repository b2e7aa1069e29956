import { addDays, guatemalaToday } from '@aporta/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentAgreementOrders, paymentAgreements, paymentOrders } from '../../db/schema/index.ts';
import { systemContext } from '../../platform/context.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { attachUserToEntity, contributorFixtures } from '../contributors/fixtures.ts';
import { insertOrder } from '../payments/orders.ts';
import { detectAgreements } from './detection.ts';

/**
 * The default detection's stranded-money check (issue 25, item 6): when the daily detection fails or does
 * not run, agreements in force with instalments overdue beyond the limit stay VIGENTE (the entity's debt
 * not due at once). The home page counts them for those who may run the detection, in their scope, as an
 * alert; once a detection runs, the count is zero.
 */

let t: TestApp;
let admin: TestUser;
let approverOther: TestUser;
const today = guatemalaToday();

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  approverOther = await t.createUser({
    grants: [{ resource: 'payment-agreements', action: 'APPROVE', scope: 'ENTITY' }],
  });
  // The machine may be busy: opening a cloned database can take longer than the default hook timeout.
}, 180_000);
afterAll(() => t.close());

async function queue(token: string) {
  const res = await t.request({ method: 'GET', url: '/api/home/queues', token });
  expect(res.statusCode).toBe(200);
  return (res.json().items as { id: string; count: number; alert?: boolean }[]).find(
    (q) => q.id === 'payment-agreements-detection-behind',
  );
}

describe('agreements the detection left behind', () => {
  it('are counted at home (APPROVE, in scope) until a detection puts them in default', async () => {
    const fx = await contributorFixtures(t.database.db);
    await attachUserToEntity(t.database.db, approverOther.id, fx.entityB.id);
    const ctx = systemContext(t.database.db);
    for (const kind of ['LABORAL', 'PATRONAL'] as const)
      await insertOrder(ctx, t.database.db, {
        kind,
        entityId: fx.entityA.id,
        period: '2025-01',
        principal: 150_000n,
        issueDate: '2025-01-28',
      });
    const debt = (
      await t.request({ method: 'GET', url: `/api/payment-agreements/debt?entityId=${fx.entityA.id}`, token: admin.token })
    ).json();
    const created = await t.request({
      method: 'POST',
      url: '/api/payment-agreements',
      token: admin.token,
      payload: { entityId: fx.entityA.id, downPayment: debt.minDownPayment, instalments: 4, firstDueDate: addDays(today, 30) },
    });
    expect(created.statusCode, created.body).toBe(201);
    const ag = created.json();
    const before = (await queue(admin.token))?.count ?? 0;

    // Time passes and no detection runs: the down payment and the first instalment fall overdue.
    const links = await t.database.db
      .select()
      .from(paymentAgreementOrders)
      .where(
        and(
          eq(paymentAgreementOrders.agreementId, ag.id),
          eq(paymentAgreementOrders.role, 'CUOTA'),
          inArray(paymentAgreementOrders.number, [0, 1]),
        ),
      );
    await t.database.db
      .update(paymentOrders)
      .set({ dueDate: addDays(today, -5), issueDate: addDays(today, -40), accruedTo: addDays(today, -5) })
      .where(
        inArray(
          paymentOrders.id,
          links.map((l) => l.orderId),
        ),
      );

    const behind = await queue(admin.token);
    expect(behind).toMatchObject({ count: before + 1, alert: true });
    // Another entity's approver does not see this entity's agreement.
    expect((await queue(approverOther.token))?.count).toBe(0);

    // The detection runs (the daily job, or one started from the agreements page): nothing left behind.
    const r = await detectAgreements(ctx, today);
    expect(r.defaulted).toBeGreaterThanOrEqual(1);
    const [row] = await t.database.db.select().from(paymentAgreements).where(eq(paymentAgreements.id, ag.id));
    expect(row.state).toBe('INCUMPLIDO');
    expect((await queue(admin.token))?.count).toBe(before);
  });
});
