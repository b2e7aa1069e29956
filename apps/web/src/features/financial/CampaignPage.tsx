import { noticeOutcomes } from '@aporta/domain';
import { Alert, Anchor, Card, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ExportButtons } from '../../components/ExportButtons.tsx';
import { Fact } from '../../components/Fact.tsx';
import { JobProgress } from '../../components/JobProgress.tsx';
import { type ListColumn, type ListFilter, ListPage, type ListParams } from '../../components/ListPage.tsx';
import { Money } from '../../components/Money.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { formatIsoDate } from '../../lib/dates.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useCan } from '../../lib/useCan.ts';
import { type NoticeRow, useCampaign, useNotices } from './api.ts';
import { CampaignStateBadge, MailStateBadge, OutcomeBadge } from './noticeBadges.tsx';

/** The notices of the campaign of the address, refreshed while it runs (the campaign's query is shared with the page). */
function useCampaignNoticeRows(params: ListParams) {
  const id = Number(useParams().id);
  const campaign = useCampaign(id);
  return useNotices({ ...params, campaignId: String(id) }, campaign.data?.state === 'EN_CURSO');
}

/**
 * `/contributors/financial-module/campaigns/:id`: one campaign of arrears notices — who started it and
 * when, as of which day, its counts and progress — and its notices: each entity, what became of it, the
 * amount of its letter (filed in Documentos), where the mail went and whether it was sent.
 */
export function CampaignPage() {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const id = Number(useParams().id);
  const q = useCampaign(id);
  const running = q.data?.state === 'EN_CURSO';
  const columns: ListColumn<NoticeRow>[] = [
    {
      accessor: 'entityName',
      title: t('financial.notices.entity'),
      render: (n) => (
        <Anchor component={Link} to={`/administrative/municipal-entities/${n.entityId}`} size="sm">
          {n.entityName}
        </Anchor>
      ),
    },
    { accessor: 'outcome', title: t('financial.notices.outcome'), render: (n) => <OutcomeBadge outcome={n.outcome} /> },
    {
      accessor: 'amount',
      title: t('financial.notices.amount'),
      textAlign: 'right',
      render: (n) => (n.amount == null ? '—' : <Money value={n.amount} />),
    },
    {
      accessor: 'addresses',
      title: t('financial.notices.addresses'),
      render: (n) => (n.addresses.length ? n.addresses.join(', ') : '—'),
    },
    { accessor: 'mailState', title: t('financial.notices.mail'), render: (n) => <MailStateBadge state={n.mailState} /> },
    {
      accessor: 'documentId',
      title: t('financial.notices.letter'),
      render: (n) =>
        n.documentId ? (
          <Anchor component={Link} to={`/folders?document=${n.documentId}`} size="sm">
            {t('financial.notices.openLetter')}
          </Anchor>
        ) : (
          '—'
        ),
    },
    { accessor: 'notifiedAt', title: t('financial.notices.notifiedAt'), kind: 'datetime' },
  ];
  const filters: ListFilter[] = [
    {
      name: 'outcome',
      label: t('financial.notices.outcome'),
      kind: 'enum',
      options: noticeOutcomes.map((o) => ({ value: o, label: t(`financial.notices.outcomes.${o}`) })),
      w: { base: '100%', sm: 200 },
    },
  ];
  return (
    <QueryState query={q} notFound={t('financial.campaigns.notFound')}>
      {() => {
        const c = q.data!;
        return (
          <Stack>
            <PageHeader
              title={t('financial.campaigns.numbered', { id: c.id })}
              description={t('financial.campaigns.pageDescription', { date: formatIsoDate(c.asOf) })}
            >
              <Anchor component={Link} to="/contributors/financial-module?tab=campaigns" size="sm">
                {t('financial.campaigns.back')}
              </Anchor>
            </PageHeader>
            {c.jobId && running && <JobProgress jobId={c.jobId} />}
            {c.failure && (
              <Alert color="red" title={t('financial.campaigns.failed')}>
                {c.failure}
              </Alert>
            )}
            <Card withBorder>
              <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
                <Fact label={t('financial.campaigns.state')}>
                  <CampaignStateBadge state={c.state} />
                </Fact>
                <Fact label={t('financial.campaigns.startedBy')}>{c.createdBy}</Fact>
                <Fact label={t('financial.campaigns.startedAt')}>{formatDateTime(c.createdAt, i18n.language)}</Fact>
                <Fact label={t('financial.campaigns.asOf')}>{formatIsoDate(c.asOf)}</Fact>
                {c.minTotal && (
                  <Fact label={t('financial.campaigns.minTotal')}>
                    <Money value={c.minTotal} />
                  </Fact>
                )}
                <Fact label={t('financial.campaigns.amount')}>
                  <Money value={c.amount} />
                </Fact>
              </SimpleGrid>
              <Text size="sm" mt="sm" data-testid="campaign-counts">
                {t('financial.campaigns.summary', {
                  entities: c.counts.entities,
                  notified: c.counts.notified,
                  withoutAddress: c.counts.withoutAddress,
                  withoutDebt: c.counts.withoutDebt,
                  already: c.counts.alreadyNotified,
                  notSent: c.counts.notSent,
                  pending: c.counts.pending,
                })}
              </Text>
            </Card>
            <ListPage<NoticeRow>
              title={t('financial.notices.title')}
              defaultSort="-id"
              searchLabel={t('financial.notices.search')}
              filters={filters}
              columns={columns}
              useRows={useCampaignNoticeRows}
              emptyText={t('financial.notices.empty')}
              actions={
                can('financial-module', 'EXPORT') ? (
                  <ExportButtons path="/api/financial/notices/export" query={{ campaignId: String(c.id) }} />
                ) : null
              }
            />
          </Stack>
        );
      }}
    </QueryState>
  );
}
