import { lazy, Suspense } from 'react';
import { Loading } from '../../components/QueryState.tsx';
import { registerContributorTab } from '../contributors/contributorTabs.tsx';

const Contributions = lazy(async () => ({ default: (await import('./HistoryPage.tsx')).ContributorContributions }));

// The contributor's 360° page gains its contributions, month by month with the gaps (by CUI).
registerContributorTab({
  value: 'contributions',
  labelKey: 'planillas.contributorTab',
  order: 30,
  permission: { resource: 'employee-contribution-history', action: 'READ' },
  render: (c) => (
    <Suspense fallback={<Loading />}>
      <Contributions cui={c.cui} share="employee" />
    </Suspense>
  ),
});
