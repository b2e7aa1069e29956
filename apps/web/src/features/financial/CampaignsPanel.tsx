import { noticeCampaignStates } from '@aporta/domain';
import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type ListColumn, type ListFilter, ListPage, type ListParams } from '../../components/ListPage.tsx';
import { Money } from '../../components/Money.tsx';
import { useCan } from '../../lib/useCan.ts';
import { type CampaignRow, useCampaigns } from './api.ts';
import { CampaignStateBadge } from './noticeBadges.tsx';

const useCampaignRows = (q: ListParams) => useCampaigns(q);

/**
 * The campaigns of arrears notices within the user's scope: when and by whom, as of which day, how many
 * entities were notified, had no address or owed nothing; each opens its notices. Campaigns start from
 * the ranking.
 */
export function CampaignsPanel() {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const columns: ListColumn<CampaignRow>[] = [
    {
      accessor: 'id',
      title: t('financial.campaigns.number'),
      sortable: true,
      render: (c) => (
        <Anchor component={Link} to={`/contributors/financial-module/campaigns/${c.id}`} size="sm">
          {t('financial.campaigns.numbered', { id: c.id })}
        </Anchor>
      ),
    },
    { accessor: 'createdAt', title: t('financial.campaigns.startedAt'), kind: 'datetime' },
    { accessor: 'createdBy', title: t('financial.campaigns.startedBy') },
    { accessor: 'asOf', title: t('financial.campaigns.asOf'), sortable: true, kind: 'date' },
    { accessor: 'state', title: t('financial.campaigns.state'), render: (c) => <CampaignStateBadge state={c.state} /> },
    {
      accessor: 'counts.notified',
      title: t('financial.campaigns.notified'),
      textAlign: 'right',
      render: (c) => `${c.counts.notified} / ${c.counts.entities}`,
    },
    {
      accessor: 'counts.withoutAddress',
      title: t('financial.campaigns.withoutAddress'),
      textAlign: 'right',
      render: (c) => c.counts.withoutAddress,
    },
    {
      accessor: 'amount',
      title: t('financial.campaigns.amount'),
      textAlign: 'right',
      render: (c) => <Money value={c.amount} />,
    },
  ];
  const filters: ListFilter[] = [
    {
      name: 'state',
      label: t('financial.campaigns.state'),
      kind: 'enum',
      options: noticeCampaignStates.map((s) => ({ value: s, label: t(`financial.campaigns.states.${s}`) })),
      w: { base: '100%', sm: 180 },
    },
  ];
  return (
    <ListPage<CampaignRow>
      title={t('financial.campaigns.title')}
      description={t('financial.campaigns.description')}
      defaultSort="-id"
      search={false}
      filters={filters}
      columns={columns}
      useRows={useCampaignRows}
      exportPath={can('financial-module', 'EXPORT') ? '/api/financial/notice-campaigns/export' : null}
      emptyText={t('financial.campaigns.empty')}
      onRowClick={(c) => navigate(`/contributors/financial-module/campaigns/${c.id}`)}
    />
  );
}
