import type { SigRequest } from '@aporta/domain/workflow';
import { Card, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type ListFilter, ListPage } from '../../components/ListPage.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { useCan } from '../../lib/useCan.ts';
import { useQueryFlows, useSigCounts, useSigQuery } from './api.ts';
import { requestColumns } from './RequestsPage.tsx';

/** `/dummy` (Consulta SIG): search requests by number, flow, state, requester, entity, dates, overdue; export; counts. */
export function SigQueryPage() {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const flows = useQueryFlows();
  const counts = useSigCounts({});
  const states = [...new Map((flows.data?.flows ?? []).flatMap((f) => f.states.map((s) => [s.key, s.label] as const))).entries()];
  const filters: ListFilter[] = [
    {
      name: 'flowId',
      label: t('workflow.requests.flow'),
      kind: 'enum',
      options: (flows.data?.flows ?? []).map((f) => ({ value: String(f.id), label: f.title })),
    },
    {
      name: 'state',
      label: t('workflow.state'),
      kind: 'enum',
      options: states.map(([value, label]) => ({ value, label })),
      w: { base: '100%', sm: 160 },
    },
    { name: 'requester', label: t('workflow.requests.requester'), kind: 'text', w: { base: '100%', sm: 180 } },
    { name: 'from', label: t('workflow.query.filedFrom'), kind: 'date', w: { base: '100%', sm: 160 } },
    { name: 'to', label: t('workflow.query.to'), kind: 'date', w: { base: '100%', sm: 160 } },
    {
      name: 'overdue',
      label: t('workflow.query.overdue'),
      kind: 'enum',
      options: [
        { value: 'true', label: t('workflow.query.overdue') },
        { value: 'false', label: t('workflow.query.onTime') },
      ],
      w: { base: '100%', sm: 130 },
    },
  ];
  return (
    <ListPage<SigRequest>
      title={t('workflow.query.title')}
      description={t('workflow.query.description')}
      defaultSort="-id"
      searchLabel={t('workflow.query.search')}
      searchPlaceholder={t('workflow.query.searchPlaceholder')}
      filters={filters}
      columns={requestColumns(t)}
      useRows={useSigQuery}
      exportPath={can('sig-query', 'EXPORT') ? '/api/sig/query/export' : null}
      notice={
        <QueryState query={counts}>
          {() =>
            counts.data!.items.length > 0 && (
              <Card withBorder p="xs">
                <Text fw={600} size="sm" mb={4}>
                  {t('workflow.query.counts')}
                </Text>
                <Table.ScrollContainer minWidth={360}>
                  <Table fz="sm" withRowBorders={false} aria-label={t('workflow.query.counts')}>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('workflow.requests.flow')}</Table.Th>
                        <Table.Th>{t('workflow.state')}</Table.Th>
                        <Table.Th ta="right">{t('workflow.query.requests')}</Table.Th>
                        <Table.Th ta="right">{t('workflow.query.overdue')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {counts.data!.items.map((c) => (
                        <Table.Tr key={`${c.flowId}-${c.state}`}>
                          <Table.Td>{c.flowTitle}</Table.Td>
                          <Table.Td>{c.stateLabel}</Table.Td>
                          <Table.Td ta="right">{c.count}</Table.Td>
                          <Table.Td ta="right">{c.overdue}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              </Card>
            )
          }
        </QueryState>
      }
      emptyText={t('workflow.query.empty')}
      onRowClick={(r) => navigate(`/sig/item/${r.id}`)}
    />
  );
}
