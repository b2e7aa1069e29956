import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';
import { notifyUsers } from './service.ts';

let t: TestApp;
let ana: TestUser;
let beto: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  ana = await t.createUser();
  beto = await t.createUser();
});
afterAll(() => t.close());

const list = async (u: TestUser, query = '') =>
  (await t.request({ method: 'GET', url: `/api/notifications${query}`, token: u.token })).json();

describe('notifications', () => {
  it('notifyUsers inside a transaction creates one per user; a rolled back transaction creates none', async () => {
    await t.database.db.transaction(async (tx) => {
      const n = await notifyUsers({
        db: tx,
        userIds: [ana.id, ana.id, beto.id],
        type: 'warning',
        title: 'Planilla enviada a revisión',
        body: 'Municipalidad de Mixco, enero 2026',
        link: '/planilla/revision-delegado',
      });
      expect(n).toBe(2);
    });
    await expect(
      t.database.db.transaction(async (tx) => {
        await notifyUsers({ db: tx, userIds: [ana.id], title: 'No debe quedar' });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    const body = await list(ana);
    expect(body.total).toBe(1);
    expect(body.unread).toBe(1);
    expect(body.items[0]).toMatchObject({
      type: 'warning',
      title: 'Planilla enviada a revisión',
      link: '/planilla/revision-delegado',
      readAt: null,
    });
  });

  it('refuses an empty title or a link outside the app', async () => {
    await expect(notifyUsers({ db: t.database.db, userIds: [ana.id], title: '  ' })).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    await expect(
      notifyUsers({ db: t.database.db, userIds: [ana.id], title: 'x', link: 'https://malicioso.example' }),
    ).rejects.toMatchObject({ code: 'VALIDATION' });
    expect(await notifyUsers({ db: t.database.db, userIds: [], title: 'x' })).toBe(0);
  });

  it('lists newest first, counts unread, and filters unread only', async () => {
    await notifyUsers({ db: t.database.db, userIds: [beto.id], title: 'Segunda' });
    await notifyUsers({ db: t.database.db, userIds: [beto.id], title: 'Tercera' });
    const all = await list(beto);
    expect(all.items.map((i: { title: string }) => i.title)).toEqual(['Tercera', 'Segunda', 'Planilla enviada a revisión']);
    expect(all.unread).toBe(3);
    const res = await t.request({
      method: 'POST',
      url: '/api/notifications/read',
      token: beto.token,
      payload: { ids: [all.items[0].id] },
    });
    expect(res.json()).toEqual({ affected: 1, unread: 2 });
    const unread = await list(beto, '?unread=true');
    expect(unread.items.map((i: { title: string }) => i.title)).toEqual(['Segunda', 'Planilla enviada a revisión']);
    expect((await list(beto, '?limit=1')).items).toHaveLength(1);
  });

  it('marks all read, and marking again affects nothing', async () => {
    const first = await t.request({ method: 'POST', url: '/api/notifications/read', token: beto.token, payload: { all: true } });
    expect(first.json()).toEqual({ affected: 2, unread: 0 });
    const again = await t.request({ method: 'POST', url: '/api/notifications/read', token: beto.token, payload: { all: true } });
    expect(again.json()).toEqual({ affected: 0, unread: 0 });
  });

  it("never touches another user's notifications", async () => {
    const anaItem = (await list(ana)).items[0];
    const read = await t.request({
      method: 'POST',
      url: '/api/notifications/read',
      token: beto.token,
      payload: { ids: [anaItem.id] },
    });
    expect(read.json().affected).toBe(0);
    const del = await t.request({ method: 'DELETE', url: `/api/notifications/${anaItem.id}`, token: beto.token });
    expect(del.statusCode).toBe(200);
    expect(del.json().affected).toBe(0);
    expect((await list(ana)).total).toBe(1);
  });

  it('deletes one, many and all; deleting an already deleted item answers cleanly', async () => {
    await notifyUsers({ db: t.database.db, userIds: [ana.id], title: 'A' });
    await notifyUsers({ db: t.database.db, userIds: [ana.id], title: 'B' });
    await notifyUsers({ db: t.database.db, userIds: [ana.id], title: 'C' });
    const items = (await list(ana)).items as { id: number; title: string }[];
    const one = await t.request({ method: 'DELETE', url: `/api/notifications/${items[0].id}`, token: ana.token });
    expect(one.json()).toEqual({ affected: 1, unread: 3 });
    const twice = await t.request({ method: 'DELETE', url: `/api/notifications/${items[0].id}`, token: ana.token });
    expect(twice.statusCode).toBe(200);
    expect(twice.json()).toEqual({ affected: 0, unread: 3 });
    const many = await t.request({
      method: 'POST',
      url: '/api/notifications/delete',
      token: ana.token,
      payload: { ids: [items[1].id, items[2].id, items[0].id] },
    });
    expect(many.json()).toEqual({ affected: 2, unread: 1 });
    const all = await t.request({ method: 'POST', url: '/api/notifications/delete', token: ana.token, payload: { all: true } });
    expect(all.json()).toEqual({ affected: 1, unread: 0 });
    expect((await list(ana)).total).toBe(0);
  });

  it('answers 400 in Spanish for a bad selection or id', async () => {
    const empty = await t.request({ method: 'POST', url: '/api/notifications/delete', token: ana.token, payload: { ids: [] } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.code).toBe('VALIDATION');
    const bad = await t.request({ method: 'DELETE', url: '/api/notifications/abc', token: ana.token });
    expect(bad.statusCode).toBe(400);
    const limit = await t.request({ method: 'GET', url: '/api/notifications?limit=0', token: ana.token });
    expect(limit.statusCode).toBe(400);
  });
});
