// What a review reads and writes beside the lines: the history of steps, comments, the comparison with the
// previous period.
import {
  AppError,
  decimalToCents,
  detail,
  msg,
  type PlanillaComment,
  type PlanillaComparison,
  planillaMachine,
} from '@aporta/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { planillaComments, planillaLines, planillas } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { findTransitionHistory } from '../../platform/transitions.ts';
import { previousPlanilla } from './calculation.ts';
import { loadRow, money } from './queries.ts';

export async function findPlanillaHistory(ctx: RequestContext, input: { id: number }) {
  await loadRow(ctx, ctx.db, input.id);
  return findTransitionHistory(ctx.db, planillaMachine, input.id);
}

export async function findPlanillaComments(ctx: RequestContext, input: { id: number }): Promise<PlanillaComment[]> {
  await loadRow(ctx, ctx.db, input.id);
  const rows = await ctx.db
    .select({ c: planillaComments, lineRow: planillaLines.rowNumber, lineCui: planillaLines.cui })
    .from(planillaComments)
    .leftJoin(planillaLines, eq(planillaLines.id, planillaComments.lineId))
    .where(eq(planillaComments.planillaId, input.id))
    .orderBy(asc(planillaComments.createdAt), asc(planillaComments.id));
  return rows.map(({ c, lineRow, lineCui }) => ({
    id: c.id,
    lineId: c.lineId,
    lineRow,
    lineCui,
    body: c.body,
    authorEmail: c.authorEmail,
    transition: c.transition,
    createdAt: c.createdAt.toISOString(),
  }));
}

/** A comment on a planilla (general or about one of its lines). Callers: planillas READ within scope. */
export async function addPlanillaComment(ctx: RequestContext, input: { id: number; body: string; lineId?: number | null }) {
  const row = await loadRow(ctx, ctx.db, input.id);
  await ctx.db.transaction(async (tx) => {
    if (input.lineId) await assertLineOf(tx, input.id, input.lineId);
    await tx.insert(planillaComments).values({
      planillaId: input.id,
      lineId: input.lineId ?? null,
      body: input.body,
      authorId: ctx.actor.id,
      authorEmail: ctx.actor.email,
    });
    await ctx.audit(
      {
        action: 'PLANILLA_COMMENT',
        entityType: 'planilla',
        entityId: input.id,
        after: { body: input.body, lineId: input.lineId ?? null },
        scopeEntityId: row.p.entityId,
      },
      tx,
    );
  });
  return findPlanillaComments(ctx, { id: input.id });
}

export async function assertLineOf(db: Db, planillaId: number, lineId: number) {
  const [l] = await db
    .select({ id: planillaLines.id })
    .from(planillaLines)
    .where(and(eq(planillaLines.id, lineId), eq(planillaLines.planillaId, planillaId)));
  if (!l)
    throw new AppError('VALIDATION', msg('planillas.lineNotInPlanilla'), [
      { path: 'lineId', ...detail(msg('planillas.lineInvalid')) },
    ]);
}

/** This period beside the previous one: new, missing, salary changes and RENAP warnings. */
export async function comparePlanilla(ctx: RequestContext, input: { id: number }): Promise<PlanillaComparison> {
  const { p } = await loadRow(ctx, ctx.db, input.id);
  const prev = await previousPlanilla(ctx.db, p.entityId, p.period, p.id);
  const [counts] = rowsOf<{ nuevo: number; cambio: number; renap: number; fallecido: number }>(
    await ctx.db.execute(sql`
      select count(*) filter (where warnings @> '[{"code":"NUEVO"}]')::int as nuevo,
        count(*) filter (where warnings @> '[{"code":"CAMBIO_SALARIO"}]')::int as cambio,
        count(*) filter (where warnings @> '[{"code":"RENAP_DESCONOCIDO"}]' or warnings @> '[{"code":"RENAP_NOMBRE"}]'
          or warnings @> '[{"code":"RENAP_FALLECIDO"}]')::int as renap,
        count(*) filter (where warnings @> '[{"code":"RENAP_FALLECIDO"}]')::int as fallecido
      from ${planillaLines} where planilla_id = ${p.id} and has_warnings`),
  );
  // The lines of people RENAP records as deceased: the reviewer is told before approving (issue 28).
  const deceased = counts.fallecido
    ? rowsOf<{ id: number; row_number: number; cui: string; full_name: string }>(
        await ctx.db.execute(sql`
          select id, row_number, cui, full_name from ${planillaLines}
           where planilla_id = ${p.id} and has_warnings and warnings @> '[{"code":"RENAP_FALLECIDO"}]'
           order by row_number limit 50`),
      ).map((d) => ({ lineId: d.id, rowNumber: d.row_number, cui: d.cui, fullName: d.full_name }))
    : [];
  const renap = { renapCount: counts.renap, deceased, deceasedCount: counts.fallecido };
  if (!prev)
    return {
      previous: null,
      newCount: counts.nuevo,
      missingCount: 0,
      salaryChangeCount: counts.cambio,
      ...renap,
      missing: [],
    };
  const [pr] = await ctx.db.select().from(planillas).where(eq(planillas.id, prev.id));
  const missingWhere = sql`l.planilla_id = ${prev.id} and not exists (select 1 from ${planillaLines} c where c.planilla_id = ${p.id} and c.cui = l.cui)`;
  const [{ n }] = rowsOf<{ n: number }>(
    await ctx.db.execute(sql`select count(*)::int as n from ${planillaLines} l where ${missingWhere}`),
  );
  const missing = rowsOf<{ cui: string; full_name: string; salary: string | null }>(
    await ctx.db.execute(
      sql`select l.cui, l.full_name, l.salary::text as salary from ${planillaLines} l where ${missingWhere} order by l.row_number limit 200`,
    ),
  );
  return {
    previous: {
      id: pr.id,
      period: pr.period,
      state: pr.state,
      lineCount: pr.lineCount,
      totalSalary: money(pr.totalSalary),
      totalEmployee: money(pr.totalEmployee),
      totalEmployer: money(pr.totalEmployer),
    },
    newCount: counts.nuevo,
    missingCount: Number(n),
    salaryChangeCount: counts.cambio,
    ...renap,
    missing: missing.map((m) => ({
      cui: m.cui,
      fullName: m.full_name,
      salary: m.salary == null ? null : money(decimalToCents(m.salary)),
    })),
  };
}
