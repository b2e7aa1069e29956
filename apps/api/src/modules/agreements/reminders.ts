/**
 * Reminders before an agreement instalment falls due (issue 29): on each business day, a mail to the entity's
 * payers for every live instalment still owed that falls due N business days later (setting
 * `mail.reminderBusinessDays`) and again one business day before — the same windows as the orders' reminders.
 */
import { decimalToCents, isBusinessDay } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.ts';
import { municipalEntities, paymentOrders } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { scheduleDaily } from '../../platform/jobs.ts';
import { mailUsers } from '../notifications/mail-users.ts';
import { payersOf } from '../payments/mail-events.ts';
import { reminderWindows } from '../payments/reminders.ts';
import { settingsAt } from '../settings/service.ts';
import { a, l } from './queries.ts';

/**
 * The instalment reminders of `day` (idempotent): nothing on a day that is not a business day; only instalments
 * of agreements in force (a defaulted agreement's debt is due at once: its own notice said so). The dedupe key
 * names the instalment's order, its due date and the lead, so a rerun queues nothing again.
 */
export async function sendInstalmentReminders(
  ctx: RequestContext,
  day: string,
): Promise<{ day: string; instalments: number; mails: number }> {
  const s = (await settingsAt(ctx.db, day)).values;
  const cal = s['calendar.holidays'];
  if (!isBusinessDay(day, cal)) return { day, instalments: 0, mails: 0 };
  let instalments = 0;
  let mails = 0;
  for (const w of reminderWindows(day, s['mail.reminderBusinessDays'], cal)) {
    const due = rowsOf<{
      agreement_id: number;
      agreement: string;
      entity_id: number;
      entity: string;
      number: number;
      order_id: number;
      due_date: string;
      owed: string;
    }>(
      await ctx.db.execute(sql`
        select ag.id as agreement_id, ag.number as agreement, ag.entity_id, e.name as entity, x.number,
          o.id as order_id, o.due_date::text as due_date,
          (o.principal - o.principal_paid + o.interest_accrued - o.interest_paid)::text as owed
        from ${l} x
          join ${a} ag on ag.id = x.agreement_id
          join ${paymentOrders} o on o.id = x.order_id
          join ${municipalEntities} e on e.id = ag.entity_id
        where x.role = 'CUOTA' and x.replaced_at is null and ag.state = 'VIGENTE' and o.state = 'EMITIDA'
          and o.due_date > ${w.after}::date and o.due_date <= ${w.upTo}::date
        order by o.id`),
    );
    for (const i of due) {
      const amount = decimalToCents(i.owed);
      if (amount <= 0n) continue;
      instalments += 1;
      mails += await ctx.db.transaction(async (tx) =>
        mailUsers(tx, await payersOf(tx, Number(i.entity_id)), {
          event: 'agreement.instalmentDueSoon',
          params: {
            instalment: Number(i.number ?? 0),
            agreement: i.agreement,
            entity: i.entity,
            amount,
            due: i.due_date,
            days: w.lead,
          },
          link: `/ordenes-pago/${i.order_id}`,
          dedupeKey: `agreement.instalmentDueSoon:${i.order_id}:${i.due_date}:${w.lead}`,
        }),
      );
    }
  }
  return { day, instalments, mails };
}

const schedule = {
  key: 'mail.instalmentReminders',
  title: 'Recordatorios de cuotas de convenio por vencer',
  at: '06:05',
  permission: { resource: 'payment-agreements', action: 'READ' },
  run: (ctx: RequestContext, day: string) => sendInstalmentReminders(ctx, day),
} as const;

/** Registers the daily reminders (idempotent). Called by the module's routes plugin. */
export function registerInstalmentReminders(): void {
  scheduleDaily(schedule);
}
