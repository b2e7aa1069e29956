import { institutionKinds, SYSTEM_INSTITUTION_LABEL } from '@aporta/domain';
import { ActionIcon, Badge, Button, Group, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ListColumn, type ListFilter, ListPage } from '../../components/ListPage.tsx';
import { RequirePermission } from '../../components/RequirePermission.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import { type InstitutionRow, useDeleteInstitution, useFindInstitutions, useInstitutionOptions } from './api.ts';
import { InstitutionFormModal } from './InstitutionFormModal.tsx';

/** Menu label "Permisos": institutions and the default roles each gives its users. */
export function InstitutionsPage() {
  const { t } = useTranslation();
  const can = useCan();
  const remove = useDeleteInstitution();
  const options = useInstitutionOptions();
  // An institution whose default roles exceed the user's privilege ceiling cannot be changed by them.
  const assignable = new Set((options.data?.roles ?? []).filter((r) => r.assignable).map((r) => r.id));
  const manageable = (i: InstitutionRow) => !!options.data && i.roles.every((r) => assignable.has(r.id));
  const [editing, setEditing] = useState<InstitutionRow | null | undefined>(undefined);
  const canUpdate = can('institutions', 'UPDATE');
  const canDelete = can('institutions', 'DELETE');

  const confirmDelete = (i: InstitutionRow) =>
    openConfirm({
      title: t('institutions.deleteTitle'),
      children: <Text size="sm">{t('institutions.deleteText', { name: i.name })}</Text>,
      labels: { confirm: t('institutions.delete'), cancel: t('institutions.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(i.id, { onSuccess: () => notifySuccess(t('institutions.deleted')), onError: notifyError }),
    });

  const filters: ListFilter[] = [
    {
      name: 'kind',
      label: t('institutions.kind'),
      kind: 'enum',
      options: institutionKinds.map((k) => ({ value: k, label: t(`institutions.kindOption.${k}`) })),
      w: { base: '100%', sm: 200 },
    },
  ];

  const columns: ListColumn<InstitutionRow>[] = [
    { accessor: 'code', title: t('institutions.code'), sortable: true },
    {
      accessor: 'name',
      title: t('institutions.name'),
      sortable: true,
      render: (i) => (
        <Group gap={6}>
          <Text size="sm">{i.name}</Text>
          {i.kind === 'SISTEMA' && (
            <Badge color="grape.9" variant="outline" size="sm">
              {SYSTEM_INSTITUTION_LABEL}
            </Badge>
          )}
        </Group>
      ),
    },
    {
      accessor: 'kind',
      title: t('institutions.kind'),
      sortable: true,
      render: (i) => t(`institutions.kindOption.${i.kind}`),
    },
    { accessor: 'entityName', title: t('institutions.entity'), render: (i) => i.entityName ?? '—' },
    {
      accessor: 'roles',
      title: t('institutions.defaultRoles'),
      render: (i) =>
        i.kind === 'SISTEMA' ? (
          <Text size="sm" c="dimmed">
            {t('institutions.allPermissions')}
          </Text>
        ) : (
          <Group gap={4}>
            {i.roles.map((r) => (
              <Badge key={r.id} color="blue.9" variant="outline" size="sm">
                {r.name}
              </Badge>
            ))}
          </Group>
        ),
    },
    { accessor: 'userCount', title: t('institutions.users'), textAlign: 'right' },
    {
      accessor: 'isActive',
      title: t('institutions.status'),
      sortable: true,
      render: (i) => (
        <Badge color={i.isActive ? 'teal.9' : 'gray.7'} variant="outline" size="sm">
          {i.isActive ? t('institutions.activeOne') : t('institutions.inactiveOne')}
        </Badge>
      ),
    },
    {
      accessor: 'actions',
      title: <VisuallyHidden>{t('institutions.actions')}</VisuallyHidden>,
      textAlign: 'right',
      render: (i) =>
        i.kind === 'SISTEMA' || !manageable(i) ? null : (
          <Group gap={4} justify="flex-end" wrap="nowrap">
            {canUpdate && (
              <Tooltip label={t('institutions.edit')}>
                <ActionIcon variant="subtle" aria-label={`${t('institutions.edit')}: ${i.code}`} onClick={() => setEditing(i)}>
                  <IconPencil size={18} />
                </ActionIcon>
              </Tooltip>
            )}
            {canDelete && (
              <Tooltip label={t('institutions.delete')}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`${t('institutions.delete')}: ${i.code}`}
                  onClick={() => confirmDelete(i)}
                >
                  <IconTrash size={18} />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        ),
    },
  ];

  return (
    <ListPage<InstitutionRow>
      title={t('institutions.title')}
      description={t('institutions.subtitle')}
      defaultSort="name"
      searchLabel={t('institutions.search')}
      searchPlaceholder={t('institutions.searchPlaceholder')}
      filters={filters}
      columns={columns}
      useRows={useFindInstitutions}
      exportPath={can('institutions', 'EXPORT') ? '/api/institutions/export' : null}
      actions={
        can('institutions', 'CREATE') && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)}>
            {t('institutions.new')}
          </Button>
        )
      }
      emptyText={t('institutions.empty')}
    >
      <InstitutionFormModal opened={editing !== undefined} institution={editing ?? null} onClose={() => setEditing(undefined)} />
    </ListPage>
  );
}

/** The route's element: the page behind its permission ("No autorizado" otherwise). */
export function InstitutionsScreen() {
  return (
    <RequirePermission resource="institutions">
      <InstitutionsPage />
    </RequirePermission>
  );
}
