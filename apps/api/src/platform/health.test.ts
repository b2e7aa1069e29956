import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { HealthProbe } from './health.ts';

/**
 * The health check never waits in the database's queue (issue 11): on the embedded database (one
 * connection) a transaction holding it does not hold the health check, which reports the last known state;
 * a database that fails, or stays stuck past `staleMs`, is reported unhealthy.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('health check', () => {
  it('answers ok while the embedded database is held by a long transaction, before it ends', async () => {
    expect((await t.request({ method: 'GET', url: '/api/health' })).json()).toMatchObject({ status: 'ok' });
    if (t.database.kind !== 'pglite') return; // PostgreSQL: the priority pool (overload.test.ts)
    let release!: () => void;
    let ended = false;
    const held = t.database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    try {
      // The transaction holds the only connection: the probe queues behind it, the check does not.
      const res = await t.request({ method: 'GET', url: '/api/health' });
      expect(ended).toBe(false);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'ok', database: 'pglite' });
    } finally {
      release();
      await held;
      ended = true;
    }
    expect((await t.request({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('shares one probe among concurrent checks; a failed probe or one stuck past staleMs is unhealthy', async () => {
    let calls = 0;
    let answer: (() => void) | null = null;
    let fail = false;
    const fake = {
      execute: () => {
        calls += 1;
        if (fail) return Promise.reject(new Error('sin base'));
        return new Promise<void>((resolve) => {
          answer = resolve;
        });
      },
    } as unknown as Db;
    let now = 1_000;
    const probe = new HealthProbe(fake, 5, 30_000, () => now);
    // Nothing known yet: the first check waits for the probe's answer.
    const first = probe.healthy();
    answer!();
    expect(await first).toBe(true);
    // Busy: five checks, one probe; each answers the last known state.
    const checks = await Promise.all([1, 2, 3, 4, 5].map(() => probe.healthy()));
    expect(checks).toEqual([true, true, true, true, true]);
    expect(calls).toBe(2);
    // Still queued 30 s later: stuck, unhealthy.
    now += 30_000;
    expect(await probe.healthy()).toBe(false);
    answer!();
    await new Promise((r) => setImmediate(r));
    // The database fails: unhealthy at once, and afterwards until a probe succeeds.
    fail = true;
    expect(await probe.healthy()).toBe(false);
    fail = false;
    const back = probe.healthy();
    answer!();
    expect(await back).toBe(true);
  });
});
