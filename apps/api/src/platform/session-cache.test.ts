import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles, userRoles, users } from '../db/schema/index.ts';
import { createTestApp, type TestApp, type TestUser } from '../test/harness.ts';
import { authenticate } from './session.ts';

/**
 * The session cache (platform/session.ts): a session is read once and reused, and logout, deactivation
 * and a change of grants through the API take effect on the very next request. On PostgreSQL a change
 * written by another connection (another API process) empties the cache through the 'aporta_auth'
 * notification.
 */
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ SESSION_CACHE_SECONDS: '60' });
  admin = await t.createUser({ system: true });
});
afterAll(() => t.close());

const me = (token: string) => t.request({ method: 'GET', url: '/api/auth/me', token });
const usersList = (token: string) => t.request({ method: 'GET', url: '/api/users?pageSize=1', token });

/** Retries `check` until it holds (a notification travels between connections), failing after 5 s. */
async function eventually(check: () => Promise<boolean>) {
  for (let i = 0; i < 50; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('session cache', () => {
  it('reuses a resolved session, and never reads the password hash to do it', async () => {
    const u = await t.createUser({ grants: [{ resource: 'users', action: 'READ', scope: 'ALL' }] });
    t.app.sessionCache.clear();
    expect((await me(u.token)).statusCode).toBe(200);
    expect(t.app.sessionCache.size).toBe(1);
    expect((await usersList(u.token)).statusCode).toBe(200);
    expect(t.app.sessionCache.size).toBe(1);
    // What a request knows of its user holds neither the hash nor a field for it.
    const [{ passwordHash }] = await t.database.db
      .select({ passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.id, u.id));
    const auth = await authenticate({ db: t.database.db, policy: t.app.authPolicy, token: u.token, ip: null });
    expect(JSON.stringify(auth)).not.toContain(passwordHash);
    expect(JSON.stringify(auth)).not.toContain('passwordHash');
  });

  it('logout, deactivation and a change of grants through the API apply on the next request', async () => {
    const a = await t.createUser({ grants: [{ resource: 'users', action: 'READ', scope: 'ALL' }] });
    expect((await usersList(a.token)).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: '/api/auth/logout', token: a.token })).statusCode).toBe(204);
    expect((await me(a.token)).statusCode).toBe(401);

    const b = await t.createUser({ grants: [{ resource: 'users', action: 'READ', scope: 'ALL' }] });
    expect((await usersList(b.token)).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: `/api/users/${b.id}/deactivate`, token: admin.token })).statusCode).toBe(200);
    expect((await me(b.token)).statusCode).toBe(401);

    const c = await t.createUser({ grants: [{ resource: 'users', action: 'READ', scope: 'ALL' }] });
    expect((await usersList(c.token)).statusCode).toBe(200);
    const [{ roleId }] = await t.database.db
      .select({ roleId: userRoles.roleId })
      .from(userRoles)
      .where(eq(userRoles.userId, c.id));
    const [role] = await t.database.db.select().from(roles).where(eq(roles.id, roleId));
    const put = await t.request({
      method: 'PUT',
      url: `/api/roles/${roleId}`,
      token: admin.token,
      payload: { name: role.name, description: '', grants: [{ resource: 'roles', action: 'READ', scope: 'ALL' }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await usersList(c.token)).statusCode).toBe(403);
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)('PostgreSQL: a change written by another connection empties the cache', async () => {
    const d = await t.createUser({ grants: [{ resource: 'users', action: 'READ', scope: 'ALL' }] });
    expect((await usersList(d.token)).statusCode).toBe(200);
    expect(t.app.sessionCache.size).toBeGreaterThan(0);
    // Another process: a connection of its own, outside this app.
    const [{ name }] = (
      (await t.database.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] }
    ).rows;
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    const other = new pg.Client({ connectionString: url.toString() });
    await other.connect();
    try {
      await other.query('delete from role_grants where role_id in (select role_id from user_roles where user_id = $1)', [d.id]);
      expect(await eventually(async () => (await usersList(d.token)).statusCode === 403)).toBe(true);
      await other.query('update users set is_active = false where id = $1', [d.id]);
      expect(await eventually(async () => (await me(d.token)).statusCode === 401)).toBe(true);
    } finally {
      await other.end();
    }
  });
});
