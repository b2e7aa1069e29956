import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contributorFixtures, newCui } from '../modules/contributors/fixtures.ts';
import { createTestApp, type TestApp, type TestUser } from '../test/harness.ts';
import { toAppError } from './db-errors.ts';
import { BUSY_MESSAGE, expensiveSearch } from './load.ts';

/**
 * A server that degrades, never fails (issue 11): with every slot for expensive searches taken, a name
 * search is answered 503 with Retry-After and a Spanish message at once, while the health check,
 * sign-in, session checks and cheap lookups still answer. On PostgreSQL (CI) the main pool itself is
 * held busy: health and sign-in answer from their own pool, a read that would queue behind a long line
 * is refused with 503, and a statement past the search timeout is a 503, never a 500.
 */
let t: TestApp;
let admin: TestUser;
let cui: string;

beforeAll(async () => {
  t = await createTestApp({ SEARCH_CONCURRENCY: '1', SEARCH_QUEUE: '0', MAX_POOL_WAITING: '1' });
  admin = await t.createUser({ system: true });
  const fx = await contributorFixtures(t.database.db);
  cui = newCui();
  const res = await t.request({
    method: 'POST',
    url: '/api/contributors',
    token: admin.token,
    payload: {
      cui,
      firstName: 'Saturnino',
      firstSurname: 'Ocupado',
      birthDate: '1980-01-01',
      sex: 'M',
      typeId: fx.typeId,
      entityId: fx.entityA.id,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
});
afterAll(() => t.close());

const isPostgres = () => t.database.kind === 'postgresql';

describe('under overload', () => {
  it('refuses a name search with 503 + Retry-After while the search slots are taken; health, sign-in and lookups answer', async () => {
    const release = await t.app.searchGate.acquire();
    try {
      const search = await t.request({ method: 'GET', url: '/api/contributors?q=saturnino', token: admin.token });
      expect(search.statusCode).toBe(503);
      expect(search.headers['retry-after']).toBe('2');
      expect(search.json().error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: BUSY_MESSAGE });
      const palette = await t.request({ method: 'GET', url: '/api/contributors/search?q=saturnino', token: admin.token });
      expect(palette.statusCode).toBe(503);

      expect((await t.request({ method: 'GET', url: '/api/health' })).json()).toMatchObject({ status: 'ok' });
      const login = await t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: admin.email, password: admin.password },
      });
      expect(login.statusCode).toBe(200);
      expect((await t.request({ method: 'GET', url: '/api/auth/me', token: login.json().token })).statusCode).toBe(200);
      const byCui = await t.request({ method: 'GET', url: `/api/contributors?q=${cui}`, token: admin.token });
      expect(byCui.statusCode).toBe(200);
      expect(byCui.json().items).toHaveLength(1);
      expect((await t.request({ method: 'GET', url: '/api/contributors?pageSize=5', token: admin.token })).statusCode).toBe(200);
    } finally {
      release();
    }
    const again = await t.request({ method: 'GET', url: '/api/contributors?q=saturnino', token: admin.token });
    expect(again.statusCode).toBe(200);
    expect(again.json().items[0].cui).toBe(cui);
  });

  it('answers a statement cut by its timeout, or a pool without connections, as 503 (never 500)', () => {
    expect(
      toAppError(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014', severity: 'ERROR' })),
    ).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    expect(toAppError(new Error('timeout exceeded when trying to connect'))).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    'PostgreSQL: with the main pool held busy, health and sign-in answer and a queued read gets 503',
    async () => {
      expect(isPostgres()).toBe(true);
      let held = true;
      // Every connection of the main pool (4 in tests) sleeps; two list reads queue behind them (at least two
      // statements waiting for a connection, more than MAX_POOL_WAITING = 1, whether or not a page needs its
      // count).
      const sleepers = Array.from({ length: 4 }, () => t.database.db.execute(sql`select pg_sleep(4)`));
      const finished = Promise.all(sleepers).then(() => {
        held = false;
      });
      const queued = [1, 2].map(() => t.request({ method: 'GET', url: '/api/contributors?pageSize=5', token: admin.token }));
      await new Promise((r) => setTimeout(r, 200));
      const health = await t.request({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      const login = await t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: admin.email, password: admin.password },
      });
      expect(login.statusCode).toBe(200);
      const shed = await t.request({ method: 'GET', url: '/api/contributors?pageSize=5', token: admin.token });
      expect(shed.statusCode).toBe(503);
      expect(shed.headers['retry-after']).toBe('2');
      // All of that while the pool was still held.
      expect(held).toBe(true);
      await finished;
      for (const r of await Promise.all(queued)) expect(r.statusCode).toBe(200);
      // A statement past the search timeout is cut by PostgreSQL and answered 503.
      const err = await expensiveSearch(t.database.db, (tx) => tx.execute(sql`select pg_sleep(10)`)).catch((e) => e);
      expect(toAppError(err)).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    },
  );
});
