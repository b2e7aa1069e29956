import { lazy, Suspense } from 'react';
import { Loading } from '../../components/QueryState.tsx';
import type { ContributorTab } from '../../lib/contributorTabs.ts';

const Pensions = lazy(async () => ({ default: (await import('./ContributorPensions.tsx')).ContributorPensions }));

// The contributor's 360° page gains the pensions paid for them (theirs, or their survivors').
export const pensionContributorTab: ContributorTab = {
  value: 'pensions',
  labelKey: 'pensions.contributorTab',
  order: 40,
  permission: { resource: 'passive-classes', action: 'READ' },
  render: (c) => (
    <Suspense fallback={<Loading />}>
      <Pensions contributorId={c.id} />
    </Suspense>
  ),
};
