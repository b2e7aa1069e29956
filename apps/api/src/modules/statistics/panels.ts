import type { CurrentUser, Resource, StatisticsPanel } from '@aporta/domain';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import {
  delegates,
  departments,
  entityAssignments,
  entityRegions,
  municipalEntities,
  municipalities,
  regionDelegates,
  regions,
  users,
} from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';

/** What a panel receives: the database, the user, and their entity scope for the statistics screen. */
export interface PanelContext {
  db: Db;
  user: CurrentUser;
  /** WHERE on a municipal entity id column limiting it to the user's statistics scope (true for ALL). */
  entityScope: (column: SQL | typeof municipalEntities.id) => SQL;
}

/**
 * A statistics panel. Later modules (contributors, contributions, arrears) register theirs with
 * `registerStatisticsPanel`; the screen renders every panel the user may see, in registration order.
 */
export interface PanelDefinition {
  key: string;
  title: string;
  kind: StatisticsPanel['kind'];
  /** Permission needed besides statistics READ (e.g. `contributors` READ for a contributors panel). */
  resource?: Resource;
  load(ctx: PanelContext): Promise<{ total: number; items: { label: string; value: number }[] }>;
}

const panels: PanelDefinition[] = [];

export function registerStatisticsPanel(panel: PanelDefinition): void {
  if (panels.some((p) => p.key === panel.key)) throw new Error(`Panel de estadísticas repetido: ${panel.key}`);
  panels.push(panel);
}

export const statisticsPanels = (): readonly PanelDefinition[] => panels;

/** A panel with its own resource shows only to who also reads that resource. */
export const panelVisible = (p: PanelDefinition, ctx: RequestContext) => !p.resource || !!ctx.scopeFor(p.resource, 'READ');

/** The statistics route's scope as a condition on an entity id column (true for ALL). */
export function statisticsEntityScope(ctx: RequestContext): PanelContext['entityScope'] {
  return (column) => ctx.inScope(column) ?? sql`true`;
}

/** A panel's items from a query answering `label` and `value` columns; `label` may turn a code into words. */
export async function panelItems(db: Db, query: SQL, label: (code: string) => string = (code) => code) {
  return rowsOf<{ label: string; value: number | string }>(await db.execute(query)).map((x) => ({
    label: label(String(x.label)),
    value: Number(x.value),
  }));
}

/** A panel of those items with their total (the sum of its values). */
export async function panelWithTotal(db: Db, query: SQL, label?: (code: string) => string) {
  const items = await panelItems(db, query, label);
  return { total: items.reduce((s, i) => s + i.value, 0), items };
}

/** Entities a delegate reaches: through their regions or assigned directly (the REGION scope's rule). */
const delegateReach = sql`(
  select ${regionDelegates.delegateId} as delegate_id, ${entityRegions.entityId} as entity_id
    from ${regionDelegates} join ${entityRegions} on ${entityRegions.regionId} = ${regionDelegates.regionId}
  union
  select ${entityAssignments.delegateId}, ${entityAssignments.entityId} from ${entityAssignments}
)`;

registerStatisticsPanel({
  key: 'entities-by-department',
  title: 'Entidades activas por departamento',
  kind: 'bar',
  load: async ({ db, entityScope }) => {
    const items = await panelItems(
      db,
      sql`select ${departments.name} as label, count(${municipalEntities.id})::int as value
        from ${departments}
        left join ${municipalities} on ${municipalities.departmentId} = ${departments.id}
        left join ${municipalEntities} on ${municipalEntities.municipalityId} = ${municipalities.id}
          and ${municipalEntities.isActive} and ${entityScope(municipalEntities.id)}
        group by ${departments.id}, ${departments.name} having count(${municipalEntities.id}) > 0
        order by value desc, label`,
    );
    return { total: items.reduce((s, i) => s + i.value, 0), items };
  },
});

registerStatisticsPanel({
  key: 'entities-by-region',
  title: 'Entidades activas por región',
  kind: 'donut',
  load: async ({ db, entityScope }) => {
    const items = await panelItems(
      db,
      sql`select ${regions.name} as label, count(distinct ${municipalEntities.id})::int as value
        from ${regions}
        join ${entityRegions} on ${entityRegions.regionId} = ${regions.id}
        join ${municipalEntities} on ${municipalEntities.id} = ${entityRegions.entityId}
          and ${municipalEntities.isActive} and ${entityScope(municipalEntities.id)}
        group by ${regions.id}, ${regions.name}
        order by value desc, label`,
    );
    return { total: items.reduce((s, i) => s + i.value, 0), items };
  },
});

registerStatisticsPanel({
  key: 'delegate-workload',
  title: 'Carga de trabajo: entidades por delegado',
  kind: 'bar',
  load: async ({ db, entityScope }) => {
    const items = await panelItems(
      db,
      sql`select coalesce(nullif(trim(${users.firstName} || ' ' || ${users.lastName}), ''), ${users.email}) as label,
               count(distinct reach.entity_id)::int as value
        from ${delegates}
        join ${users} on ${users.id} = ${delegates.userId}
        join ${delegateReach} reach on reach.delegate_id = ${delegates.id}
        join ${municipalEntities} on ${municipalEntities.id} = reach.entity_id and ${municipalEntities.isActive}
        where ${delegates.isActive} and ${entityScope(sql`reach.entity_id`)}
        group by ${delegates.id}, label
        order by value desc, label`,
    );
    return { total: items.length, items };
  },
});

registerStatisticsPanel({
  key: 'entities-without-delegate',
  title: 'Entidades sin delegado',
  kind: 'list',
  load: async ({ db, entityScope }) => {
    const where = sql`${municipalEntities.isActive} and ${entityScope(municipalEntities.id)} and not exists (
      select 1 from ${delegateReach} reach join ${delegates} on ${delegates.id} = reach.delegate_id
      where reach.entity_id = ${municipalEntities.id} and ${delegates.isActive})`;
    const [{ value: total }] = await panelItems(
      db,
      sql`select '' as label, count(*)::int as value from ${municipalEntities} where ${where}`,
    );
    // The list shows the first 100 by name; the headline number counts them all.
    const items = await panelItems(
      db,
      sql`select ${municipalEntities.name} as label, ${municipalEntities.id} as value from ${municipalEntities}
        where ${where} order by ${municipalEntities.name} limit 100`,
    );
    return { total, items };
  },
});
