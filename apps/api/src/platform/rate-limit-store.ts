import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rateLimitHits } from '../db/schema/index.ts';

type Callback = (err: Error | null, res?: { current: number; ttl: number }) => void;
/** What the plugin passes to `child` (its typings say RouteOptions; at run time it is the merged limit params). */
type RouteParams = { routeInfo?: { method?: string | string[]; url?: string } };

/** Expired counters are removed at most this often (one DELETE), by whichever process counts a hit. */
const SWEEP_EVERY_MS = 60_000;

/**
 * A store for @fastify/rate-limit kept in the database (table `rate_limit_hits`): every API process
 * counts in the same row, so "30 sign-in attempts a minute per address" holds across processes — an
 * in-memory counter would allow 30 per process. One upsert per counted request; a fixed window per key.
 */
export function databaseRateLimitStore(db: Db) {
  let lastSweep = 0;
  return class DatabaseRateLimitStore {
    private readonly prefix: string;

    constructor(opts: unknown = {}) {
      const r = (opts as RouteParams | null)?.routeInfo;
      this.prefix = r ? `${[r.method].flat().join(',')} ${r.url}|` : '*|';
    }

    child(routeOptions: unknown) {
      return new DatabaseRateLimitStore(routeOptions);
    }

    incr(key: string, cb: Callback, timeWindow: number): void {
      this.count(this.prefix + key, timeWindow).then(
        (res) => cb(null, res),
        (err: Error) => cb(err),
      );
    }

    read(key: string, cb: Callback): void {
      db.select()
        .from(rateLimitHits)
        .where(sql`${rateLimitHits.key} = ${this.prefix + key} and ${rateLimitHits.windowEndsAt} > now()`)
        .then(
          ([row]) =>
            cb(
              null,
              row ? { current: row.hits, ttl: Math.max(0, row.windowEndsAt.getTime() - Date.now()) } : { current: 0, ttl: 0 },
            ),
          (err: Error) => cb(err),
        );
    }

    private async count(key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
      const ends = sql`now() + ${Math.max(1, Math.trunc(windowMs))} * interval '1 millisecond'`;
      const [row] = await db
        .insert(rateLimitHits)
        .values({ key: key.slice(0, 500), hits: 1, windowEndsAt: ends })
        .onConflictDoUpdate({
          target: rateLimitHits.key,
          set: {
            hits: sql`CASE WHEN ${rateLimitHits.windowEndsAt} <= now() THEN 1 ELSE ${rateLimitHits.hits} + 1 END`,
            windowEndsAt: sql`CASE WHEN ${rateLimitHits.windowEndsAt} <= now() THEN excluded.window_ends_at ELSE ${rateLimitHits.windowEndsAt} END`,
          },
        })
        .returning({
          hits: rateLimitHits.hits,
          ttl: sql<number>`greatest(0, floor(extract(epoch from (${rateLimitHits.windowEndsAt} - now())) * 1000))::float8`,
        });
      if (Date.now() - lastSweep > SWEEP_EVERY_MS) {
        lastSweep = Date.now();
        await db.delete(rateLimitHits).where(lt(rateLimitHits.windowEndsAt, sql`now() - interval '1 minute'`));
      }
      return { current: row.hits, ttl: Number(row.ttl) };
    }
  };
}
