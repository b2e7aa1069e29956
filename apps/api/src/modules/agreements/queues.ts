import { guatemalaToday } from '@aporta/domain';
import { and, count, eq, sql } from 'drizzle-orm';
import { paymentAgreements } from '../../db/schema/index.ts';
import { registerWorkQueue } from '../home/queues.ts';
import { settingsAt } from '../settings/service.ts';
import { defaultCandidatesSql } from './detection.ts';

let registered = false;

/**
 * The agreements' home queues, registered by the module's routes plugin. Idempotent: the app may be built
 * more than once in a process (tests).
 */
export function registerAgreementQueues(): void {
  if (registered) return;
  registered = true;
  /** Those who manage agreements (restructure them): the ones in default (the remaining debt due at once), in their scope. */
  registerWorkQueue({
    id: 'payment-agreements-defaulted',
    title: 'Convenios incumplidos',
    permission: { resource: 'payment-agreements', action: 'UPDATE' },
    link: '/planilla/convenios-pago?state=INCUMPLIDO',
    count: async (ctx) => {
      const [row] = await ctx.db
        .select({ n: count() })
        .from(paymentAgreements)
        .where(and(eq(paymentAgreements.state, 'INCUMPLIDO'), ctx.inScope(paymentAgreements.entityId)));
      return row?.n ?? 0;
    },
  });

  /**
   * Stranded money: agreements still in force that the default detection would have put in default by today
   * — the daily run (or a manual one) failed or has not run. Zero when the detection is up to date; those who
   * may run it (APPROVE) see it and start it from the agreements page.
   */
  registerWorkQueue({
    id: 'payment-agreements-detection-behind',
    title: 'Convenios en mora sin declarar incumplidos (detección pendiente)',
    permission: { resource: 'payment-agreements', action: 'APPROVE' },
    alert: true,
    link: '/planilla/convenios-pago?state=VIGENTE',
    count: async (ctx) => {
      const today = guatemalaToday();
      const limit = (await settingsAt(ctx.db, today)).values['agreements.overdueInstalmentsForDefault'];
      const scope = ctx.inScope(sql`a.entity_id`);
      const [row] = (
        (await ctx.db.execute(sql`select count(*)::int as n from ${paymentAgreements} a
          where ${defaultCandidatesSql(today, limit)} ${scope ? sql`and ${scope}` : sql``}`)) as unknown as {
          rows: { n: number }[];
        }
      ).rows;
      return Number(row?.n ?? 0);
    },
  });
}
