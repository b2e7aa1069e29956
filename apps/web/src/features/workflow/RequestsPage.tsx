import type { SigRequest } from '@aporta/domain/workflow';
import { Button, SegmentedControl } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { type ListColumn, ListPage, type ListParams } from '../../components/ListPage.tsx';
import { useCan } from '../../lib/useCan.ts';
import { useQueryFlows, useRequests } from './api.ts';
import { day, RequestStateBadge } from './components.tsx';

export const requestColumns = (): ListColumn<SigRequest>[] => [
  { accessor: 'number', title: 'Número', sortable: true, render: (r) => <Link to={`/sig/item/${r.id}`}>{r.number}</Link> },
  { accessor: 'flowTitle', title: 'Flujo' },
  {
    accessor: 'state',
    title: 'Estado',
    sortable: true,
    render: (r) => <RequestStateBadge label={r.stateLabel} final={r.final} overdue={r.overdue} />,
  },
  { accessor: 'summary', title: 'Resumen' },
  { accessor: 'requesterName', title: 'Solicitante' },
  { accessor: 'entityName', title: 'Entidad', render: (r) => r.entityName ?? '—' },
  { accessor: 'createdAt', title: 'Presentada', sortable: true, render: (r) => day(r.createdAt) },
  { accessor: 'dueAt', title: 'Vence', sortable: true, render: (r) => (r.final ? '—' : day(r.dueAt)) },
];

const useWaitingRequests = (q: ListParams) => useRequests({ ...q, waiting: 'true' });

/** `/sig/item`: the requests within the user's scope; "waiting for me" is the home queue's view. */
export function RequestsPage() {
  const can = useCan();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const waiting = params.get('waiting') === 'true';
  const flows = useQueryFlows();
  return (
    <ListPage<SigRequest>
      key={String(waiting)}
      title="Solicitudes"
      description="Solicitudes (SIG) a su alcance: su estado, quién debe actuar y cuándo vencen."
      defaultSort="-id"
      searchLabel="Buscar"
      searchPlaceholder="Número o datos de la solicitud"
      filters={[
        ...(flows.data?.flows.length
          ? [
              {
                name: 'flowId',
                label: 'Flujo',
                kind: 'enum' as const,
                options: flows.data.flows.map((f) => ({ value: String(f.id), label: f.title })),
              },
            ]
          : []),
        {
          name: 'open',
          label: 'Abiertas',
          kind: 'enum',
          options: [
            { value: 'true', label: 'Abiertas' },
            { value: 'false', label: 'Cerradas' },
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
              { value: 'all', label: 'Todas' },
              { value: 'waiting', label: 'Esperan mi acción' },
            ]}
          />
        )
      }
      columns={requestColumns()}
      useRows={waiting ? useWaitingRequests : useRequests}
      actions={
        can('sig-items', 'CREATE') && (
          <Button component={Link} to="/sig/item/new" leftSection={<IconPlus size={16} />}>
            Nueva solicitud
          </Button>
        )
      }
      emptyText={waiting ? 'Ninguna solicitud espera su acción.' : 'No hay solicitudes.'}
      onRowClick={(r) => navigate(`/sig/item/${r.id}`)}
    />
  );
}
