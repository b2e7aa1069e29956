import type { StatisticsPanel } from '@aporta/domain';
import type { RequestContext } from '../../platform/context.ts';
import { panelVisible, statisticsEntityScope, statisticsPanels } from './panels.ts';

/** Every panel the user may see, computed inside their statistics scope. Needs statistics READ. */
export async function loadStatistics(ctx: RequestContext): Promise<StatisticsPanel[]> {
  const entityScope = statisticsEntityScope(ctx);
  const visible = statisticsPanels().filter((p) => panelVisible(p, ctx));
  return Promise.all(
    visible.map(async (p) => ({
      key: p.key,
      titleKey: `statistics.panels.${p.key}`,
      title: p.title,
      kind: p.kind,
      ...(await p.load({ db: ctx.db, user: ctx.user, entityScope })),
    })),
  );
}
