import type { RenapPerson } from '@aporta/domain';
import { eq, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { renapPeople } from '../../db/schema/index.ts';

/** Why RENAP gave no answer: it did not answer in time, or it answered with an error / not at all. */
export class RenapUnavailableError extends Error {
  constructor(
    readonly kind: 'TIEMPO_AGOTADO' | 'NO_DISPONIBLE',
    message: string,
  ) {
    super(message);
    this.name = 'RenapUnavailableError';
  }
}

/** The one interface to the national registry: a person, null when the CUI is unknown, or a throw. */
export interface RenapAdapter {
  readonly source: 'offline' | 'http';
  lookup(cui: string): Promise<RenapPerson | null>;
  /** Many CUIs at once (the periodic check of every pensioner); only the people found. Optional: without it, one lookup each. */
  lookupMany?(cuis: string[]): Promise<RenapPerson[]>;
}

/** The offline registry: the renap_people table (synthetic people in demo data). */
export function offlineRenap(db: Db): RenapAdapter {
  return {
    source: 'offline',
    async lookup(cui) {
      const [p] = await db.select().from(renapPeople).where(eq(renapPeople.cui, cui)).limit(1);
      return p ?? null;
    },
    async lookupMany(cuis) {
      if (!cuis.length) return [];
      // One array parameter, not one per CUI (a payroll asks 10 000 at a time).
      return db
        .select()
        .from(renapPeople)
        .where(sql`${renapPeople.cui} = any(${sql.param(cuis)}::text[])`);
    },
  };
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/**
 * The HTTP registry: `GET <url>/personas/<cui>` with a bearer credential; 200 → the person (fields as
 * in renap_people, camelCase), 404 → unknown. A network error, a 5xx or a timeout is retried
 * `retries` times, then reported as unavailable so the caller can warn and carry on.
 */
export function httpRenap(opts: { url: string; token?: string; timeoutMs: number; retries: number }): RenapAdapter {
  const base = opts.url.replace(/\/+$/, '');
  return {
    source: 'http',
    async lookup(cui) {
      let last: RenapUnavailableError | null = null;
      for (let attempt = 0; attempt <= opts.retries; attempt++) {
        try {
          const res = await fetch(`${base}/personas/${encodeURIComponent(cui)}`, {
            headers: { accept: 'application/json', ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
            signal: AbortSignal.timeout(opts.timeoutMs),
          });
          if (res.status === 404) return null;
          if (!res.ok) {
            last = new RenapUnavailableError('NO_DISPONIBLE', `RENAP respondió con el estado ${res.status}.`);
            if (res.status < 500) break;
            continue;
          }
          const b = (await res.json()) as Record<string, unknown>;
          const firstName = str(b.firstName);
          const firstSurname = str(b.firstSurname);
          const birthDate = str(b.birthDate);
          if (!firstName || !firstSurname || !birthDate) {
            throw new RenapUnavailableError('NO_DISPONIBLE', 'RENAP respondió con datos incompletos.');
          }
          return {
            cui,
            firstName,
            secondName: str(b.secondName),
            thirdName: str(b.thirdName),
            firstSurname,
            secondSurname: str(b.secondSurname),
            marriedSurname: str(b.marriedSurname),
            birthDate: birthDate.slice(0, 10),
            sex: str(b.sex) ?? '',
            deathDate: str(b.deathDate)?.slice(0, 10) ?? null,
          };
        } catch (err) {
          if (err instanceof RenapUnavailableError) throw err;
          const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
          last = timedOut
            ? new RenapUnavailableError('TIEMPO_AGOTADO', `RENAP no respondió en ${opts.timeoutMs} ms.`)
            : new RenapUnavailableError('NO_DISPONIBLE', 'No se pudo conectar con RENAP.');
        }
      }
      throw last ?? new RenapUnavailableError('NO_DISPONIBLE', 'No se pudo conectar con RENAP.');
    },
  };
}

const perDb = new WeakMap<object, RenapAdapter>();

/** The adapter the configuration chooses: HTTP when RENAP_URL is set, else the offline registry. */
export function renapAdapterFor(config: Config, db: Db): RenapAdapter {
  let adapter = perDb.get(db);
  if (!adapter) {
    adapter = config.RENAP_URL
      ? httpRenap({
          url: config.RENAP_URL,
          token: config.RENAP_TOKEN,
          timeoutMs: config.RENAP_TIMEOUT_MS,
          retries: config.RENAP_RETRIES,
        })
      : offlineRenap(db);
    perDb.set(db, adapter);
  }
  return adapter;
}
