import { legalStages } from '@aporta/domain';
import { Anchor, Stack, Table, Tabs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type ListColumn, type ListFilter, ListPage, type ListParams } from '../../components/ListPage.tsx';
import { Money } from '../../components/Money.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useCan } from '../../lib/useCan.ts';
import { useTabParam } from '../../lib/useTabParam.ts';
import { type CaseRow, useCases, useDeadlines } from './api.ts';
import { day, StageBadge } from './components.tsx';

function useCaseRows(q: ListParams) {
  return useCases(q);
}

function Deadlines() {
  const { t } = useTranslation();
  const q = useDeadlines();
  const items = q.data?.items ?? [];
  if (!items.length) return <Text c="dimmed">{q.isPending ? t('legal.loading') : t('legal.noDeadlines')}</Text>;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped data-testid="week-deadlines">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('legal.fields.dueDate')}</Table.Th>
            <Table.Th>{t('legal.fields.case')}</Table.Th>
            <Table.Th>{t('legal.fields.entity')}</Table.Th>
            <Table.Th>{t('legal.fields.description')}</Table.Th>
            <Table.Th>{t('legal.fields.responsible')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((d) => (
            <Table.Tr key={d.id}>
              <Table.Td>{day(d.dueDate)}</Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/contributors/legal-module/${d.caseId}`} size="sm">
                  {d.caseNumber}
                </Anchor>
              </Table.Td>
              <Table.Td>{d.entityName}</Table.Td>
              <Table.Td>{d.description}</Table.Td>
              <Table.Td>{d.responsible ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** `/contributors/legal-module`: collection cases (stage filter, export) and the week's deadlines. */
export function LegalPage() {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const [tab, setTab] = useTabParam(['cases', 'deadlines'] as const);
  const columns: ListColumn<CaseRow>[] = [
    {
      accessor: 'number',
      title: t('legal.fields.number'),
      render: (c) => (
        <Anchor component={Link} to={`/contributors/legal-module/${c.id}`} size="sm">
          {c.number}
        </Anchor>
      ),
    },
    { accessor: 'entityName', title: t('legal.fields.entity') },
    { accessor: 'stage', title: t('legal.fields.stage'), render: (c) => <StageBadge stage={c.stage} /> },
    { accessor: 'openedOn', title: t('legal.fields.openedOn'), sortable: true, kind: 'date' },
    {
      accessor: 'amountAtOpening',
      title: t('legal.fields.amountAtOpening'),
      textAlign: 'right',
      render: (c) => <Money value={c.amountAtOpening} />,
    },
    {
      accessor: 'amountNow',
      title: t('legal.fields.amountNow'),
      textAlign: 'right',
      render: (c) => <Money value={c.amountNow} />,
    },
    { accessor: 'nextDeadline', title: t('legal.fields.nextDeadline'), render: (c) => day(c.nextDeadline) },
  ];
  const filters: ListFilter[] = [
    {
      name: 'stage',
      label: t('legal.fields.stage'),
      kind: 'enum',
      options: legalStages.map((s) => ({ value: s, label: t(`legal.stages.${s}`) })),
      w: { base: '100%', sm: 170 },
    },
  ];
  return (
    <Stack>
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List>
          <Tabs.Tab value="cases">{t('legal.tabs.cases')}</Tabs.Tab>
          <Tabs.Tab value="deadlines">{t('legal.tabs.deadlines')}</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {tab === 'cases' ? (
        <ListPage<CaseRow>
          title={t('legal.title')}
          description={t('legal.description')}
          defaultSort="-id"
          searchLabel={t('legal.search')}
          filters={filters}
          columns={columns}
          useRows={useCaseRows}
          exportPath={can('legal-module', 'EXPORT') ? '/api/legal/cases/export' : null}
          emptyText={t('legal.empty')}
          onRowClick={(c) => navigate(`/contributors/legal-module/${c.id}`)}
        />
      ) : (
        <>
          <PageHeader title={t('legal.tabs.deadlines')} description={t('legal.deadlinesHelp')} />
          <Deadlines />
        </>
      )}
    </Stack>
  );
}
