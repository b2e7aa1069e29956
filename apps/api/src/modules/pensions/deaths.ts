import { AppError, msg, pensionMachine } from '@aporta/domain';
import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { pensionReviews, pensionSuspensions, pensions, renapLookups } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { pageOf } from '../../platform/list.ts';
import { applyTransition } from '../../platform/transitions.ts';
import type { RenapAdapter } from '../renap/adapter.ts';
import { lookupRenap } from '../renap/service.ts';
import { flagOwedMonths } from './owed-months.ts';
import { getPension, loadPension, today } from './service.ts';

/**
 * Acts on a death record of a pensioner: an active pension is suspended at once from the death date
 * (FALLECIMIENTO), and a review is opened (one per pension). A pension already suspended keeps its
 * suspension and gets the review. Returns whether a review was opened.
 */
export async function actOnDeath(
  ctx: RequestContext,
  tx: Db,
  p: { id: number; state: string; entityId: number | null },
  deathDate: string,
) {
  const [open] = await tx
    .select({ id: pensionReviews.id })
    .from(pensionReviews)
    .where(and(eq(pensionReviews.pensionId, p.id), eq(pensionReviews.state, 'ABIERTA')));
  if (open) return false;
  // The state as it is now, locked: the sweep read it earlier, and the daily suspension (or a person) may
  // have suspended or ended the pension since.
  const [now] = await tx.select({ state: pensions.state }).from(pensions).where(eq(pensions.id, p.id)).for('update');
  if (!now || now.state === 'FINALIZADA') return false;
  if (now.state === 'ACTIVA') {
    await applyTransition(ctx, {
      tx,
      machine: pensionMachine,
      table: pensions,
      id: p.id,
      to: 'SUSPENDIDA',
      comment: `RENAP registra el fallecimiento el ${deathDate}.`,
      entityId: pensions.entityId,
      set: () => ({ updatedAt: new Date() }),
    });
    await tx.insert(pensionSuspensions).values({
      pensionId: p.id,
      reason: 'FALLECIMIENTO',
      fromDate: deathDate,
      comment: 'Fallecimiento registrado en RENAP.',
    });
  }
  await tx.insert(pensionReviews).values({ pensionId: p.id, deathDate });
  await ctx.audit(
    { action: 'DEATH_REVIEW_OPEN', entityType: 'pension', entityId: p.id, after: { deathDate }, scopeEntityId: p.entityId },
    tx,
  );
  return true;
}

/**
 * Checks every open pension (active or suspended) against RENAP in chunks, logging each lookup; a
 * death record suspends and opens a review. The offline registry answers a chunk in one query.
 * Callers: the RENAP job (supervivencia APPROVE).
 */
export async function renapSweep(
  ctx: RequestContext,
  adapter: RenapAdapter,
  progress: (done: number, total: number) => Promise<void>,
  chunk = 2000,
) {
  const scope = ctx.inScope(pensions.entityId);
  const open = and(scope, sql`${pensions.state} <> 'FINALIZADA'`);
  const [{ total }] = await ctx.db.select({ total: count() }).from(pensions).where(open);
  let done = 0;
  let deaths = 0;
  let reviews = 0;
  let lastId = 0;
  await progress(0, total);
  for (;;) {
    const rows = await ctx.db
      .select({ id: pensions.id, cui: pensions.cui, state: pensions.state, entityId: pensions.entityId })
      .from(pensions)
      .where(and(open, gt(pensions.id, lastId)))
      .orderBy(pensions.id)
      .limit(chunk);
    if (!rows.length) break;
    lastId = rows[rows.length - 1].id;
    const started = Date.now();
    const found = await lookupMany(adapter, [...new Set(rows.map((r) => r.cui))]);
    const ms = Math.round((Date.now() - started) / Math.max(1, rows.length));
    await ctx.db.insert(renapLookups).values(
      rows.map((r) => ({
        userId: ctx.actor.id,
        userEmail: ctx.actor.email,
        cui: r.cui,
        source: adapter.source,
        result: found.has(r.cui) ? ('ENCONTRADO' as const) : ('NO_ENCONTRADO' as const),
        durationMs: ms,
        purpose: 'verificación periódica de pensionados',
      })),
    );
    const dead = rows.filter((r) => found.get(r.cui)?.deathDate);
    for (const r of dead) {
      deaths += 1;
      const opened = await ctx.db.transaction((tx) =>
        actOnDeath(ctx, tx as unknown as Db, r, found.get(r.cui)?.deathDate as string),
      );
      if (opened) reviews += 1;
    }
    done += rows.length;
    await progress(done, Math.max(total, done));
  }
  return { checked: done, deaths, reviewsOpened: reviews };
}

/** Looks up many CUIs: in one query on the offline registry, one by one over HTTP. */
async function lookupMany(adapter: RenapAdapter, cuis: string[]) {
  const out = new Map<string, { deathDate: string | null }>();
  if (adapter.lookupMany) {
    for (const p of await adapter.lookupMany(cuis)) out.set(p.cui, p);
    return out;
  }
  for (const cui of cuis) {
    const p = await adapter.lookup(cui).catch(() => null);
    if (p) out.set(cui, p);
  }
  return out;
}

// ─── Reviews ────────────────────────────────────────────────────────────────────────────────────────

const reviewsQuery = (db: Db) =>
  db
    .select({
      r: pensionReviews,
      cui: pensions.cui,
      fullName: pensions.fullName,
      entityId: pensions.entityId,
      state: pensions.state,
    })
    .from(pensionReviews)
    .innerJoin(pensions, eq(pensions.id, pensionReviews.pensionId));

const toReview = (x: Awaited<ReturnType<ReturnType<typeof reviewsQuery>['execute']>>[number]) => ({
  id: x.r.id,
  pensionId: x.r.pensionId,
  cui: x.cui,
  fullName: x.fullName,
  deathDate: x.r.deathDate,
  state: x.r.state,
  resolution: x.r.resolution,
  openedAt: x.r.openedAt.toISOString(),
  closedAt: x.r.closedAt?.toISOString() ?? null,
});

/** Death-record reviews within scope. Callers: supervivencia READ. */
export async function findReviews(
  ctx: RequestContext,
  query: { page: number; pageSize: number; state?: 'ABIERTA' | 'CONFIRMADA' | 'DESCARTADA' },
) {
  const where = and(ctx.inScope(pensions.entityId), query.state ? eq(pensionReviews.state, query.state) : undefined);
  const { limit, offset } = pageOf(query);
  const [rows, [{ total }]] = await Promise.all([
    reviewsQuery(ctx.db).where(where).orderBy(desc(pensionReviews.openedAt), desc(pensionReviews.id)).limit(limit).offset(offset),
    ctx.db
      .select({ total: count() })
      .from(pensionReviews)
      .innerJoin(pensions, eq(pensions.id, pensionReviews.pensionId))
      .where(where),
  ]);
  return { items: rows.map(toReview), total };
}

/**
 * Decides a death review: CONFIRMADA ends the pension on the death date (payments after it are named
 * in the resolution for recovery); DESCARTADA (RENAP was wrong) reactivates a pension suspended for
 * that death and flags its unpaid months. Callers: supervivencia APPROVE.
 */
export async function decideReview(
  ctx: RequestContext,
  input: { id: number; decision: 'CONFIRMADA' | 'DESCARTADA'; resolution: string },
) {
  const [x] = await reviewsQuery(ctx.db).where(and(eq(pensionReviews.id, input.id), ctx.inScope(pensions.entityId)));
  if (!x) throw new AppError('NOT_FOUND', msg('pensions.reviewNotFound'));
  if (x.r.state !== 'ABIERTA') throw new AppError('CONFLICT', msg('pensions.reviewClosed'));
  const now = today();
  await ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const [closed] = await db
      .update(pensionReviews)
      .set({ state: input.decision, resolution: input.resolution, closedAt: new Date(), closedBy: ctx.actor.email })
      .where(and(eq(pensionReviews.id, input.id), eq(pensionReviews.state, 'ABIERTA')))
      .returning();
    if (!closed) throw new AppError('CONFLICT', msg('pensions.reviewClosed'));
    const [open] = await db
      .select()
      .from(pensionSuspensions)
      .where(and(eq(pensionSuspensions.pensionId, x.r.pensionId), isNull(pensionSuspensions.toDate)));
    if (input.decision === 'CONFIRMADA' && x.state !== 'FINALIZADA') {
      await applyTransition(ctx, {
        tx: db,
        machine: pensionMachine,
        table: pensions,
        id: x.r.pensionId,
        to: 'FINALIZADA',
        comment: `Fallecimiento confirmado (${x.r.deathDate}): ${input.resolution}`,
        entityId: pensions.entityId,
        set: () => ({ endDate: x.r.deathDate, updatedAt: new Date() }),
      });
      if (open) await db.update(pensionSuspensions).set({ toDate: x.r.deathDate }).where(eq(pensionSuspensions.id, open.id));
    }
    if (input.decision === 'DESCARTADA' && x.state === 'SUSPENDIDA' && open?.reason === 'FALLECIMIENTO') {
      await applyTransition(ctx, {
        tx: db,
        machine: pensionMachine,
        table: pensions,
        id: x.r.pensionId,
        to: 'ACTIVA',
        comment: `Revisión de fallecimiento descartada: ${input.resolution}`,
        entityId: pensions.entityId,
        set: () => ({ updatedAt: new Date() }),
      });
      await db.update(pensionSuspensions).set({ toDate: now }).where(eq(pensionSuspensions.id, open.id));
      await flagOwedMonths(db, x.r.pensionId, open.id, open.fromDate, now);
    }
    await ctx.audit(
      {
        action: 'DEATH_REVIEW_DECIDE',
        entityType: 'pension',
        entityId: x.r.pensionId,
        after: { decision: input.decision, resolution: input.resolution },
        scopeEntityId: x.entityId,
      },
      db,
    );
  });
  return getPension(ctx, { id: x.r.pensionId });
}

/** A RENAP lookup of one pensioner from the pension page: a death record acts at once. Callers: supervivencia CREATE. */
export async function checkPensionerInRenap(ctx: RequestContext, input: { pensionId: number; adapter: RenapAdapter }) {
  const p = await loadPension(ctx.db, input.pensionId, ctx.inScope(pensions.entityId));
  const outcome = await lookupRenap({ db: ctx.db, adapter: input.adapter, actor: ctx.actor, cui: p.cui, purpose: 'pensionado' });
  const death = outcome.person?.deathDate ?? null;
  let reviewOpened = false;
  if (death && p.state !== 'FINALIZADA') {
    reviewOpened = await ctx.db.transaction((tx) => actOnDeath(ctx, tx as unknown as Db, p, death));
  }
  return { result: outcome.result, deathDate: death, reviewOpened, warning: outcome.warning?.text ?? null };
}
