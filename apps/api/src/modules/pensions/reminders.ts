/**
 * Survival checks about to close and just overdue, told to the pensions staff by mail (issue 29): the holders of
 * supervivencia APPROVE (who register checks and whom the suspension concerns), each told how many pensions
 * of their own scope are concerned. One mail per kind and day, only when there is something to tell.
 */
import { addDays } from '@aporta/domain';
import { and, count, eq, type SQL } from 'drizzle-orm';
import { pensions } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { scheduleDaily } from '../../platform/jobs.ts';
import type { MailParams } from '../../platform/mail.ts';
import { entityInScope } from '../../platform/scope.ts';
import { mailUsers } from '../notifications/mail-users.ts';
import { holdersWithScope } from '../notifications/recipients.ts';
import { settingsAt } from '../settings/service.ts';

/**
 * The notices of `day` (idempotent: the dedupe key names the kind and the day). `survival.dueSoon`: active
 * pensions whose window closes exactly `mail.survivalNoticeDays` days later with no check presented (a check
 * moves the due birthday on); `survival.overdue`: active pensions whose window closed yesterday — now in grace,
 * to be suspended when it ends. Each pension is counted once for each notice.
 */
export async function sendSurvivalNotices(
  ctx: RequestContext,
  day: string,
): Promise<{ day: string; dueSoon: number; overdue: number; mails: number }> {
  const s = (await settingsAt(ctx.db, day)).values;
  const window = s['survival.windowDaysAfterBirthday'];
  const closes = addDays(day, s['mail.survivalNoticeDays']);
  const notices: { event: 'survival.dueSoon' | 'survival.overdue'; due: string; params: MailParams; tab: string }[] = [
    { event: 'survival.dueSoon', due: addDays(closes, -window), params: { due: closes }, tab: 'due' },
    { event: 'survival.overdue', due: addDays(day, -window - 1), params: { asOf: day }, tab: 'overdue' },
  ];
  const staff = await holdersWithScope(ctx.db, 'supervivencia', 'APPROVE');
  const totals = { dueSoon: 0, overdue: 0 };
  let mails = 0;
  for (const n of notices) {
    const of = (cond?: SQL) =>
      ctx.db
        .select({ n: count() })
        .from(pensions)
        .where(and(eq(pensions.state, 'ACTIVA'), eq(pensions.survivalDue, n.due), cond));
    const [{ n: all }] = await of();
    totals[n.event === 'survival.dueSoon' ? 'dueSoon' : 'overdue'] = all;
    if (!all) continue;
    for (const h of staff) {
      const [{ n: mine }] = await of(entityInScope(h.userId, h.scope, pensions.entityId));
      if (!mine) continue;
      mails += await ctx.db.transaction((tx) =>
        mailUsers(tx, [h.userId], {
          event: n.event,
          params: { count: mine, ...n.params },
          link: `/contributors/supervivencia?tab=${n.tab}`,
          dedupeKey: `${n.event}:${day}`,
        }),
      );
    }
  }
  return { day, ...totals, mails };
}

const schedule = {
  key: 'mail.survivalNotices',
  title: 'Avisos de supervivencia por vencer y vencida',
  at: '06:10',
  permission: { resource: 'supervivencia', action: 'APPROVE' },
  run: (ctx: RequestContext, day: string) => sendSurvivalNotices(ctx, day),
} as const;

/** Registers the daily notices (idempotent). Called by the module's routes plugin. */
export function registerSurvivalNotices(): void {
  scheduleDaily(schedule);
}
