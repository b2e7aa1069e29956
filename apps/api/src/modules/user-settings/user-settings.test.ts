import { DEFAULT_LAYOUT_SETTINGS } from '@aporta/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userSettings } from '../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.ts';

let t: TestApp;
let u: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  u = await t.createUser();
});
afterAll(() => t.close());

const get = async (user: TestUser) =>
  (await t.request({ method: 'GET', url: '/api/user-settings/layout', token: user.token })).json();

describe('user layout settings', () => {
  it('answers the defaults when nothing is stored', async () => {
    expect(await get(u)).toEqual(DEFAULT_LAYOUT_SETTINGS);
  });

  it('stores the settings per user and answers them to another session of the same user', async () => {
    const data = { ...DEFAULT_LAYOUT_SETTINGS, layout: 'horizontal', theme: 'minimal', sidebarColor: 'light', mode: 'dark' };
    const res = await t.request({ method: 'PUT', url: '/api/user-settings/layout', token: u.token, payload: data });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(data);
    const otherSession = await t.login(u.email, u.password);
    const again = await t.request({ method: 'GET', url: '/api/user-settings/layout', token: otherSession });
    expect(again.json()).toEqual(data);
    const other = await t.createUser();
    expect(await get(other)).toEqual(DEFAULT_LAYOUT_SETTINGS);
  });

  it('stores auto mode as light', async () => {
    const res = await t.request({
      method: 'PUT',
      url: '/api/user-settings/layout',
      token: u.token,
      payload: { ...DEFAULT_LAYOUT_SETTINGS, mode: 'auto' },
    });
    expect(res.json().mode).toBe('light');
  });

  it('refuses unknown values naming the field', async () => {
    const res = await t.request({
      method: 'PUT',
      url: '/api/user-settings/layout',
      token: u.token,
      payload: { ...DEFAULT_LAYOUT_SETTINGS, sidebarSize: 'xl', mode: 'brand' },
    });
    expect(res.statusCode).toBe(400);
    const paths = res.json().error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['sidebarSize', 'mode']));
    const missing = await t.request({
      method: 'PUT',
      url: '/api/user-settings/layout',
      token: u.token,
      payload: { layout: 'vertical' },
    });
    expect(missing.statusCode).toBe(400);
  });

  it('reads a corrupt stored value as defaults, field by field', async () => {
    const v = await t.createUser();
    await t.database.db
      .insert(userSettings)
      .values({ userId: v.id, layout: { layout: 'diagonal', theme: 'modern', preloader: 7 } });
    expect(await get(v)).toEqual({ ...DEFAULT_LAYOUT_SETTINGS, theme: 'modern' });
    const w = await t.createUser();
    await t.database.db.insert(userSettings).values({ userId: w.id, layout: 'not an object' });
    expect(await get(w)).toEqual(DEFAULT_LAYOUT_SETTINGS);
  });
});

describe('app info', () => {
  it('is public and comes from the configuration', async () => {
    const res = await t.request({ method: 'GET', url: '/api/app-info' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ title: 'Aporta', acronym: 'APORTA', credit: t.config.APP_CREDIT, version: t.config.version });
  });
});
