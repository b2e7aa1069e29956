import type { FlowSummary } from '@aporta/domain/workflow';
import { Anchor, Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type ListColumn, ListPage } from '../../components/ListPage.tsx';
import { useCan } from '../../lib/useCan.ts';
import { useFlows } from './api.ts';
import { day, VersionBadge } from './components.tsx';

/** `/flow`: the flows, their versions and open requests; a row opens the designer. */
export function FlowsPage() {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const columns: ListColumn<FlowSummary>[] = [
    {
      accessor: 'title',
      title: t('workflow.flows.flow'),
      sortable: true,
      render: (f) => (
        <Anchor component={Link} to={`/flow/${f.id}`} size="sm">
          {f.title}
        </Anchor>
      ),
    },
    { accessor: 'formTitle', title: t('workflow.flows.form') },
    {
      accessor: 'latestVersion',
      title: t('workflow.latestVersion'),
      render: (f) => t('workflow.versionShort', { version: f.latestVersion }),
    },
    { accessor: 'latestState', title: t('workflow.state'), render: (f) => <VersionBadge state={f.latestState} /> },
    {
      accessor: 'publishedVersion',
      title: t('workflow.published'),
      render: (f) => (f.publishedVersion ? t('workflow.versionShort', { version: f.publishedVersion }) : t('workflow.none')),
    },
    { accessor: 'openRequests', title: t('workflow.flows.openRequests'), textAlign: 'right' },
    { accessor: 'updatedAt', title: t('workflow.modified'), sortable: true, render: (f) => day(f.updatedAt) },
  ];
  return (
    <ListPage<FlowSummary>
      title={t('workflow.flows.title')}
      description={t('workflow.flows.description')}
      defaultSort="-updatedAt"
      searchLabel={t('workflow.search')}
      searchPlaceholder={t('workflow.flows.searchPlaceholder')}
      columns={columns}
      useRows={useFlows}
      actions={
        can('flow', 'CREATE') && (
          <Button component={Link} to="/flow/new" leftSection={<IconPlus size={16} />}>
            {t('workflow.flows.new')}
          </Button>
        )
      }
      emptyText={t('workflow.flows.empty')}
      onRowClick={(f) => navigate(`/flow/${f.id}`)}
    />
  );
}
