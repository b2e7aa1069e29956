// New planillas typed on screen: an ordinary one (optionally copying the previous period) and a back-pay one.
import {
  AppError,
  type BackPayCreate,
  checkLine,
  detail,
  guatemalaToday,
  isFuturePeriod,
  msg,
  type Planilla,
  type PlanillaCreate,
  periodOf,
  periodsBetween,
  previousPeriod,
} from '@aporta/domain';
import { sql } from 'drizzle-orm';
import { planillaLines, planillas } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { isEntityInScope } from '../../platform/scope.ts';
import {
  lineContext,
  loadBasis,
  previousPlanilla,
  recalculatePlanilla,
  renapFactsOf,
  renapFor,
  storedLine,
} from './calculation.ts';
import { refuseLine } from './lines.ts';
import { getPlanilla } from './queries.ts';
import { assertCanDeclare } from './rules.ts';

/**
 * A new planilla for an entity in scope (typed on screen), optionally with the lines of the previous
 * period's planilla copied, then calculated. Callers: planillas CREATE.
 */
export async function createPlanilla(ctx: RequestContext, input: PlanillaCreate): Promise<Planilla> {
  if (!(await isEntityInScope(ctx, input.entityId))) throw new AppError('FORBIDDEN', msg('planillas.entityForbidden'));
  const id = await ctx.db.transaction(async (tx) => {
    await assertCanDeclare(tx, input);
    const prev = input.copyPrevious ? await previousPlanilla(tx, input.entityId, input.period) : null;
    if (input.copyPrevious && !prev) {
      const message = msg('planillas.nothingToCopy', { period: previousPeriod(input.period) });
      throw new AppError('CONFLICT', message, [{ path: 'copyPrevious', ...detail(message) }]);
    }
    const [p] = await tx
      .insert(planillas)
      .values({
        entityId: input.entityId,
        period: input.period,
        type: input.type,
        createdBy: ctx.actor.id,
        copiedFromId: prev?.id ?? null,
      })
      .returning({ id: planillas.id });
    if (prev) {
      await tx.execute(sql`
        insert into ${planillaLines} (planilla_id, row_number, period, entity_id, cui, full_name, budget_line_code, salary, salary_text, days_worked)
        select ${p.id}, row_number() over (order by row_number), ${input.period}, ${input.entityId}, cui, full_name, budget_line_code,
          salary, salary_text, days_worked
        from ${planillaLines} where planilla_id = ${prev.id} and (movement is distinct from 'BAJA')`);
    }
    await recalculatePlanilla(tx, p.id);
    await ctx.audit(
      {
        action: 'CREATE',
        entityType: 'planilla',
        entityId: p.id,
        after: { period: input.period, type: input.type, copiedFrom: prev?.id ?? null },
        scopeEntityId: input.entityId,
      },
      tx,
    );
    return p.id;
  });
  return getPlanilla(ctx, { id });
}

/**
 * A back-pay resolution and its SALARIOS_CAIDOS planilla (a draft, then the usual review): one line per
 * month of the resolution for the contributor, each calculated with the settings of its own month, so
 * approving it puts those months in the contributor's history. Callers: fallen-wages CREATE.
 */
export async function createBackPay(ctx: RequestContext, input: BackPayCreate): Promise<Planilla> {
  if (!(await isEntityInScope(ctx, input.entityId))) throw new AppError('FORBIDDEN', msg('planillas.entityForbidden'));
  const today = guatemalaToday();
  if (input.resolutionDate > today) {
    throw new AppError('VALIDATION', msg('planillas.resolutionDateFuture'), [
      { path: 'resolutionDate', ...detail(msg('planillas.futureDate')) },
    ]);
  }
  if (isFuturePeriod(input.toPeriod, today)) {
    throw new AppError('VALIDATION', msg('planillas.backPayFutureMonths'), [
      { path: 'toPeriod', ...detail(msg('planillas.futureMonth')) },
    ]);
  }
  const months = periodsBetween(input.fromPeriod, input.toPeriod);
  const id = await ctx.db.transaction(async (tx) => {
    const [p] = await tx
      .insert(planillas)
      .values({
        entityId: input.entityId,
        period: periodOf(today),
        type: 'SALARIOS_CAIDOS',
        createdBy: ctx.actor.id,
        backPayResolution: `Resolución ${input.resolutionNumber} del ${input.resolutionDate.split('-').reverse().join('/')}`,
      })
      .returning();
    // Checked with the first month's settings before anything is written: a bad line refuses the whole resolution.
    const basis = await loadBasis(tx, input.entityId, months[0]);
    const cui = input.cui.replace(/[\s-]/g, '');
    const renap = await renapFactsOf(tx, [cui]);
    const c = checkLine(
      { cui: input.cui, fullName: input.fullName, budgetLine: input.budgetLine, salary: input.monthlySalary },
      lineContext({ ...basis, previous: null }, months[0], renapFor(renap, cui)),
    );
    if (c.errors.length) refuseLine(c.errors.map((e) => ({ ...e, field: e.field === 'salary' ? 'monthlySalary' : e.field })));
    await tx
      .insert(planillaLines)
      .values(
        months.map((m, i) => ({ planillaId: p.id, rowNumber: i + 1, period: m, entityId: input.entityId, ...storedLine(c) })),
      );
    await recalculatePlanilla(tx, p.id);
    await ctx.audit(
      {
        action: 'CREATE',
        entityType: 'planilla',
        entityId: p.id,
        after: {
          type: 'SALARIOS_CAIDOS',
          resolution: input.resolutionNumber,
          cui: c.cui,
          from: input.fromPeriod,
          to: input.toPeriod,
        },
        scopeEntityId: input.entityId,
      },
      tx,
    );
    return p.id;
  });
  return getPlanilla(ctx, { id });
}
