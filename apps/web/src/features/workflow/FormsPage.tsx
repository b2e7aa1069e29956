import type { FormSummary, FormVersion } from '@aporta/domain/workflow';
import { Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { IconEdit, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { type ListColumn, ListPage } from '../../components/ListPage.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import { useForm, useForms, useFormVersionAction } from './api.ts';
import { day, moment, VersionBadge } from './components.tsx';
import { FormRenderer } from './FormRenderer.tsx';

/** `/forms`: the library of saved forms, their versions, publish and retire. */
export function FormsPage() {
  const can = useCan();
  const [open, setOpen] = useState<number | null>(null);
  const columns: ListColumn<FormSummary>[] = [
    { accessor: 'title', title: 'Formulario', sortable: true },
    { accessor: 'latestVersion', title: 'Última versión', render: (f) => `v${f.latestVersion}` },
    { accessor: 'latestState', title: 'Estado', render: (f) => <VersionBadge state={f.latestState} /> },
    { accessor: 'publishedVersion', title: 'Publicada', render: (f) => (f.publishedVersion ? `v${f.publishedVersion}` : '—') },
    { accessor: 'updatedAt', title: 'Modificado', sortable: true, render: (f) => day(f.updatedAt) },
  ];
  return (
    <ListPage<FormSummary>
      title="Formularios"
      description="Biblioteca de formularios: versiones, publicación y retiro. Una solicitud conserva la versión con que se llenó."
      defaultSort="-updatedAt"
      searchLabel="Buscar"
      searchPlaceholder="Título del formulario"
      filters={[
        {
          name: 'state',
          label: 'Estado',
          kind: 'enum',
          options: [
            { value: 'BORRADOR', label: 'Borrador' },
            { value: 'PUBLICADA', label: 'Publicada' },
            { value: 'RETIRADA', label: 'Retirada' },
          ],
          w: { base: '100%', sm: 160 },
        },
      ]}
      columns={columns}
      useRows={useForms}
      actions={
        can('forms', 'CREATE') && (
          <Button component={Link} to="/form-builder" leftSection={<IconPlus size={16} />}>
            Diseñar formulario
          </Button>
        )
      }
      emptyText="No hay formularios."
      onRowClick={(f) => setOpen(f.id)}
    >
      {open && <FormVersionsModal id={open} onClose={() => setOpen(null)} />}
    </ListPage>
  );
}

function FormVersionsModal({ id, onClose }: { id: number; onClose: () => void }) {
  const can = useCan();
  const form = useForm(id);
  const action = useFormVersionAction();
  const [preview, setPreview] = useState<FormVersion | null>(null);
  const run = (version: number, kind: 'publish' | 'retire') =>
    action.mutate(
      { id, version, action: kind },
      {
        onSuccess: () => notifySuccess(kind === 'publish' ? `Versión ${version} publicada.` : `Versión ${version} retirada.`),
        onError: notifyError,
      },
    );
  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={form.data?.title ?? 'Formulario'}
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <QueryState query={form}>
        {() => (
          <Stack>
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                {form.data?.description || 'Sin descripción.'}
              </Text>
              {can('forms', 'UPDATE') && (
                <Button component={Link} to={`/form-builder?form=${id}`} variant="light" leftSection={<IconEdit size={16} />}>
                  Editar en el diseñador
                </Button>
              )}
            </Group>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Versión</Table.Th>
                  <Table.Th>Estado</Table.Th>
                  <Table.Th>Creada</Table.Th>
                  <Table.Th>Publicada</Table.Th>
                  <Table.Th>Solicitudes</Table.Th>
                  <Table.Th>Acciones</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {form.data?.versions.map((v) => (
                  <Table.Tr key={v.id}>
                    <Table.Td>v{v.version}</Table.Td>
                    <Table.Td>
                      <VersionBadge state={v.state} />
                    </Table.Td>
                    <Table.Td>{moment(v.createdAt)}</Table.Td>
                    <Table.Td>{moment(v.publishedAt)}</Table.Td>
                    <Table.Td>{v.requests}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        <Button size="xs" variant="subtle" onClick={() => setPreview(v)}>
                          Vista previa
                        </Button>
                        {can('forms', 'UPDATE') && v.state === 'BORRADOR' && (
                          <Button size="xs" onClick={() => run(v.version, 'publish')} loading={action.isPending}>
                            Publicar
                          </Button>
                        )}
                        {can('forms', 'UPDATE') && v.state === 'PUBLICADA' && (
                          <Button
                            size="xs"
                            color="orange"
                            variant="light"
                            onClick={() =>
                              openConfirm({
                                title: `Retirar la versión ${v.version}`,
                                children: (
                                  <Text size="sm">
                                    Los flujos de este formulario dejarán de recibir solicitudes hasta que publique otra versión.
                                  </Text>
                                ),
                                labels: { confirm: 'Retirar', cancel: 'Cancelar' },
                                confirmProps: { color: 'orange' },
                                onConfirm: () => run(v.version, 'retire'),
                              })
                            }
                          >
                            Retirar
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {preview && (
              <Stack gap="xs">
                <Text fw={600}>Vista previa de la versión {preview.version}</Text>
                <FormRenderer schema={preview.schema} uiSchema={preview.uiSchema} data={{}} readOnly />
              </Stack>
            )}
          </Stack>
        )}
      </QueryState>
    </Modal>
  );
}
