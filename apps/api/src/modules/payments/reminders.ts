/**
 * Reminders before an entity's payment order falls due (issue 29): on each business day, a mail to the entity's
 * payers for every order still owed that falls due N business days later (setting `mail.reminderBusinessDays`)
 * and again one business day before. Agreement instalments are the agreements module's (their own mail).
 */
import { addBusinessDays, type BusinessCalendar, decimalToCents, formatPaymentReference, isBusinessDay } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.ts';
import { municipalEntities, paymentOrders } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { scheduleDaily } from '../../platform/jobs.ts';
import { mailUsers } from '../notifications/mail-users.ts';
import { settingsAt } from '../settings/service.ts';
import { payersOf } from './mail-events.ts';

/**
 * The windows of due dates a reminder on `day` covers, by how many business days ahead: `(after, upTo]`, so a
 * due date on a holiday or weekend is reminded on the business day its window ends on, once.
 */
export function reminderWindows(day: string, leadDays: number, cal: BusinessCalendar) {
  return [...new Set([leadDays, 1])].map((lead) => ({
    lead,
    after: addBusinessDays(day, lead - 1, cal),
    upTo: addBusinessDays(day, lead, cal),
  }));
}

/**
 * The reminders of `day` (idempotent): nothing on a day that is not a business day; each order is reminded in
 * its own short transaction, its dedupe key naming the order, its due date and the lead, so a second run of the
 * same day — or a later day covering the same window — queues nothing again.
 */
export async function sendOrderReminders(
  ctx: RequestContext,
  day: string,
): Promise<{ day: string; orders: number; mails: number }> {
  const s = (await settingsAt(ctx.db, day)).values;
  const cal = s['calendar.holidays'];
  if (!isBusinessDay(day, cal)) return { day, orders: 0, mails: 0 };
  let orders = 0;
  let mails = 0;
  for (const w of reminderWindows(day, s['mail.reminderBusinessDays'], cal)) {
    const due = rowsOf<{ id: number; entity_id: number; entity: string; reference: string; due_date: string; owed: string }>(
      await ctx.db.execute(sql`
        select o.id, o.entity_id, e.name as entity, o.reference, o.due_date::text as due_date,
          (o.principal - o.principal_paid + o.interest_accrued - o.interest_paid)::text as owed
        from ${paymentOrders} o join ${municipalEntities} e on e.id = o.entity_id
        where o.state = 'EMITIDA' and o.kind <> 'CONVENIO'
          and o.due_date > ${w.after}::date and o.due_date <= ${w.upTo}::date
        order by o.id`),
    );
    for (const o of due) {
      const amount = decimalToCents(o.owed);
      if (amount <= 0n) continue;
      orders += 1;
      mails += await ctx.db.transaction(async (tx) =>
        mailUsers(tx, await payersOf(tx, Number(o.entity_id)), {
          event: 'order.dueSoon',
          params: { reference: formatPaymentReference(o.reference), entity: o.entity, amount, due: o.due_date, days: w.lead },
          link: `/ordenes-pago/${o.id}`,
          dedupeKey: `order.dueSoon:${o.id}:${o.due_date}:${w.lead}`,
        }),
      );
    }
  }
  return { day, orders, mails };
}

const schedule = {
  key: 'mail.orderReminders',
  title: 'Recordatorios de órdenes de pago por vencer',
  at: '06:00',
  permission: { resource: 'payment-orders', action: 'READ' },
  run: (ctx: RequestContext, day: string) => sendOrderReminders(ctx, day),
} as const;

/** Registers the daily reminders (idempotent). Called by the module's routes plugin. */
export function registerOrderReminders(): void {
  scheduleDaily(schedule);
}
