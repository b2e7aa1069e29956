import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cuiApprovalRequests, importBatches } from '../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { attachUserToEntity, contributorFixtures, newCui } from '../contributors/fixtures.ts';

/**
 * The home page's work queues: each user sees only the queues their permissions open, with counts
 * inside their data scope, never their own CUI requests (maker-checker), only their own uploads.
 */
let t: TestApp;
let admin: TestUser;
let fx: Awaited<ReturnType<typeof contributorFixtures>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
  fx = await contributorFixtures(t.database.db);
});
afterAll(() => t.close());

type Queue = { id: string; title: string; link: string; count: number };
const queues = async (token: string) => {
  const res = await t.request({ method: 'GET', url: '/api/home/queues', token });
  expect(res.statusCode).toBe(200);
  return Object.fromEntries((res.json().items as Queue[]).map((q) => [q.id, q]));
};
const createContributor = async (token: string, entityId: number) => {
  const res = await t.request({
    method: 'POST',
    url: '/api/contributors',
    token,
    payload: {
      cui: newCui(),
      firstName: 'Ana',
      firstSurname: 'López',
      birthDate: '1990-05-01',
      sex: 'F',
      typeId: fx.typeId,
      entityId,
      municipalityId: fx.municipality.id,
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json().contributor.id as number;
};

describe('home work queues', () => {
  it('answers 401 without a session and no queues to a user without permissions', async () => {
    expect((await t.request({ method: 'GET', url: '/api/home/queues' })).statusCode).toBe(401);
    const nobody = await t.createUser();
    expect(await queues(nobody.token)).toEqual({});
  });

  it('counts pending CUI approvals within the approver scope, never the approver own requests', async () => {
    const approverAll = await t.createUser({ grants: [{ resource: 'cui-approval', action: 'APPROVE', scope: 'ALL' }] });
    const approverB = await t.createUser({ grants: [{ resource: 'cui-approval', action: 'APPROVE', scope: 'ENTITY' }] });
    await attachUserToEntity(t.database.db, approverB.id, fx.entityB.id);
    const before = {
      all: (await queues(approverAll.token))['cui-approvals-pending'].count,
      b: (await queues(approverB.token))['cui-approvals-pending'].count,
      admin: (await queues(admin.token))['cui-approvals-pending'].count,
    };
    // Each creation opens an ALTA request requested by the admin.
    await createContributor(admin.token, fx.entityA.id);
    await createContributor(admin.token, fx.entityB.id);
    const all = await queues(approverAll.token);
    expect(all['cui-approvals-pending']).toMatchObject({ link: '/contributors/cui-approval', count: before.all + 2 });
    expect((await queues(approverB.token))['cui-approvals-pending'].count).toBe(before.b + 1);
    // The admin requested both: they wait for someone else.
    expect((await queues(admin.token))['cui-approvals-pending'].count).toBe(before.admin);
    // A decided request leaves the queue.
    const [pending] = await t.database.db.select().from(cuiApprovalRequests).where(eq(cuiApprovalRequests.state, 'PENDIENTE'));
    await t.database.db.update(cuiApprovalRequests).set({ state: 'APROBADO' }).where(eq(cuiApprovalRequests.id, pending.id));
    expect((await queues(approverAll.token))['cui-approvals-pending'].count).toBe(before.all + 1);
    // Without APPROVE the queue is not offered at all.
    const reader = await t.createUser({ grants: [{ resource: 'cui-approval', action: 'READ', scope: 'ALL' }] });
    expect((await queues(reader.token))['cui-approvals-pending']).toBeUndefined();
  });

  it('counts the user own uploads waiting for a decision (validated or failed), not others or finished ones', async () => {
    const clerk = await t.createUser({ grants: [{ resource: 'contributor-bulk-upload', action: 'CREATE', scope: 'ALL' }] });
    const other = await t.createUser({ grants: [{ resource: 'contributor-bulk-upload', action: 'CREATE', scope: 'ALL' }] });
    const upload = (createdBy: number, status: (typeof importBatches.$inferInsert)['status']) => ({
      id: crypto.randomUUID(),
      kind: 'contributors',
      fileName: 'a.xlsx',
      format: 'xlsx' as const,
      status,
      createdBy,
    });
    await t.database.db
      .insert(importBatches)
      .values([
        upload(clerk.id, 'VALIDADO'),
        upload(clerk.id, 'FALLIDO'),
        upload(clerk.id, 'CONFIRMADO'),
        upload(clerk.id, 'DESCARTADO'),
        upload(other.id, 'VALIDADO'),
      ]);
    const mine = await queues(clerk.token);
    expect(mine['contributor-imports-waiting']).toMatchObject({ link: '/contributors/bulk-upload', count: 2 });
    expect(mine['cui-approvals-pending']).toBeUndefined();
    expect((await queues(other.token))['contributor-imports-waiting'].count).toBe(1);
  });
});
