import type { FlowSummary } from '@aporta/domain/workflow';
import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { type ListColumn, ListPage } from '../../components/ListPage.tsx';
import { useCan } from '../../lib/useCan.ts';
import { useFlows } from './api.ts';
import { day, VersionBadge } from './components.tsx';

/** `/flow`: the flows, their versions and open requests; a row opens the designer. */
export function FlowsPage() {
  const can = useCan();
  const navigate = useNavigate();
  const columns: ListColumn<FlowSummary>[] = [
    { accessor: 'title', title: 'Flujo', sortable: true, render: (f) => <Link to={`/flow/${f.id}`}>{f.title}</Link> },
    { accessor: 'formTitle', title: 'Formulario' },
    { accessor: 'latestVersion', title: 'Última versión', render: (f) => `v${f.latestVersion}` },
    { accessor: 'latestState', title: 'Estado', render: (f) => <VersionBadge state={f.latestState} /> },
    { accessor: 'publishedVersion', title: 'Publicada', render: (f) => (f.publishedVersion ? `v${f.publishedVersion}` : '—') },
    { accessor: 'openRequests', title: 'Solicitudes abiertas', textAlign: 'right' },
    { accessor: 'updatedAt', title: 'Modificado', sortable: true, render: (f) => day(f.updatedAt) },
  ];
  return (
    <ListPage<FlowSummary>
      title="Flujos"
      description="Estados y transiciones por rol por los que pasan las solicitudes."
      defaultSort="-updatedAt"
      searchLabel="Buscar"
      searchPlaceholder="Título del flujo"
      columns={columns}
      useRows={useFlows}
      actions={
        can('flow', 'CREATE') && (
          <Button component={Link} to="/flow/new" leftSection={<IconPlus size={16} />}>
            Nuevo flujo
          </Button>
        )
      }
      emptyText="No hay flujos."
      onRowClick={(f) => navigate(`/flow/${f.id}`)}
    />
  );
}
