import { lazy, Suspense } from 'react';
import { Loading } from '../../components/QueryState.tsx';
import type { ContributorTab } from '../../lib/contributorTabs.ts';

const Contributions = lazy(async () => ({ default: (await import('./HistoryPage.tsx')).ContributorContributions }));

// The contributor's 360° page gains its contributions, month by month with the gaps (by CUI).
export const planillaContributorTab: ContributorTab = {
  value: 'contributions',
  labelKey: 'planillas.contributorTab',
  order: 30,
  permission: { resource: 'employee-contribution-history', action: 'READ' },
  render: (c) => (
    <Suspense fallback={<Loading />}>
      <Contributions cui={c.cui} share="employee" />
    </Suspense>
  ),
};
