import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, rowsOf } from '../db/client.ts';
import { auditLog } from '../db/schema/index.ts';

/**
 * The audit log's hash chain. Audit rows are inserted unchained, as always (no writer waits for another);
 * a **sealer** then chains them in id order: each row gets its position `seq` (1, 2, 3… without gaps),
 * the id and hash of the row before it, and
 *
 *     hash = SHA-256(prev_hash as 32 bytes ‖ UTF-8 of canonicalAuditRow(row))
 *
 * and `audit_chain_head` keeps how far the chain is sealed. `verifyAuditChain` walks it and names the first
 * row changed, deleted or inserted out of band.
 *
 * Which rows may be sealed (the proof, in docs/decisions.md "A tamper-evident audit log"): ids are drawn
 * from a sequence when a row is inserted, but rows become visible when their transaction commits, so a row
 * with a lower id may still appear after a higher one was seen. The id's default takes the transaction's id
 * (xid) *before* drawing from the sequence. A sealing run reads the sequence's value V, then takes a
 * transaction id X (its own): every transaction holding an id ≤ V drew it before V was read, so got its xid
 * before X was assigned, so has xid < X. A later run whose snapshot has xmin ≥ X knows all of them have
 * ended (committed: visible; rolled back: a gap in ids, never a row) and seals every row with id ≤ V. That
 * pair (V, X) is the head's fence. No writer is ever serialized; one sealer runs at a time across processes
 * (an advisory lock), and a long transaction only delays sealing, never a write.
 */

/** The previous hash of the first row of the chain. */
export const GENESIS_HASH = '0'.repeat(64);

/** The advisory lock held by the one sealer at a time (any process), and by verification's last step. */
const SEAL_LOCK = 730_512_301;

/** Rows sealed per transaction: short transactions, so the embedded database keeps serving between them. */
const SEAL_BATCH = 2000;

/** Rows read per query while verifying. */
const VERIFY_BATCH = 5000;

/** The fields the hash covers, as text exactly as the database gives them (no driver's number or date parsing). */
export interface ChainRow {
  id: string;
  seq: string | null;
  prevId: string | null;
  /** UTC, microseconds: 2026-11-30T14:05:09.123456Z */
  at: string;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  entityType: string;
  entityId: string | null;
  /** jsonb as PostgreSQL writes it (keys in its order, its spacing): the export's «Antes»/«Después» columns. */
  before: string | null;
  after: string | null;
  ip: string | null;
  scopeEntityId: string | null;
  prevHash: string | null;
  hash: string | null;
}

/** UTC with microseconds, as the hash covers it (a JavaScript Date would drop the microseconds). */
export const auditAtUtc: SQL<string> = sql<string>`to_char(${auditLog.at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const chainSelect = sql`select id::text as "id", seq::text as "seq", prev_id::text as "prevId",
    to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "at",
    actor_id::text as "actorId", actor_email as "actorEmail", action, entity_type as "entityType",
    entity_id as "entityId", before::text as "before", after::text as "after", ip,
    scope_entity_id::text as "scopeEntityId", prev_hash as "prevHash", hash
  from audit_log`;

const str = (v: string | null) => JSON.stringify(v);
/** An integer as its digits, or null. */
const int = (v: string | null) => (v == null ? 'null' : v);
/** A jsonb text is JSON already; SQL NULL and jsonb null are both null. */
const raw = (v: string | null) => (v == null ? 'null' : v);

/**
 * The canonical text of one audit row: a JSON object with these keys in this order, strings escaped as
 * JSON.stringify does, integers as digits, before/after as PostgreSQL's jsonb text. An auditor rebuilds it
 * from the export's columns.
 */
export function canonicalAuditRow(r: ChainRow, seq: string, prevId: string | null): string {
  return (
    `{"seq":${seq},"id":${r.id},"prevId":${int(prevId)},"at":${str(r.at)},"actorId":${int(r.actorId)},` +
    `"actorEmail":${str(r.actorEmail)},"action":${str(r.action)},"entityType":${str(r.entityType)},` +
    `"entityId":${str(r.entityId)},"before":${raw(r.before)},"after":${raw(r.after)},"ip":${str(r.ip)},` +
    `"scopeEntityId":${int(r.scopeEntityId)}}`
  );
}

/** SHA-256 of the previous hash (32 bytes) followed by the row's canonical text, in hex. */
export function chainHash(prevHash: string, canonical: string): string {
  return createHash('sha256').update(Buffer.from(prevHash, 'hex')).update(canonical, 'utf8').digest('hex');
}

interface HeadRow {
  sealedThrough: string;
  lastRowId: string | null;
  lastSeq: string;
  lastHash: string;
  fenceId: string | null;
  /** The fence's transaction has ended and so has every one before it. */
  passed: boolean;
  /** The id sequence's value now (null before any row was ever written). */
  seqValue: string | null;
  sealedAt: string | null;
}

export class AuditChainHeadMissingError extends Error {
  constructor() {
    super('audit_chain_head has no row: the chain head was deleted');
  }
}

async function readHead(db: Db, withFence: boolean): Promise<HeadRow | null> {
  // One statement, one snapshot: the sequence's value V is read before this run takes its own xid
  // (the next fence's X), and `passed` is judged before any row is read.
  const [head] = rowsOf<HeadRow>(
    await db.execute(sql`select sealed_through::text as "sealedThrough", last_row_id::text as "lastRowId",
        last_seq::text as "lastSeq", last_hash as "lastHash", fence_id::text as "fenceId",
        ${withFence ? sql`coalesce(fence_xid <= pg_snapshot_xmin(pg_current_snapshot()), false)` : sql`false`} as "passed",
        ${withFence ? sql`pg_sequence_last_value('audit_log_id_seq'::regclass)::text` : sql`null`} as "seqValue",
        sealed_at::text as "sealedAt"
      from audit_chain_head where id = 1`),
  );
  return head ?? null;
}

export interface SealStep {
  /** Another process (or call) was sealing: nothing done. */
  busy: boolean;
  /** Rows chained by this step. */
  sealed: number;
  /** Every row with id ≤ this is sealed (or never committed). */
  sealedThrough: number;
  /** Rows up to the fence wait for an unfinished transaction (or the fence was just set). */
  waiting: boolean;
  /** More rows up to the fence remain: run again at once. */
  more: boolean;
}

/**
 * One sealing transaction: chains up to SEAL_BATCH rows below the head's fence when the fence has passed,
 * and sets the next fence once the last one is reached. `wait`: wait for the lock instead of giving way.
 */
export async function sealStep(db: Db, opts: { wait?: boolean } = {}): Promise<SealStep> {
  return db.transaction(async (tx) => {
    if (opts.wait) await tx.execute(sql`select pg_advisory_xact_lock(${SEAL_LOCK})`);
    else {
      const [lock] = rowsOf<{ ok: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${SEAL_LOCK}) as ok`));
      if (!lock.ok) return { busy: true, sealed: 0, sealedThrough: 0, waiting: false, more: false };
    }
    const head = await readHead(tx, true);
    if (!head) throw new AuditChainHeadMissingError();
    let through = Number(head.sealedThrough);
    let seq = Number(head.lastSeq);
    let prevId = head.lastRowId;
    let prevHash = head.lastHash;
    const fence = head.fenceId == null ? null : Number(head.fenceId);
    const seqValue = head.seqValue == null ? 0 : Number(head.seqValue);
    let sealed = 0;
    let more = false;
    if (fence != null && fence > through) {
      if (!head.passed) return { busy: false, sealed: 0, sealedThrough: through, waiting: true, more: false };
      // Every id ≤ fence is settled: chain the unsealed rows among them, in id order. A row that already
      // carries a hash here was not written by the application: it is left out of the chain, and
      // verification names it.
      const rows = rowsOf<ChainRow>(
        await tx.execute(sql`${chainSelect} where id > ${through} and id <= ${fence} order by audit_log.id limit ${SEAL_BATCH}`),
      );
      const ids: string[] = [];
      const seqs: number[] = [];
      const prevIds: string[] = [];
      const prevHashes: string[] = [];
      const hashes: string[] = [];
      for (const r of rows) {
        if (r.hash != null) continue;
        seq += 1;
        const hash = chainHash(prevHash, canonicalAuditRow(r, String(seq), prevId));
        ids.push(r.id);
        seqs.push(seq);
        prevIds.push(prevId ?? '');
        prevHashes.push(prevHash);
        hashes.push(hash);
        prevId = r.id;
        prevHash = hash;
      }
      if (ids.length) {
        await tx.execute(sql`update audit_log a
            set seq = v.seq, prev_id = nullif(v.prev_id, '')::bigint, prev_hash = v.prev_hash, hash = v.hash
          from unnest(string_to_array(${ids.join(',')}, ',')::bigint[], string_to_array(${seqs.join(',')}, ',')::bigint[],
                      string_to_array(${prevIds.join(',')}, ','), string_to_array(${prevHashes.join(',')}, ','),
                      string_to_array(${hashes.join(',')}, ',')) as v(id, seq, prev_id, prev_hash, hash)
          where a.id = v.id`);
      }
      sealed = ids.length;
      more = rows.length === SEAL_BATCH && Number(rows[rows.length - 1].id) < fence;
      through = more ? Number(rows[rows.length - 1].id) : fence;
    }
    // The fence reached (or none yet): the next one is the sequence's value read above and this
    // transaction's own id, taken now — after that read.
    const fenceReached = fence != null && through >= fence;
    const nextFence = !more && (fenceReached || fence == null) && seqValue > through ? seqValue : null;
    if (sealed > 0 || through !== Number(head.sealedThrough) || fenceReached || nextFence != null) {
      await tx.execute(sql`update audit_chain_head set
          sealed_through = ${through}, last_row_id = ${prevId}, last_seq = ${seq}, last_hash = ${prevHash},
          fence_id = ${fenceReached || fence == null ? nextFence : fence},
          fence_xid = ${fenceReached || fence == null ? (nextFence == null ? null : sql`pg_current_xact_id()`) : sql`fence_xid`},
          sealed_at = ${sealed > 0 ? sql`now()` : sql`sealed_at`}
        where id = 1`);
    }
    const waiting = more ? false : nextFence != null || (fence != null && !fenceReached);
    return { busy: false, sealed, sealedThrough: through, waiting, more };
  });
}

/**
 * Seals what can be sealed now. `until`: keep going (waiting for unfinished transactions, `timeoutMs` at
 * most) until every row written before the call is sealed — what verification and tests need. Without it,
 * one pass: batches until the fence, then sets the next fence (the background sealer's run).
 */
export async function sealAuditChain(
  db: Db,
  opts: { untilNow?: boolean; timeoutMs?: number; wait?: boolean } = {},
): Promise<{ sealed: number; sealedThrough: number; complete: boolean }> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  let target = 0;
  if (opts.untilNow) {
    const [row] = rowsOf<{ v: string | null }>(
      await db.execute(sql`select pg_sequence_last_value('audit_log_id_seq'::regclass)::text as v`),
    );
    target = Number(row?.v ?? 0);
  }
  let sealed = 0;
  let through = 0;
  for (let round = 0; ; round++) {
    const step = await sealStep(db, { wait: opts.wait ?? opts.untilNow });
    sealed += step.sealed;
    if (step.busy) return { sealed, sealedThrough: through, complete: false };
    through = step.sealedThrough;
    if (step.more) {
      // Let other work of this process (and of the embedded database) through between batches.
      await new Promise((r) => setImmediate(r));
      continue;
    }
    if (!opts.untilNow) {
      // A fresh fence may pass at once (no older transaction running): seal it in the same pass.
      if (step.waiting && round === 0) continue;
      return { sealed, sealedThrough: through, complete: true };
    }
    if (through >= target) return { sealed, sealedThrough: through, complete: true };
    if (Date.now() > deadline) return { sealed, sealedThrough: through, complete: false };
    if (step.waiting && step.sealed === 0 && round > 0) await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Seals in the background: every `everyMs` (and soon after `nudge()`), one pass. One per server process;
 * the advisory lock keeps two processes from sealing at once (the other gives way).
 */
export class AuditSealer {
  private timer: NodeJS.Timeout | null = null;
  private dueAt = 0;
  private running: Promise<void> | null = null;
  private stopped = true;
  constructor(
    private readonly db: Db,
    private readonly opts: { everyMs?: number; log?: Pick<FastifyBaseLogger, 'error'> } = {},
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(this.opts.everyMs ?? 1000);
  }

  /** After audited writes: a pass within 100 ms (writes close together share it). */
  nudge(): void {
    if (this.stopped || this.running || this.dueAt - Date.now() <= 100) return;
    this.schedule(100);
  }

  private schedule(ms: number) {
    if (this.timer) clearTimeout(this.timer);
    this.dueAt = Date.now() + ms;
    this.timer = setTimeout(() => void this.pass(), ms);
    this.timer.unref();
  }

  private async pass(): Promise<void> {
    this.timer = null;
    if (this.stopped) return;
    this.running = sealAuditChain(this.db)
      .then(() => {})
      .catch((err) => this.opts.log?.error({ err }, 'audit chain: sealing failed'));
    await this.running;
    this.running = null;
    if (!this.stopped) this.schedule(this.opts.everyMs ?? 1000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}

export type ChainBreakKind = 'CHANGED' | 'DELETED' | 'INSERTED' | 'HEAD';

export interface ChainBreak {
  kind: ChainBreakKind;
  /** The row named: changed, inserted out of band, or (deleted) the last of the missing rows, when known. */
  id: number | null;
  /** Its position in the chain (the first missing one, for a deletion). */
  seq: number | null;
  /** Deleted: how many rows are missing, and the sealed row they followed (null: the chain's start). */
  missing: number;
  afterId: number | null;
}

export interface ChainVerdict {
  intact: boolean;
  /** Rows in the chain checked (sealed). */
  sealedRows: number;
  /** The last sealed row checked intact: «Cadena íntegra hasta el registro N». */
  intactThroughId: number | null;
  /** The head's hash (the last sealed row's), to keep outside the database as an anchor. */
  headHash: string;
  /** Rows written but not sealed yet (above the head: the window before sealing). */
  pendingRows: number;
  broken: ChainBreak | null;
}

async function* rowsFrom(db: Db, afterId: number, throughId: number | null): AsyncGenerator<ChainRow> {
  let cursor = afterId;
  for (;;) {
    const upper = throughId == null ? sql`` : sql` and id <= ${throughId}`;
    const rows = rowsOf<ChainRow>(
      await db.execute(sql`${chainSelect} where id > ${cursor}${upper} order by audit_log.id limit ${VERIFY_BATCH}`),
    );
    yield* rows;
    if (rows.length < VERIFY_BATCH) return;
    cursor = Number(rows[rows.length - 1].id);
  }
}

/** The walk's state: what the next sealed row must continue. */
interface Walk {
  seq: number;
  prevId: string | null;
  prevHash: string;
  broken: ChainBreak | null;
}

/** Checks one row against the chain so far (`next`: the row after it, to tell an insertion from a change). */
function checkRow(w: Walk, r: ChainRow, next: ChainRow | undefined, lastSeq: number): void {
  const id = Number(r.id);
  const expected = w.seq + 1;
  const inserted = () => {
    w.broken = { kind: 'INSERTED', id, seq: r.seq == null ? null : Number(r.seq), missing: 0, afterId: numOrNull(w.prevId) };
  };
  // Unsealed below the head, a position already taken, or beyond the head's: not the sealer's.
  if (r.hash == null || r.seq == null || Number(r.seq) < expected || Number(r.seq) > lastSeq) {
    inserted();
    return;
  }
  const seq = Number(r.seq);
  // The row after it holds the position expected: this one was slipped in.
  if (next && next.seq != null && Number(next.seq) === expected && seq !== expected) {
    inserted();
    return;
  }
  const selfConsistent = r.prevHash != null && chainHash(r.prevHash, canonicalAuditRow(r, r.seq, r.prevId)) === r.hash;
  if (seq > expected) {
    w.broken = {
      kind: 'DELETED',
      id: selfConsistent && r.prevId != null && r.prevId !== w.prevId ? Number(r.prevId) : null,
      seq: expected,
      missing: seq - expected,
      afterId: numOrNull(w.prevId),
    };
    return;
  }
  const hash = chainHash(w.prevHash, canonicalAuditRow(r, r.seq, w.prevId));
  if (hash === r.hash && r.prevHash === w.prevHash && r.prevId === w.prevId) {
    w.seq = seq;
    w.prevId = r.id;
    w.prevHash = hash;
    return;
  }
  if (next && next.seq != null && Number(next.seq) === seq) {
    inserted();
    return;
  }
  // Consistent with itself, after the right row, but that row's hash is not the one it was chained to:
  // the row before was changed and its hash computed again.
  if (selfConsistent && r.prevId === w.prevId && r.prevHash !== w.prevHash && w.prevId != null) {
    w.broken = { kind: 'CHANGED', id: Number(w.prevId), seq: seq - 1, missing: 0, afterId: null };
    return;
  }
  // Consistent with itself but linked to a row that is gone, renumbered after it: a deletion.
  if (selfConsistent && r.prevId != null && w.prevId != null && Number(r.prevId) > Number(w.prevId)) {
    w.broken = { kind: 'DELETED', id: Number(r.prevId), seq, missing: 1, afterId: Number(w.prevId) };
    return;
  }
  w.broken = { kind: 'CHANGED', id, seq, missing: 0, afterId: numOrNull(w.prevId) };
}

const numOrNull = (v: string | null) => (v == null ? null : Number(v));

/**
 * Walks the chain in id order and names the first row changed (its content or hash does not match),
 * deleted (a position missing: rows after it name their predecessor), or inserted out of band (unsealed
 * below the head, a position taken twice, or a hash above the head the sealer never wrote). The sealed
 * part is read in batches without holding anything; the last stretch and the rows above the head are read
 * holding the sealing lock, so a sealer running meanwhile is never mistaken for tampering.
 */
export async function verifyAuditChain(db: Db): Promise<ChainVerdict> {
  const first = await readHead(db, false);
  const w: Walk = { seq: 0, prevId: null, prevHash: GENESIS_HASH, broken: null };
  const verdict = (head: HeadRow | null, pendingRows: number): ChainVerdict => ({
    intact: w.broken == null,
    sealedRows: w.seq,
    intactThroughId: numOrNull(w.prevId),
    headHash: head?.lastHash ?? w.prevHash,
    pendingRows,
    broken: w.broken,
  });
  if (!first) {
    w.broken = { kind: 'HEAD', id: null, seq: null, missing: 0, afterId: null };
    return verdict(null, 0);
  }
  const walk = async (tx: Db, after: number, through: number | null, lastSeq: number): Promise<number> => {
    let pending: ChainRow | undefined;
    let last = after;
    for await (const r of rowsFrom(tx, after, through)) {
      if (pending && !w.broken) checkRow(w, pending, r, lastSeq);
      if (w.broken) return last;
      pending = r;
      last = Number(r.id);
    }
    if (pending && !w.broken) checkRow(w, pending, undefined, lastSeq);
    return last;
  };
  const firstThrough = Number(first.sealedThrough);
  await walk(db, 0, firstThrough, Number(first.lastSeq));
  if (w.broken) return verdict(first, 0);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEAL_LOCK})`);
    const head = await readHead(tx, false);
    if (!head) {
      w.broken = { kind: 'HEAD', id: null, seq: null, missing: 0, afterId: null };
      return verdict(null, 0);
    }
    const through = Number(head.sealedThrough);
    const lastSeq = Number(head.lastSeq);
    if (through > firstThrough) await walk(tx, firstThrough, through, lastSeq);
    if (w.broken) return verdict(head, 0);
    if (lastSeq > w.seq) {
      // The last sealed rows are gone: the head still names them.
      w.broken = {
        kind: 'DELETED',
        id: numOrNull(head.lastRowId),
        seq: w.seq + 1,
        missing: lastSeq - w.seq,
        afterId: numOrNull(w.prevId),
      };
      return verdict(head, 0);
    }
    if (lastSeq !== w.seq || head.lastHash !== w.prevHash || head.lastRowId !== w.prevId || through < Number(w.prevId ?? 0)) {
      w.broken = { kind: 'HEAD', id: numOrNull(head.lastRowId), seq: lastSeq, missing: 0, afterId: numOrNull(w.prevId) };
      return verdict(head, 0);
    }
    const [above] = rowsOf<{ forged: string | null; pending: string }>(
      await tx.execute(sql`select min(id) filter (where hash is not null or seq is not null)::text as forged,
          count(*) filter (where hash is null and seq is null)::text as pending
        from audit_log where id > ${through}`),
    );
    if (above.forged != null) {
      w.broken = { kind: 'INSERTED', id: Number(above.forged), seq: null, missing: 0, afterId: numOrNull(w.prevId) };
    }
    return verdict(head, Number(above.pending));
  });
}
