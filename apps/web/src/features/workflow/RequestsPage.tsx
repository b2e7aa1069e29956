import type { SigRequest } from '@aporta/domain/workflow';
import { Anchor, Button, SegmentedControl } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { type ListColumn, ListPage, type ListParams } from '../../components/ListPage.tsx';
import { useCan } from '../../lib/useCan.ts';
import { useQueryFlows, useRequests } from './api.ts';
import { day, RequestStateBadge } from './components.tsx';

export const requestColumns = (t: (k: string) => string): ListColumn<SigRequest>[] => [
  {
    accessor: 'number',
    title: t('workflow.requests.number'),
    sortable: true,
    render: (r) => (
      <Anchor component={Link} to={`/sig/item/${r.id}`} size="sm" style={{ whiteSpace: 'nowrap' }}>
        {r.number}
      </Anchor>
    ),
  },
  { accessor: 'flowTitle', title: t('workflow.requests.flow') },
  {
    accessor: 'state',
    title: t('workflow.state'),
    sortable: true,
    render: (r) => <RequestStateBadge label={r.stateLabel} final={r.final} overdue={r.overdue} />,
  },
  { accessor: 'summary', title: t('workflow.requests.summary') },
  { accessor: 'requesterName', title: t('workflow.requests.requester') },
  { accessor: 'entityName', title: t('workflow.requests.entity'), render: (r) => r.entityName ?? t('workflow.none') },
  { accessor: 'createdAt', title: t('workflow.requests.filed'), sortable: true, render: (r) => day(r.createdAt) },
  {
    accessor: 'dueAt',
    title: t('workflow.requests.due'),
    sortable: true,
    render: (r) => (r.final ? t('workflow.none') : day(r.dueAt)),
  },
];

const useWaitingRequests = (q: ListParams) => useRequests({ ...q, waiting: 'true' });

/** `/sig/item`: the requests within the user's scope; "waiting for me" is the home queue's view. */
export function RequestsPage() {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const waiting = params.get('waiting') === 'true';
  const flows = useQueryFlows();
  return (
    <ListPage<SigRequest>
      key={String(waiting)}
      title={t('workflow.requests.title')}
      description={t('workflow.requests.description')}
      defaultSort="-id"
      searchLabel={t('workflow.search')}
      searchPlaceholder={t('workflow.requests.searchPlaceholder')}
      filters={[
        ...(flows.data?.flows.length
          ? [
              {
                name: 'flowId',
                label: t('workflow.requests.flow'),
                kind: 'enum' as const,
                options: flows.data.flows.map((f) => ({ value: String(f.id), label: f.title })),
              },
            ]
          : []),
        {
          name: 'open',
          label: t('workflow.requests.open'),
          kind: 'enum',
          options: [
            { value: 'true', label: t('workflow.requests.open') },
            { value: 'false', label: t('workflow.requests.closed') },
          ],
          w: { base: '100%', sm: 140 },
        },
      ]}
      notice={
        can('sig-items', 'UPDATE') && (
          <SegmentedControl
            value={waiting ? 'waiting' : 'all'}
            onChange={(v) => setParams(v === 'waiting' ? { waiting: 'true' } : {})}
            data={[
              { value: 'all', label: t('workflow.requests.all') },
              { value: 'waiting', label: t('workflow.requests.waiting') },
            ]}
          />
        )
      }
      columns={requestColumns(t)}
      useRows={waiting ? useWaitingRequests : useRequests}
      actions={
        can('sig-items', 'CREATE') && (
          <Button component={Link} to="/sig/item/new" leftSection={<IconPlus size={16} />}>
            {t('workflow.requests.new')}
          </Button>
        )
      }
      emptyText={waiting ? t('workflow.requests.emptyWaiting') : t('workflow.requests.empty')}
      onRowClick={(r) => navigate(`/sig/item/${r.id}`)}
    />
  );
}
