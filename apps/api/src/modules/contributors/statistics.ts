import { sql } from 'drizzle-orm';
import { contributors, contributorTypes, departments, municipalities } from '../../db/schema/index.ts';
import { panelWithTotal, registerStatisticsPanel } from '../statistics/panels.ts';

/**
 * The contributors' panels of /administrative/statistics. A contributor counts where their current
 * entity lies in the user's statistics scope; those without an entity count only for scope ALL.
 */

let registered = false;

/**
 * The contributors' panels, registered by the module's routes plugin. Idempotent: the app may be built more
 * than once in a process (tests).
 */
export function registerContributorStatistics(): void {
  if (registered) return;
  registered = true;
  registerStatisticsPanel({
    key: 'contributors-by-department',
    title: 'Afiliados por departamento',
    kind: 'bar',
    resource: 'contributors',
    load: ({ db, entityScope }) =>
      panelWithTotal(
        db,
        sql`select coalesce(${departments.name}, 'Sin municipio') as label, count(*)::int as value
          from ${contributors}
          left join ${municipalities} on ${municipalities.id} = ${contributors.municipalityId}
          left join ${departments} on ${departments.id} = ${municipalities.departmentId}
          where ${entityScope(sql`${contributors.entityId}`)}
          group by 1 order by value desc, label`,
      ),
  });

  registerStatisticsPanel({
    key: 'contributors-by-type',
    title: 'Afiliados por tipo',
    kind: 'donut',
    resource: 'contributors',
    load: ({ db, entityScope }) =>
      panelWithTotal(
        db,
        sql`select ${contributorTypes.name} as label, count(*)::int as value
          from ${contributors} join ${contributorTypes} on ${contributorTypes.id} = ${contributors.typeId}
          where ${entityScope(sql`${contributors.entityId}`)}
          group by ${contributorTypes.id}, ${contributorTypes.name}, ${contributorTypes.sortOrder}
          order by ${contributorTypes.sortOrder}`,
      ),
  });

  registerStatisticsPanel({
    key: 'contributors-by-state',
    title: 'Afiliados por estado',
    kind: 'donut',
    resource: 'contributors',
    load: ({ db, entityScope }) =>
      panelWithTotal(
        db,
        sql`select ${contributors.state} as label, count(*)::int as value
          from ${contributors} where ${entityScope(sql`${contributors.entityId}`)}
          group by 1 order by value desc`,
      ),
  });
}
