import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('own profile and sessions', () => {
  it('shows and updates own names, audited', async () => {
    const u = await t.createUser();
    const res = await t.request({
      method: 'PUT',
      url: '/api/profile',
      token: u.token,
      payload: { firstName: ' Ana ', lastName: 'López' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ firstName: 'Ana', lastName: 'López', email: u.email, roles: [] });
    const me = await t.request({ method: 'GET', url: '/api/profile', token: u.token });
    expect(me.json().lastLoginAt).not.toBeNull();
    const bad = await t.request({
      method: 'PUT',
      url: '/api/profile',
      token: u.token,
      payload: { firstName: '', lastName: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    const rows = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'UPDATE_PROFILE'));
    expect(rows.some((r) => r.actorId === u.id)).toBe(true);
  });

  it('lists own open sessions marking the current one, never with token hashes', async () => {
    const u = await t.createUser();
    await t.login(u.email, u.password);
    const res = await t.request({ method: 'GET', url: '/api/profile/sessions', token: u.token });
    expect(res.json()).toHaveLength(2);
    expect(res.json().filter((s: { isCurrent: boolean }) => s.isCurrent)).toHaveLength(1);
    expect(res.body).not.toMatch(/tokenHash|token_hash/);
  });

  it("revokes one own session, refuses someone else's, and closes all the others", async () => {
    const u = await t.createUser();
    const other = await t.login(u.email, u.password);
    const third = await t.login(u.email, u.password);
    const stranger = await t.createUser();
    const sessions = (await t.request({ method: 'GET', url: '/api/profile/sessions', token: u.token })).json();
    const notCurrent = sessions.find((s: { isCurrent: boolean }) => !s.isCurrent);
    const foreign = await t.request({ method: 'DELETE', url: `/api/profile/sessions/${notCurrent.id}`, token: stranger.token });
    expect(foreign.statusCode).toBe(404);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/profile/sessions/${notCurrent.id}`, token: u.token })).statusCode,
    ).toBe(204);
    const res = await t.request({ method: 'POST', url: '/api/profile/sessions/revoke-others', token: u.token });
    expect(res.json()).toEqual({ revoked: 1 });
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token: u.token })).statusCode).toBe(200);
    for (const tok of [other, third])
      expect((await t.request({ method: 'GET', url: '/api/auth/me', token: tok })).statusCode).toBe(401);
  });
});
