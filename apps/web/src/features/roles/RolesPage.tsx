import { ceilingOf, type Grant, grantsBeyond } from '@aporta/domain';
import { ActionIcon, Button, Group, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type ListColumn, ListPage } from '../../components/ListPage.tsx';
import { RequirePermission } from '../../components/RequirePermission.tsx';
import { useCurrentUser } from '../../lib/auth.ts';
import { openConfirm } from '../../lib/confirm.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import { type RoleRow, useDeleteRole, useFindRoles } from './api.ts';

export function RolesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: me } = useCurrentUser();
  const can = useCan();
  const canUpdate = can('roles', 'UPDATE');
  const canDelete = can('roles', 'DELETE');
  // A role granting more than the user holds is shown, never edited or deleted by them (privilege ceiling).
  const withinCeiling = (r: RoleRow) => !!me && grantsBeyond(ceilingOf(me).permissions, r.grants as Grant[]).length === 0;
  const remove = useDeleteRole();

  const confirmDelete = (r: RoleRow) =>
    openConfirm({
      title: t('roles.deleteTitle'),
      children: <Text size="sm">{t('roles.deleteText', { name: r.name })}</Text>,
      labels: { confirm: t('roles.delete'), cancel: t('roles.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(r.id, { onSuccess: () => notifySuccess(t('roles.deleted', { name: r.name })), onError: notifyError }),
    });

  const columns: ListColumn<RoleRow>[] = [
    {
      accessor: 'name',
      title: t('roles.name'),
      sortable: true,
      render: (r) => (
        <Text fw={500} size="sm">
          {r.name}
        </Text>
      ),
    },
    { accessor: 'description', title: t('roles.description'), sortable: true },
    { accessor: 'grants', title: t('roles.permissions'), textAlign: 'right', render: (r) => r.grants.length },
    { accessor: 'userCount', title: t('roles.users'), textAlign: 'right' },
    { accessor: 'updatedAt', title: t('roles.updated'), sortable: true, kind: 'datetime' },
    {
      accessor: 'actions',
      title: <VisuallyHidden>{t('roles.actions')}</VisuallyHidden>,
      textAlign: 'right',
      render: (r) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label={canUpdate && withinCeiling(r) ? t('roles.edit') : t('roles.view')}>
            <ActionIcon
              variant="subtle"
              aria-label={`${canUpdate && withinCeiling(r) ? t('roles.edit') : t('roles.view')}: ${r.name}`}
              onClick={() => navigate(`/roles/${r.id}`)}
            >
              <IconPencil size={18} />
            </ActionIcon>
          </Tooltip>
          {canDelete && withinCeiling(r) && (
            <Tooltip label={t('roles.delete')}>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`${t('roles.delete')}: ${r.name}`}
                onClick={() => confirmDelete(r)}
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
    <ListPage<RoleRow>
      title={t('roles.title')}
      defaultSort="name"
      searchLabel={t('roles.search')}
      searchPlaceholder={t('roles.searchPlaceholder')}
      columns={columns}
      useRows={useFindRoles}
      exportPath={can('roles', 'EXPORT') ? '/api/roles/export' : null}
      actions={
        can('roles', 'CREATE') && (
          <Button component={Link} to="/roles/new" leftSection={<IconPlus size={16} />}>
            {t('roles.new')}
          </Button>
        )
      }
      emptyText={t('roles.empty')}
    />
  );
}

/** The route's element: the page behind its permission ("No autorizado" otherwise). */
export function RolesScreen() {
  return (
    <RequirePermission resource="roles">
      <RolesPage />
    </RequirePermission>
  );
}
