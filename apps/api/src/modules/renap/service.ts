import {
  contributorFullName,
  type Message,
  msg,
  type RenapLookupLog,
  type RenapLookupQuery,
  type RenapLookupResponse,
  type RenapPerson,
  type RenapResult,
} from '@aporta/domain';
import { and, eq, gte, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { contributors, renapLookups } from '../../db/schema/index.ts';
import type { Actor } from '../../platform/audit.ts';
import type { RequestContext } from '../../platform/context.ts';
import { listPage, type Page } from '../../platform/list.ts';
import { type RenapAdapter, RenapUnavailableError } from './adapter.ts';

export interface RenapOutcome {
  result: RenapResult;
  person: RenapPerson | null;
  /** Why the registry gave no confirmation (a catalogue message; answers carry its Spanish text). */
  warning: Message | null;
}

/**
 * Looks a CUI up in RENAP and logs the lookup (who, when, which CUI, result). Never throws for an
 * outage: a timeout or an unavailable registry comes back as a warning, so saving goes on.
 */
export async function lookupRenap(opts: {
  db: Db;
  adapter: RenapAdapter;
  actor: Actor;
  cui: string;
  purpose: string;
}): Promise<RenapOutcome> {
  const { db, adapter, actor, cui } = opts;
  const started = Date.now();
  let outcome: RenapOutcome;
  try {
    const person = await adapter.lookup(cui);
    outcome = person
      ? { result: 'ENCONTRADO', person, warning: null }
      : { result: 'NO_ENCONTRADO', person: null, warning: msg('contributors.renapNotFound') };
  } catch (err) {
    const kind = err instanceof RenapUnavailableError ? err.kind : 'NO_DISPONIBLE';
    outcome = {
      result: kind,
      person: null,
      warning: kind === 'TIEMPO_AGOTADO' ? msg('contributors.renapTimeout') : msg('contributors.renapUnavailable'),
    };
  }
  await db.insert(renapLookups).values({
    userId: actor.id,
    userEmail: actor.email,
    cui,
    source: adapter.source,
    result: outcome.result,
    durationMs: Date.now() - started,
    purpose: opts.purpose,
  });
  return outcome;
}

/**
 * A screen's RENAP lookup: the registry data and whether a contributor has that CUI — named only when
 * that contributor lies within the route's scope (else null: never reveal another entity's
 * contributor). Callers: renap READ, contributors READ.
 */
export async function lookupForScreen(
  ctx: RequestContext,
  input: { adapter: RenapAdapter; cui: string },
): Promise<RenapLookupResponse> {
  const outcome = await lookupRenap({
    db: ctx.db,
    adapter: input.adapter,
    actor: ctx.actor,
    cui: input.cui,
    purpose: 'consulta',
  });
  const [c] = await ctx.db
    .select()
    .from(contributors)
    .where(and(eq(contributors.cui, input.cui), ctx.inScope(contributors.entityId)))
    .limit(1);
  return {
    cui: input.cui,
    ...outcome,
    warning: outcome.warning?.text ?? null,
    contributor: c ? { id: c.id, fullName: contributorFullName(c), cuiState: c.cuiState } : null,
  };
}

/**
 * The lookup log, newest first; filters by CUI, user and day range. A REGION or ENTITY grant on
 * `renap` sees the lookups of CUIs of contributors within its scope, and the lookups it made itself.
 * Callers: renap READ.
 */
export async function findRenapLookups(ctx: RequestContext, query: RenapLookupQuery): Promise<Page<RenapLookupLog>> {
  const { db } = ctx;
  const where: (SQL | undefined)[] = [];
  const inScope = ctx.inScope(contributors.entityId);
  if (inScope) {
    where.push(
      or(
        eq(renapLookups.userId, ctx.user.id),
        sql`exists (select 1 from ${contributors} where ${contributors.cui} = ${renapLookups.cui} and ${inScope})`,
      ),
    );
  }
  if (query.cui) where.push(eq(renapLookups.cui, query.cui));
  if (query.from) where.push(gte(renapLookups.at, new Date(`${query.from}T00:00:00Z`)));
  if (query.to) where.push(lt(renapLookups.at, new Date(new Date(`${query.to}T00:00:00Z`).getTime() + 86_400_000)));
  const cond = and(...where);
  const page = await listPage(db, {
    query: { ...query, sort: undefined },
    sortable: { id: renapLookups.id, at: renapLookups.at },
    defaultSort: '-at',
    rows: (c) =>
      db
        .select()
        .from(renapLookups)
        .where(and(cond, c.where))
        .orderBy(...c.order)
        .limit(c.limit)
        .offset(c.offset),
    idOf: (r) => r.id,
    count: () => db.select({ id: renapLookups.id }).from(renapLookups).where(cond),
    estimateTable: cond ? undefined : renapLookups,
  });
  return {
    ...page,
    items: page.items.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      userEmail: r.userEmail,
      cui: r.cui,
      source: r.source,
      result: r.result,
      durationMs: r.durationMs,
      purpose: r.purpose,
    })),
  };
}
