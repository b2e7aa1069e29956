import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../db/client.ts';
import { createTestApp, type TestApp, type TestUser } from '../test/harness.ts';
import { systemActor, writeAudit } from './audit.ts';
import { canonicalAuditRow, chainHash, GENESIS_HASH, sealAuditChain, sealStep, verifyAuditChain } from './audit-chain.ts';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ system: true });
});
afterAll(() => t.close());

const db = () => t.database.db;
const exec = async <R>(q: ReturnType<typeof sql>) => rowsOf<R>(await db().execute(q));
let n = 0;
const region = async () => {
  n += 1;
  const res = await t.request({
    method: 'POST',
    url: '/api/collections/regions',
    token: admin.token,
    payload: { code: `CH${n}`, name: `Cadena ${n}` },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id as number;
};
const sealNow = async () => expect((await sealAuditChain(db(), { untilNow: true })).complete).toBe(true);
const lastIds = async (k: number) =>
  (await exec<{ id: string }>(sql`select id::text as id from audit_log order by audit_log.id desc limit ${k}`))
    .map((r) => Number(r.id))
    .reverse();

describe('the audit chain', () => {
  it('seals audited changes in id order and verifies them, gaps of rolled-back ids included', async () => {
    await region();
    // A transaction that wrote an audit row and rolled back leaves a gap in the ids: not a deletion.
    await db()
      .transaction(async (tx) => {
        await writeAudit(tx, systemActor, { action: 'UPDATE', entityType: 'regions', entityId: 1 });
        throw new Error('rollback');
      })
      .catch(() => {});
    const id = await region();
    await t.request({
      method: 'PATCH',
      url: `/api/collections/regions/${id}`,
      token: admin.token,
      payload: { name: 'Cadena cambiada' },
    });
    await sealNow();
    const v = await verifyAuditChain(db());
    const [{ total }] = await exec<{ total: string }>(sql`select count(*)::text as total from audit_log`);
    expect(v).toMatchObject({ intact: true, broken: null, pendingRows: 0, sealedRows: Number(total) });
    const [last] = await lastIds(1);
    expect(v.intactThroughId).toBe(last);
    // Every row is sealed, positions without gaps, each hash = SHA-256(previous hash ‖ canonical row).
    const rows = await exec<{ seq: string; id: string; prev_hash: string; hash: string }>(
      sql`select seq::text, id::text, prev_hash, hash from audit_log order by audit_log.id`,
    );
    expect(rows.map((r) => Number(r.seq))).toEqual(rows.map((_, i) => i + 1));
    expect(rows[0].prev_hash).toBe(GENESIS_HASH);
    for (let i = 1; i < rows.length; i++) expect(rows[i].prev_hash).toBe(rows[i - 1].hash);
    expect(v.headHash).toBe(rows[rows.length - 1].hash);
  });

  it('names a row changed directly in SQL, and is intact again once it is put back', async () => {
    await region();
    await region();
    await sealNow();
    const [x] = await lastIds(2);
    const [before] = await exec<{ after: unknown; action: string }>(sql`select after, action from audit_log where id = ${x}`);
    await db().execute(sql`update audit_log set after = '{"name":"Otra cosa"}'::jsonb where id = ${x}`);
    expect(await verifyAuditChain(db())).toMatchObject({ intact: false, broken: { kind: 'CHANGED', id: x } });
    // The timestamp alone, by a microsecond, is a change too.
    await db().execute(sql`update audit_log set after = ${JSON.stringify(before.after)}::jsonb where id = ${x}`);
    expect((await verifyAuditChain(db())).intact).toBe(true);
    await db().execute(sql`update audit_log set at = at + interval '1 microsecond' where id = ${x}`);
    expect((await verifyAuditChain(db())).broken).toMatchObject({ kind: 'CHANGED', id: x });
    await db().execute(sql`update audit_log set at = at - interval '1 microsecond' where id = ${x}`);
    // Its hash computed again for the new content: the next row's link still names it.
    await db().execute(sql`update audit_log set action = 'DELETE' where id = ${x}`);
    const [r] = await exec<Parameters<typeof canonicalAuditRow>[0]>(
      sql`select id::text as "id", seq::text as "seq", prev_id::text as "prevId",
            to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "at", actor_id::text as "actorId",
            actor_email as "actorEmail", action, entity_type as "entityType", entity_id as "entityId",
            before::text as "before", after::text as "after", ip, scope_entity_id::text as "scopeEntityId",
            prev_hash as "prevHash", hash from audit_log where id = ${x}`,
    );
    const forged = chainHash(r.prevHash!, canonicalAuditRow(r, r.seq!, r.prevId));
    const [{ hash: old }] = await exec<{ hash: string }>(sql`select hash from audit_log where id = ${x}`);
    await db().execute(sql`update audit_log set hash = ${forged} where id = ${x}`);
    expect((await verifyAuditChain(db())).broken).toMatchObject({ kind: 'CHANGED', id: x });
    await db().execute(sql`update audit_log set action = ${before.action}, hash = ${old} where id = ${x}`);
    expect((await verifyAuditChain(db())).intact).toBe(true);
  });

  it('names a deleted row, in the middle of the chain and at its end', async () => {
    await region();
    await region();
    await region();
    await sealNow();
    const [a, x, b] = await lastIds(3);
    await db().execute(sql`create temporary table kept as select * from audit_log where id in (${x}, ${b})`);
    await db().execute(sql`delete from audit_log where id = ${x}`);
    expect((await verifyAuditChain(db())).broken).toMatchObject({ kind: 'DELETED', id: x, missing: 1, afterId: a });
    await db().execute(sql`insert into audit_log select * from kept where id = ${x}`);
    expect((await verifyAuditChain(db())).intact).toBe(true);
    // The last sealed row: the head still names it.
    await db().execute(sql`delete from audit_log where id = ${b}`);
    expect((await verifyAuditChain(db())).broken).toMatchObject({ kind: 'DELETED', id: b, missing: 1, afterId: x });
    await db().execute(sql`insert into audit_log select * from kept where id = ${b}`);
    await db().execute(sql`drop table kept`);
    expect((await verifyAuditChain(db())).intact).toBe(true);
  });

  it('names rows inserted out of band: unsealed below the head, with a forged hash, or above the head', async () => {
    // A gap below the head (a rolled-back id) to slip rows into.
    await db()
      .transaction(async (tx) => {
        await writeAudit(tx, systemActor, { action: 'UPDATE', entityType: 'regions', entityId: 1 });
        throw new Error('rollback');
      })
      .catch(() => {});
    await region();
    await sealNow();
    const [gap] = await exec<{ id: string }>(
      sql`select (a.id + 1)::text as id from audit_log a where not exists (select 1 from audit_log b where b.id = a.id + 1)
          and a.id < (select max(id) from audit_log) order by a.id desc limit 1`,
    );
    const g = Number(gap.id);
    await db().execute(sql`insert into audit_log (id, action, entity_type) values (${g}, 'DELETE', 'regions')`);
    expect((await verifyAuditChain(db())).broken).toMatchObject({ kind: 'INSERTED', id: g });
    // With a forged position and hash: the position is taken twice.
    const [prev] = await exec<{ seq: string; id: string; hash: string }>(
      sql`select seq::text, id::text, hash from audit_log where id < ${g} order by audit_log.id desc limit 1`,
    );
    await db().execute(
      sql`update audit_log set seq = ${Number(prev.seq) + 1}, prev_id = ${prev.id}, prev_hash = ${prev.hash}, hash = ${'ab'.repeat(32)} where id = ${g}`,
    );
    expect((await verifyAuditChain(db())).broken).toMatchObject({ kind: 'INSERTED', id: g });
    await db().execute(sql`delete from audit_log where id = ${g}`);
    expect((await verifyAuditChain(db())).intact).toBe(true);
    // Above the head, already carrying a hash: the sealer never wrote it, and leaves it out of the chain.
    const [{ id: forged }] = await exec<{ id: string }>(
      sql`insert into audit_log (action, entity_type, seq, prev_hash, hash) values ('CREATE', 'regions', 999999, ${GENESIS_HASH}, ${'cd'.repeat(32)}) returning id::text`,
    );
    expect((await verifyAuditChain(db())).broken).toMatchObject({ kind: 'INSERTED', id: Number(forged) });
    await region();
    await sealNow();
    expect((await verifyAuditChain(db())).broken).toMatchObject({ kind: 'INSERTED', id: Number(forged) });
    await db().execute(sql`delete from audit_log where id = ${forged}`);
    expect((await verifyAuditChain(db())).intact).toBe(true);
  });

  it('names a head changed to hide a deletion, and a head deleted', async () => {
    await region();
    await sealNow();
    const [h] = await exec<{ last_hash: string }>(sql`select last_hash from audit_chain_head`);
    await db().execute(sql`update audit_chain_head set last_hash = ${'ef'.repeat(32)}`);
    expect((await verifyAuditChain(db())).broken).toMatchObject({ kind: 'HEAD' });
    await db().execute(sql`update audit_chain_head set last_hash = ${h.last_hash}`);
    expect((await verifyAuditChain(db())).intact).toBe(true);
    await db().execute(sql`create temporary table head_kept as select * from audit_chain_head`);
    await db().execute(sql`delete from audit_chain_head`);
    expect((await verifyAuditChain(db())).broken).toMatchObject({ kind: 'HEAD' });
    await expect(sealStep(db())).rejects.toThrow(/head/);
    await db().execute(sql`insert into audit_chain_head select * from head_kept`);
    await db().execute(sql`drop table head_kept`);
    expect((await verifyAuditChain(db())).intact).toBe(true);
  });

  it('chains 20 concurrent audited requests, and concurrent sealers, into one valid chain', async () => {
    const before = await lastIds(1);
    const sealers: Promise<unknown>[] = [];
    const writes = Array.from({ length: 20 }, async (_, i) => {
      if (i % 5 === 0) sealers.push(sealAuditChain(db()));
      return region();
    });
    await Promise.all(writes);
    await Promise.all(sealers);
    await sealNow();
    const v = await verifyAuditChain(db());
    expect(v).toMatchObject({ intact: true, pendingRows: 0 });
    const [{ unsealed, added }] = await exec<{ unsealed: string; added: string }>(
      sql`select count(*) filter (where hash is null)::text as unsealed, count(*) filter (where id > ${before[0]})::text as added from audit_log`,
    );
    expect(Number(unsealed)).toBe(0);
    expect(Number(added)).toBeGreaterThanOrEqual(20);
  });
});

/**
 * On PostgreSQL (TEST_DATABASE_URL), with real concurrent transactions: a row whose transaction commits
 * after a higher id was committed is never left behind (never "inserted out of band"), and the sealer
 * waits for it instead of sealing past it.
 */
describe.runIf(!!process.env.TEST_DATABASE_URL)('the audit chain on PostgreSQL', () => {
  it('waits for a transaction holding a lower id, then seals both in id order', async () => {
    const url = (t.database.db as unknown as { $client: pg.Pool }).$client.options.connectionString as string;
    const slow = new pg.Client({ connectionString: url });
    await slow.connect();
    try {
      await sealNow();
      await slow.query('begin');
      const held = await slow.query(
        `insert into audit_log (action, entity_type) values ('CREATE', 'slow') returning id::text as id`,
      );
      const heldId = Number(held.rows[0].id);
      const later = await region();
      expect(later).toBeGreaterThan(0);
      // Sealing now may not reach past the held id while its transaction is open.
      const r = await sealAuditChain(db(), { untilNow: true, timeoutMs: 500 });
      expect(r.complete).toBe(false);
      expect(r.sealedThrough).toBeLessThan(heldId);
      expect((await verifyAuditChain(db())).intact).toBe(true);
      await slow.query('commit');
      await sealNow();
      const v = await verifyAuditChain(db());
      expect(v).toMatchObject({ intact: true, pendingRows: 0 });
      const [row] = await exec<{ hash: string | null }>(sql`select hash from audit_log where id = ${heldId}`);
      expect(row.hash).not.toBeNull();
    } finally {
      await slow.end();
    }
  });

  it('keeps one chain with several writer connections and sealers racing', async () => {
    const url = (t.database.db as unknown as { $client: pg.Pool }).$client.options.connectionString as string;
    const pool = new pg.Pool({ connectionString: url, max: 8 });
    // pool.end() resolves before its idle connections have closed; the forced DROP of this test's database
    // may end one of them, and a pool without an 'error' listener would throw that out of the test run.
    pool.on('error', () => {});
    try {
      const writer = async (w: number) => {
        for (let i = 0; i < 25; i++) {
          const c = await pool.connect();
          try {
            await c.query('begin');
            await c.query(`insert into audit_log (action, entity_type, entity_id) values ('UPDATE', 'race', $1)`, [`${w}-${i}`]);
            if (i % 7 === 3) await c.query('rollback');
            else await c.query('commit');
          } finally {
            c.release();
          }
        }
      };
      const sealing = (async () => {
        for (let i = 0; i < 30; i++) await sealStep(db());
      })();
      await Promise.all([...Array.from({ length: 6 }, (_, w) => writer(w)), sealing]);
      await sealNow();
      expect(await verifyAuditChain(db())).toMatchObject({ intact: true, pendingRows: 0 });
    } finally {
      await pool.end();
    }
  });
});
