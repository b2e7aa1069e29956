import { contributorStates } from '@aporta/domain';
import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { StateBadge } from '../../components/ContributorStateBadge.tsx';
import { JobProgress } from '../../components/JobProgress.tsx';
import { type ListColumn, type ListFilter, ListPage } from '../../components/ListPage.tsx';
import { useTrackedJob } from '../../lib/jobs.ts';
import { useContributorOptions } from '../../lib/referenceOptions.ts';
import { useCan } from '../../lib/useCan.ts';
import { type Contributor, useFindContributors } from './api.ts';

// A search left on the default order is ranked by relevance (the server's order when no sort is sent).
const relevanceWhenSearching = ({ q, sort }: { q: string; sort: string }) =>
  q && sort.replace(/^-/, '') === 'updatedAt' ? undefined : sort;

export function ContributorListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = useCan();
  // Up to a million rows: the export runs as a job whose progress stays here when the user comes back.
  const [exportJob, setExportJob] = useTrackedJob('contributors.export');
  // The filters' choices need contributors READ; without it the filters stay empty rather than failing.
  const options = useContributorOptions(can('contributors', 'READ'));

  const filters: ListFilter[] = [
    {
      name: 'entityId',
      label: t('contributors.fields.entity'),
      kind: 'reference',
      options: (options.data?.entities ?? []).map((e) => ({ value: String(e.id), label: e.name })),
    },
    {
      name: 'municipalityId',
      label: t('contributors.fields.municipality'),
      kind: 'reference',
      options: (options.data?.municipalities ?? []).map((m) => ({
        value: String(m.id),
        label: `${m.name} (${m.departmentName})`,
      })),
    },
    {
      name: 'typeId',
      label: t('contributors.fields.type'),
      kind: 'reference',
      options: (options.data?.types ?? []).map((x) => ({ value: String(x.id), label: x.name })),
      w: { base: '100%', sm: 160 },
    },
    {
      name: 'state',
      label: t('contributors.fields.state'),
      kind: 'enum',
      options: contributorStates.map((s) => ({ value: s, label: t(`contributors.states.${s}`) })),
      w: { base: '100%', sm: 160 },
    },
  ];

  const columns: ListColumn<Contributor>[] = [
    { accessor: 'cui', title: 'CUI', sortable: true, kind: 'cui' },
    {
      accessor: 'name',
      title: t('contributors.fields.fullName'),
      sortable: true,
      render: (c) => <Link to={`/contributors/${c.id}`}>{c.fullName}</Link>,
    },
    { accessor: 'typeName', title: t('contributors.fields.type') },
    { accessor: 'entityName', title: t('contributors.fields.entity') },
    { accessor: 'municipalityName', title: t('contributors.fields.municipality') },
    { accessor: 'state', title: t('contributors.fields.state'), sortable: true, render: (c) => <StateBadge value={c.state} /> },
    {
      accessor: 'cuiState',
      title: t('contributors.fields.cuiState'),
      sortable: true,
      render: (c) => <StateBadge value={c.cuiState} />,
    },
  ];

  return (
    <ListPage<Contributor>
      title={t('contributors.list.title')}
      defaultSort="-updatedAt"
      sortParam={relevanceWhenSearching}
      searchLabel={t('contributors.list.search')}
      searchPlaceholder={t('contributors.list.searchPlaceholder')}
      filters={filters}
      columns={columns}
      useRows={useFindContributors}
      exportPath={can('contributor-list', 'EXPORT') ? '/api/contributors/export' : null}
      exportInBackground={{ path: '/api/contributors/export-jobs', onStarted: setExportJob }}
      notice={exportJob !== null && <JobProgress jobId={exportJob} onDismiss={() => setExportJob(null)} />}
      actions={
        can('contributor-new', 'CREATE') && (
          <Button component={Link} to="/contributors/new" leftSection={<IconPlus size={16} />}>
            {t('contributors.new')}
          </Button>
        )
      }
      emptyText={t('contributors.list.empty')}
      onRowClick={(c) => navigate(`/contributors/${c.id}`)}
    />
  );
}
