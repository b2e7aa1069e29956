import {
  AppError,
  addDays,
  DEADLINE_REMINDER_DAYS,
  detail,
  formatDay,
  guatemalaToday,
  type LegalCase,
  type LegalDeadline,
  msg,
} from '@aporta/domain';
import { and, eq, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.ts';
import { legalCaseDeadlines } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { notifyUsers } from '../notifications/service.ts';
import { deadlinesWhere, getCase, lockCase, openCaseRow } from './service.ts';

/**
 * The deadlines of collection cases: the lawyers' agenda in scope, adding a deadline to an open case,
 * marking one done, and the daily reminder to the responsible lawyer (run by the schedule in jobs.ts).
 */

/** Pending deadlines between two days (default: this week from today) in scope: the lawyers' agenda. */
export async function findDeadlines(ctx: RequestContext, q: { from?: string; to?: string }): Promise<{ items: LegalDeadline[] }> {
  const from = q.from ?? guatemalaToday();
  const to = q.to ?? addDays(from, DEADLINE_REMINDER_DAYS);
  const scope = ctx.inScope(sql`lc.entity_id`);
  return {
    items: await deadlinesWhere(
      ctx.db,
      sql`not dl.done and dl.due_date between ${from}::date and ${to}::date ${scope ? sql`and ${scope}` : sql``}`,
    ),
  };
}

export async function addDeadline(
  ctx: RequestContext,
  input: { id: number; dueDate: string; description: string },
): Promise<LegalCase> {
  if (input.dueDate < guatemalaToday()) {
    const m = msg('legal.deadlineInPast');
    throw new AppError('VALIDATION', m, [{ path: 'dueDate', ...detail(m) }]);
  }
  await ctx.db.transaction(async (tx) => {
    const row = await openCaseRow(ctx, tx, input.id);
    await tx.insert(legalCaseDeadlines).values({
      caseId: row.id,
      dueDate: input.dueDate,
      description: input.description,
      responsibleId: row.lawyerId ?? ctx.actor.id,
      createdBy: ctx.actor.id,
    });
    await ctx.audit(
      {
        action: 'LEGAL_DEADLINE',
        entityType: 'legal-case',
        entityId: row.id,
        after: { vence: input.dueDate, plazo: input.description },
        scopeEntityId: row.entityId,
      },
      tx,
    );
  });
  return getCase(ctx, { id: input.id });
}

export async function completeDeadline(ctx: RequestContext, input: { id: number; deadlineId: number }): Promise<LegalCase> {
  await ctx.db.transaction(async (tx) => {
    const row = await lockCase(ctx, tx, input.id);
    const [dl] = await tx
      .update(legalCaseDeadlines)
      .set({ done: true, doneAt: new Date() })
      .where(
        and(
          eq(legalCaseDeadlines.id, input.deadlineId),
          eq(legalCaseDeadlines.caseId, row.id),
          eq(legalCaseDeadlines.done, false),
        ),
      )
      .returning();
    if (!dl) throw new AppError('NOT_FOUND', msg('legal.deadlineNotFound'));
    await ctx.audit(
      {
        action: 'LEGAL_DEADLINE_DONE',
        entityType: 'legal-case',
        entityId: row.id,
        after: { plazo: dl.description, vence: dl.dueDate },
        scopeEntityId: row.entityId,
      },
      tx,
    );
  });
  return getCase(ctx, { id: input.id });
}

/**
 * The daily reminder of deadlines: a pending deadline is announced to its responsible lawyer when it
 * enters the week before it (DEADLINE_REMINDER_DAYS) and again on its day — at most once a day.
 */
export async function remindDeadlines(ctx: RequestContext, day: string): Promise<{ day: string; reminded: number }> {
  const due = rowsOf<{
    id: number;
    case_id: number;
    number: string;
    due_date: string;
    description: string;
    user_id: number | null;
  }>(
    await ctx.db.execute(sql`
      select dl.id, dl.case_id, lc.number, dl.due_date::text, dl.description, coalesce(dl.responsible_id, lc.lawyer_id, lc.created_by) as user_id
      from legal_case_deadlines dl join legal_cases lc on lc.id = dl.case_id
      where not dl.done and lc.state <> 'CERRADO' and dl.due_date >= ${day}::date
        and ((dl.reminded_on is null and dl.due_date <= ${addDays(day, DEADLINE_REMINDER_DAYS)}::date)
          or (dl.due_date = ${day}::date and (dl.reminded_on is null or dl.reminded_on < ${day}::date)))`),
  );
  for (const x of due) {
    await ctx.db.transaction(async (tx) => {
      if (x.user_id) {
        await notifyUsers({
          db: tx,
          userIds: [Number(x.user_id)],
          type: x.due_date === day ? 'warning' : 'info',
          title: `Plazo del expediente ${x.number}: ${formatDay(x.due_date)}`.slice(0, 200),
          body: x.description.slice(0, 500),
          link: `/contributors/legal-module/${x.case_id}`,
        });
      }
      await tx
        .update(legalCaseDeadlines)
        .set({ remindedOn: day })
        .where(eq(legalCaseDeadlines.id, Number(x.id)));
    });
  }
  return { day, reminded: due.length };
}
