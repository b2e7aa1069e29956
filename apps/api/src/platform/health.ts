import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * The database part of the health check, answered without waiting in the database's queue (issue 11).
 *
 * The embedded database has one connection: under a burst of searches a `select 1` waits behind every
 * statement already queued (health p95 2.2 s at 50 connections). So one probe runs at a time (concurrent
 * health checks share it) and a check waits for it at most `waitMs`; if it is still queued then, the
 * check answers with the last known state: healthy when a probe succeeded within `staleMs` and none has
 * failed since (before the first answer, the check waits for it). A probe that fails, or one stuck longer than `staleMs`, makes the check unhealthy.
 * On PostgreSQL the probe runs on the priority pool and normally answers at once; the same rules apply.
 */
export class HealthProbe {
  private lastOkAt = 0;
  private lastFailed = false;
  private inflight: Promise<boolean> | null = null;
  private startedAt = 0;

  constructor(
    private readonly db: Db,
    readonly waitMs = 100,
    readonly staleMs = 30_000,
    private readonly now = () => Date.now(),
  ) {}

  /** True when the database answers (or answered lately and is only busy). */
  async healthy(): Promise<boolean> {
    const probe = this.probe();
    // Nothing known yet (just started): the probe's own answer.
    if (!this.lastOkAt && !this.lastFailed) return probe;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<'busy'>((resolve) => {
      timer = setTimeout(() => resolve('busy'), this.waitMs);
    });
    const outcome = await Promise.race([probe, waited]);
    clearTimeout(timer);
    if (outcome !== 'busy') return outcome;
    // Queued behind other statements: the last known state, as long as it is recent and the probe is not stuck.
    const t = this.now();
    return !this.lastFailed && t - this.lastOkAt < this.staleMs && t - this.startedAt < this.staleMs;
  }

  private probe(): Promise<boolean> {
    if (!this.inflight) {
      this.startedAt = this.now();
      this.inflight = this.db
        .execute(sql`select 1`)
        .then(
          () => {
            this.lastOkAt = this.now();
            this.lastFailed = false;
            return true;
          },
          () => {
            this.lastFailed = true;
            return false;
          },
        )
        .finally(() => {
          this.inflight = null;
        });
    }
    return this.inflight;
  }
}
