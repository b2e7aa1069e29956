import type { SigRequest } from '@aporta/domain/workflow';
import { Card, Table, Text } from '@mantine/core';
import { useNavigate } from 'react-router';
import { type ListFilter, ListPage } from '../../components/ListPage.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { useCan } from '../../lib/useCan.ts';
import { useQueryFlows, useSigCounts, useSigQuery } from './api.ts';
import { requestColumns } from './RequestsPage.tsx';

/** `/dummy` (Consulta SIG): search requests by number, flow, state, requester, entity, dates, overdue; export; counts. */
export function SigQueryPage() {
  const can = useCan();
  const navigate = useNavigate();
  const flows = useQueryFlows();
  const counts = useSigCounts({});
  const states = [...new Map((flows.data?.flows ?? []).flatMap((f) => f.states.map((s) => [s.key, s.label] as const))).entries()];
  const filters: ListFilter[] = [
    {
      name: 'flowId',
      label: 'Flujo',
      kind: 'enum',
      options: (flows.data?.flows ?? []).map((f) => ({ value: String(f.id), label: f.title })),
    },
    {
      name: 'state',
      label: 'Estado',
      kind: 'enum',
      options: states.map(([value, label]) => ({ value, label })),
      w: { base: '100%', sm: 160 },
    },
    { name: 'requester', label: 'Solicitante', kind: 'text', w: { base: '100%', sm: 180 } },
    { name: 'from', label: 'Presentada desde', kind: 'date', w: { base: '100%', sm: 160 } },
    { name: 'to', label: 'Hasta', kind: 'date', w: { base: '100%', sm: 160 } },
    {
      name: 'overdue',
      label: 'Vencidas',
      kind: 'enum',
      options: [
        { value: 'true', label: 'Vencidas' },
        { value: 'false', label: 'Al día' },
      ],
      w: { base: '100%', sm: 130 },
    },
  ];
  return (
    <ListPage<SigRequest>
      title="Consulta SIG"
      description="Búsqueda de solicitudes por número, flujo, estado, solicitante, fechas y vencimiento."
      defaultSort="-id"
      searchLabel="Número o datos"
      searchPlaceholder="SIG-2026-000001, CUI, nombre…"
      filters={filters}
      columns={requestColumns()}
      useRows={useSigQuery}
      exportPath={can('sig-query', 'EXPORT') ? '/api/sig/query/export' : null}
      notice={
        <QueryState query={counts}>
          {() =>
            counts.data!.items.length > 0 && (
              <Card withBorder p="xs">
                <Text fw={600} size="sm" mb={4}>
                  Cantidades por flujo y estado
                </Text>
                <Table fz="sm" withRowBorders={false} aria-label="Cantidades por flujo y estado">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Flujo</Table.Th>
                      <Table.Th>Estado</Table.Th>
                      <Table.Th ta="right">Solicitudes</Table.Th>
                      <Table.Th ta="right">Vencidas</Table.Th>
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
              </Card>
            )
          }
        </QueryState>
      }
      emptyText="Ninguna solicitud coincide con la búsqueda."
      onRowClick={(r) => navigate(`/sig/item/${r.id}`)}
    />
  );
}
