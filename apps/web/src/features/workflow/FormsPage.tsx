import { type FormSummary, type FormVersion, formVersionStates } from '@aporta/domain/workflow';
import { Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { IconEdit, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type ListColumn, ListPage } from '../../components/ListPage.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import { useFormDefinition, useForms, useFormVersionAction } from './api.ts';
import { day, moment, VersionBadge } from './components.tsx';
import { FormRenderer } from './FormRenderer.tsx';

/** `/forms`: the library of saved forms, their versions, publish and retire. */
export function FormsPage() {
  const { t } = useTranslation();
  const can = useCan();
  const [open, setOpen] = useState<number | null>(null);
  const columns: ListColumn<FormSummary>[] = [
    { accessor: 'title', title: t('workflow.forms.form'), sortable: true },
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
    { accessor: 'updatedAt', title: t('workflow.modified'), sortable: true, render: (f) => day(f.updatedAt) },
  ];
  return (
    <ListPage<FormSummary>
      title={t('workflow.forms.title')}
      description={t('workflow.forms.description')}
      defaultSort="-updatedAt"
      searchLabel={t('workflow.search')}
      searchPlaceholder={t('workflow.forms.searchPlaceholder')}
      filters={[
        {
          name: 'state',
          label: t('workflow.state'),
          kind: 'enum',
          options: formVersionStates.map((s) => ({ value: s, label: t(`workflow.versionStates.${s}`) })),
          w: { base: '100%', sm: 160 },
        },
      ]}
      columns={columns}
      useRows={useForms}
      actions={
        can('forms', 'CREATE') && (
          <Button component={Link} to="/form-builder" leftSection={<IconPlus size={16} />}>
            {t('workflow.forms.design')}
          </Button>
        )
      }
      emptyText={t('workflow.forms.empty')}
      onRowClick={(f) => setOpen(f.id)}
    >
      {open && <FormVersionsModal id={open} onClose={() => setOpen(null)} />}
    </ListPage>
  );
}

function FormVersionsModal({ id, onClose }: { id: number; onClose: () => void }) {
  const { t } = useTranslation();
  const can = useCan();
  const form = useFormDefinition(id);
  const action = useFormVersionAction();
  const [preview, setPreview] = useState<FormVersion | null>(null);
  const run = (version: number, kind: 'publish' | 'retire') =>
    action.mutate(
      { id, version, action: kind },
      {
        onSuccess: () =>
          notifySuccess(t(kind === 'publish' ? 'workflow.versionPublished' : 'workflow.versionRetired', { version })),
        onError: notifyError,
      },
    );
  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={form.data?.title ?? t('workflow.forms.form')}
      closeButtonProps={{ 'aria-label': t('workflow.close') }}
    >
      <QueryState query={form}>
        {() => (
          <Stack>
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                {form.data?.description || t('workflow.forms.noDescription')}
              </Text>
              {can('forms', 'UPDATE') && (
                <Button component={Link} to={`/form-builder?form=${id}`} variant="light" leftSection={<IconEdit size={16} />}>
                  {t('workflow.forms.edit')}
                </Button>
              )}
            </Group>
            <Table.ScrollContainer minWidth={620}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('workflow.version')}</Table.Th>
                    <Table.Th>{t('workflow.state')}</Table.Th>
                    <Table.Th>{t('workflow.created')}</Table.Th>
                    <Table.Th>{t('workflow.published')}</Table.Th>
                    <Table.Th>{t('workflow.forms.requests')}</Table.Th>
                    <Table.Th>{t('workflow.forms.actions')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {form.data?.versions.map((v) => (
                    <Table.Tr key={v.id}>
                      <Table.Td>{t('workflow.versionShort', { version: v.version })}</Table.Td>
                      <Table.Td>
                        <VersionBadge state={v.state} />
                      </Table.Td>
                      <Table.Td>{moment(v.createdAt)}</Table.Td>
                      <Table.Td>{moment(v.publishedAt)}</Table.Td>
                      <Table.Td>{v.requests}</Table.Td>
                      <Table.Td>
                        <Group gap={4}>
                          <Button size="xs" variant="subtle" onClick={() => setPreview(v)}>
                            {t('workflow.forms.preview')}
                          </Button>
                          {can('forms', 'UPDATE') && v.state === 'BORRADOR' && (
                            <Button size="xs" onClick={() => run(v.version, 'publish')} loading={action.isPending}>
                              {t('workflow.publish')}
                            </Button>
                          )}
                          {can('forms', 'UPDATE') && v.state === 'PUBLICADA' && (
                            <Button
                              size="xs"
                              color="orange"
                              variant="light"
                              onClick={() =>
                                openConfirm({
                                  title: t('workflow.forms.retireTitle', { version: v.version }),
                                  children: <Text size="sm">{t('workflow.forms.retireText')}</Text>,
                                  labels: { confirm: t('workflow.forms.retire'), cancel: t('workflow.cancel') },
                                  confirmProps: { color: 'orange' },
                                  onConfirm: () => run(v.version, 'retire'),
                                })
                              }
                            >
                              {t('workflow.forms.retire')}
                            </Button>
                          )}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {preview && (
              <Stack gap="xs">
                <Text fw={600}>{t('workflow.forms.previewOf', { version: preview.version })}</Text>
                <FormRenderer schema={preview.schema} uiSchema={preview.uiSchema} data={{}} readOnly />
              </Stack>
            )}
          </Stack>
        )}
      </QueryState>
    </Modal>
  );
}
