import { addDays, DEADLINE_REMINDER_DAYS, guatemalaToday } from '@aporta/domain';
import { and, count, eq, sql } from 'drizzle-orm';
import { legalCaseDeadlines, legalCases } from '../../db/schema/index.ts';
import { registerWorkQueue } from '../home/queues.ts';

/** The legal module's work queues of the home page, registered by its routes plugin (`registerLegalQueues`). */

let registered = false;

/** Registers the queues once (later calls do nothing: `registerWorkQueue` refuses a repeated id). */
export function registerLegalQueues(): void {
  if (registered) return;
  registered = true;
  /** The lawyers' week: pending deadlines of open cases from today to a week ahead, in their scope. */
  registerWorkQueue({
    id: 'legal-deadlines-week',
    title: 'Plazos jurídicos de esta semana',
    permission: { resource: 'legal-module', action: 'UPDATE' },
    link: '/contributors/legal-module?tab=deadlines',
    count: async (ctx) => {
      const today = guatemalaToday();
      const [row] = await ctx.db
        .select({ n: count() })
        .from(legalCaseDeadlines)
        .innerJoin(legalCases, eq(legalCases.id, legalCaseDeadlines.caseId))
        .where(
          and(
            sql`not ${legalCaseDeadlines.done} and ${legalCaseDeadlines.dueDate} between ${today}::date and ${addDays(today, DEADLINE_REMINDER_DAYS)}::date`,
            ctx.inScope(legalCases.entityId),
          ),
        );
      return row?.n ?? 0;
    },
  });
}
