import type { CurrentUser, StatisticsPanel } from '@aporta/domain';
import type { Db } from '../../db/client.ts';
import { panelVisible, statisticsEntityScope, statisticsPanels } from './panels.ts';

/** Every panel the user may see, computed inside their data scope. Needs statistics READ. */
export async function loadStatistics({ db, user }: { db: Db; user: CurrentUser }): Promise<StatisticsPanel[]> {
  const entityScope = statisticsEntityScope(user);
  const visible = statisticsPanels().filter((p) => panelVisible(p, user));
  return Promise.all(
    visible.map(async (p) => ({
      key: p.key,
      titleKey: `statistics.panels.${p.key}`,
      title: p.title,
      kind: p.kind,
      ...(await p.load({ db, user, entityScope })),
    })),
  );
}
