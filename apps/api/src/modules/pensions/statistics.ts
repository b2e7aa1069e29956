/** The pensions module's statistics panels: pensions by type and by state, the payroll by month. */
import { pensionStateLabels, pensionTypeLabels } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import { pensionPayrolls, pensions } from '../../db/schema/index.ts';
import { panelWithTotal, registerStatisticsPanel } from '../statistics/panels.ts';

let registered = false;

/** Registers the panels; called once by the module's routes plugin (again: nothing happens). */
export function registerPensionStatistics(): void {
  if (registered) return;
  registered = true;
  registerStatisticsPanel({
    key: 'pensions-by-type',
    title: 'Pensiones por tipo',
    kind: 'donut',
    resource: 'passive-classes',
    load: ({ db, entityScope }) =>
      panelWithTotal(
        db,
        sql`select ${pensions.type} as label, count(*)::int as value from ${pensions}
          where ${entityScope(sql`${pensions.entityId}`)} group by 1 order by value desc`,
        (k) => pensionTypeLabels[k as keyof typeof pensionTypeLabels] ?? k,
      ),
  });

  registerStatisticsPanel({
    key: 'pensions-by-state',
    title: 'Pensiones por estado',
    kind: 'donut',
    resource: 'passive-classes',
    load: ({ db, entityScope }) =>
      panelWithTotal(
        db,
        sql`select ${pensions.state} as label, count(*)::int as value from ${pensions}
          where ${entityScope(sql`${pensions.entityId}`)} group by 1 order by value desc`,
        (k) => pensionStateLabels[k as keyof typeof pensionStateLabels] ?? k,
      ),
  });

  /** Monthly payroll totals (quetzales, whole) of the last twelve payrolls: institution-wide, scope ALL only. */
  registerStatisticsPanel({
    key: 'pension-payroll-monthly',
    title: 'Planilla de pensiones por mes (Q)',
    kind: 'bar',
    resource: 'passive-classes',
    load: ({ db, entityScope }) =>
      panelWithTotal(
        db,
        sql`select period as label, round(total)::bigint as value from (
              select ${pensionPayrolls.period} as period, ${pensionPayrolls.total} as total from ${pensionPayrolls}
               where ${entityScope(sql`null::int`)} order by period desc limit 12) x order by label`,
      ),
  });
}
