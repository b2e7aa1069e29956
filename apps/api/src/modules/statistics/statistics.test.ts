import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
});
afterAll(() => t.close());

const panelsOf = async (token: string) => {
  const res = await t.request({ method: 'GET', url: '/api/statistics', token });
  expect(res.statusCode).toBe(200);
  return Object.fromEntries(res.json().map((p: { key: string }) => [p.key, p]));
};

describe('statistics', () => {
  it('counts entities per department and region; with no delegates every entity lacks one', async () => {
    const p = await panelsOf(admin.token);
    expect(p['entities-by-department'].total).toBe(339);
    expect(p['entities-by-department'].items.find((i: { label: string }) => i.label === 'Guatemala').value).toBe(16);
    expect(p['entities-by-region'].items.find((i: { label: string }) => i.label === 'Petén').value).toBe(14);
    expect(p['delegate-workload']).toMatchObject({ total: 0, items: [] });
    expect(p['entities-without-delegate'].total).toBe(339);
    expect(p['entities-without-delegate'].items).toHaveLength(100);
  });

  it('computes the workload of a delegate and scopes panels for a delegate', async () => {
    const person = await t.createUser({ grants: [{ resource: 'statistics', action: 'READ', scope: 'REGION' }] });
    const post = (url: string, payload: object) => t.request({ method: 'POST', url, token: admin.token, payload });
    const peten = (await t.request({ method: 'GET', url: '/api/collections/regions?q=Pet%C3%A9n', token: admin.token })).json()
      .items[0];
    const d = (await post('/api/collections/delegates', { userId: person.id, cui: '1587564440904' })).json();
    expect((await post('/api/collections/region-delegates', { regionId: peten.id, delegateId: d.id })).statusCode).toBe(201);
    const all = await panelsOf(admin.token);
    expect(all['delegate-workload'].items).toHaveLength(1);
    expect(all['delegate-workload'].items[0].value).toBe(14);
    expect(all['entities-without-delegate'].total).toBe(339 - 14);
    const mine = await panelsOf(person.token);
    expect(mine['entities-by-department'].items).toEqual([{ label: 'Petén', value: 14 }]);
    expect(mine['entities-without-delegate'].total).toBe(0);
  });

  it('needs the statistics permission', async () => {
    const nobody = await t.createUser();
    expect((await t.request({ method: 'GET', url: '/api/statistics', token: nobody.token })).statusCode).toBe(403);
  });
});
