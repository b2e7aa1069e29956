// A planilla's transitions through its machine (submit, review, approve...), with what each step sets off.
import { AppError, detail, msg, type PlanillaTransitionRequest, planillaMachine, SUBMITTING_STATE } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import {
  contributors,
  contributorTypes,
  cuiApprovalRequests,
  planillaComments,
  planillaLines,
  planillas,
  renapPeople,
} from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { makersSql } from '../../platform/maker-checker.ts';
import { applyTransition, RACE_MESSAGE } from '../../platform/transitions.ts';
import { notifyOrderIssued } from '../payments/mail-events.ts';
import { issuePlanillaOrders } from '../payments/orders.ts';
import { notifyPlanillaStep } from './notify.ts';
import { getPlanilla, money, planillaMakers } from './queries.ts';
import { assertLineOf } from './review.ts';
import { lockEditable } from './rules.ts';
import { queueSubmit, submitRefusal } from './submit.ts';

/**
 * Moves a planilla through its machine (packages/domain: planillaMachine). Submitting a planilla without
 * lines is refused at once (409); otherwise it moves to ENVIANDO and its submit job (`submit.ts`)
 * re-validates and recalculates every line, then sends it, or puts it back with the lines that block it —
 * the answer names the job.
 * Taking it records the reviewer; two delegates taking it at once: one wins, the other gets 409. Observing
 * may name lines. Approving creates the contributors the planilla names that RENAP knows and are not yet
 * registered (CUI approval pending) and links every line to its contributor. Every transition notifies the
 * other side, in the same transaction. Callers: the permission the transition declares, in scope.
 */
export async function transitionPlanilla(ctx: RequestContext, input: { id: number; data: PlanillaTransitionRequest }) {
  const { to, comment, expected, lineComments } = input.data;
  await ctx.db.transaction(async (tx) => {
    let submitFrom: 'BORRADOR' | 'OBSERVADA' | null = null;
    if (to === SUBMITTING_STATE) {
      const p = await lockEditable(ctx, tx, input.id);
      if (expected && expected !== p.state) throw new AppError('CONFLICT', RACE_MESSAGE);
      const refusal = await submitRefusal(tx, p.id, { errors: false });
      if (refusal) throw refusal;
      submitFrom = p.state === 'OBSERVADA' ? 'OBSERVADA' : 'BORRADOR';
    }
    const applied = await applyTransition(ctx, {
      tx,
      machine: planillaMachine,
      table: planillas,
      id: input.id,
      to,
      comment,
      expected,
      entityId: planillas.entityId,
      makerId: planillas.submittedBy,
      makers: makersSql(planillaMakers, planillas.id, [planillas.createdBy]),
      set: ({ transition }) => {
        const now = new Date();
        if (transition.key === 'PLANILLA_SUBMIT') return { submitFrom, submitMessage: null, updatedAt: now };
        if (transition.key === 'PLANILLA_TAKE') return { reviewerId: ctx.actor.id, updatedAt: now };
        if (['PLANILLA_APPROVE', 'PLANILLA_OBSERVE', 'PLANILLA_REJECT'].includes(transition.key)) {
          return { decidedAt: now, reviewerId: ctx.actor.id, updatedAt: now };
        }
        return { updatedAt: now };
      },
      auditAfter: (row) => ({
        period: row.period,
        type: row.type,
        totalEmployee: money(row.totalEmployee),
        totalEmployer: money(row.totalEmployer),
      }),
    });
    const p = applied.row;
    if (applied.comment) {
      await tx.insert(planillaComments).values({
        planillaId: p.id,
        body: applied.comment,
        transition: applied.transition.key,
        authorId: ctx.actor.id,
        authorEmail: ctx.actor.email,
      });
    }
    if (lineComments?.length) {
      if (applied.transition.key !== 'PLANILLA_OBSERVE') {
        throw new AppError('VALIDATION', msg('planillas.lineCommentsOnlyWhenObserving'), [
          { path: 'lineComments', ...detail(msg('planillas.onlyWhenObserving')) },
        ]);
      }
      for (const lc of lineComments) await assertLineOf(tx, p.id, lc.lineId);
      await tx.insert(planillaComments).values(
        lineComments.map((lc) => ({
          planillaId: p.id,
          lineId: lc.lineId,
          body: lc.comment,
          transition: applied.transition.key,
          authorId: ctx.actor.id,
          authorEmail: ctx.actor.email,
        })),
      );
    }
    // Sending: the job does the work and tells the reviewers once the planilla reaches them.
    if (applied.transition.key === 'PLANILLA_SUBMIT') {
      await queueSubmit(ctx, tx, p.id);
      return;
    }
    let issued: Awaited<ReturnType<typeof issuePlanillaOrders>> = [];
    if (applied.transition.key === 'PLANILLA_APPROVE') {
      await registerContributors(ctx, tx, p);
      // Approval issues the planilla's payment orders (employee and employer), in the same transaction.
      issued = await issuePlanillaOrders(ctx, tx, p);
    }
    await notifyPlanillaStep(tx, p, {
      key: applied.transition.key,
      label: applied.transition.label,
      comment: applied.comment,
      actorId: ctx.actor.id,
      actorEmail: ctx.actor.email,
      lineObservations: lineComments?.length ?? 0,
    });
    // Each order issued reaches the entity's payers with its PDF (issue 29).
    for (const order of issued) await notifyOrderIssued(tx, order);
  });
  return getPlanilla(ctx, { id: input.id });
}

/**
 * Registers the people an approved planilla names who are not contributors yet, from RENAP's copy
 * (names, birth date, sex), with their CUI approval pending, and links every line of the planilla to
 * its contributor. A CUI RENAP does not know cannot be registered without a birth date and sex: its
 * lines stay unlinked, and the history (by CUI) is complete all the same.
 */
async function registerContributors(ctx: RequestContext, tx: Db, p: typeof planillas.$inferSelect) {
  const [type] = await tx.select({ id: contributorTypes.id }).from(contributorTypes).orderBy(contributorTypes.sortOrder).limit(1);
  if (type) {
    const created = rowsOf<{ id: number; cui: string }>(
      await tx.execute(sql`
        insert into ${contributors} (cui, first_name, second_name, third_name, first_surname, second_surname, married_surname,
          search_name, birth_date, sex, type_id, entity_id, budget_line_code, salary, cui_state, created_by)
        select distinct on (l.cui) l.cui, r.first_name, r.second_name, r.third_name, r.first_surname, r.second_surname, r.married_surname,
          upper(regexp_replace(concat_ws(' ', r.first_name, r.second_name, r.third_name, r.first_surname, r.second_surname, r.married_surname), '\\s+', ' ', 'g')),
          r.birth_date, r.sex, ${type.id}, ${p.entityId}, l.budget_line_code, l.salary, 'PENDIENTE', ${ctx.actor.id}
        from ${planillaLines} l join ${renapPeople} r on r.cui = l.cui
        where l.planilla_id = ${p.id} and not exists (select 1 from ${contributors} c where c.cui = l.cui)
        order by l.cui
        returning id, cui`),
    );
    if (created.length) {
      await tx.insert(cuiApprovalRequests).values(
        created.map((c) => ({
          contributorId: Number(c.id),
          kind: 'ALTA' as const,
          proposedCui: c.cui,
          requestedBy: ctx.actor.id,
        })),
      );
      await tx.execute(sql`
        insert into audit_log (actor_id, actor_email, action, entity_type, entity_id, after, ip, scope_entity_id)
        select ${ctx.actor.id}, ${ctx.actor.email}, 'CREATE', 'contributor', c.id::text,
          jsonb_build_object('cui', c.cui, 'origen', 'planilla aprobada', 'planillaId', ${p.id}::int), ${ctx.actor.ip ?? null}, c.entity_id
        from ${contributors} c where c.id = any(string_to_array(${created.map((c) => c.id).join(',')}, ',')::int[])`);
    }
  }
  await tx.execute(sql`
    update ${planillaLines} l set contributor_id = c.id from ${contributors} c
    where l.planilla_id = ${p.id} and c.cui = l.cui and l.contributor_id is distinct from c.id`);
}
