import 'mantine-datatable/styles.layer.css';
import { ceilingOf, type Grant, grantsBeyond, type RoleRecord, scopeFor } from '@aporta/domain';
import { ActionIcon, Button, Group, Stack, Text, TextInput, Tooltip, VisuallyHidden } from '@mantine/core';

import { IconPencil, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ExportButtons } from '../../components/ExportButtons.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { RequirePermission } from '../../components/RequirePermission.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { formatDateTime } from '../../lib/format.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useListState } from '../../lib/useListState.ts';
import { useCurrentUser } from '../auth/useAuth.ts';
import { useDeleteRole, useFindRoles } from './useRoles.ts';

export function RolesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: me } = useCurrentUser();
  const can = (action: 'CREATE' | 'UPDATE' | 'DELETE' | 'EXPORT') => !!me && !!scopeFor(me.permissions, 'roles', action);
  // A role granting more than the user holds is shown, never edited or deleted by them (privilege ceiling).
  const withinCeiling = (r: RoleRecord) => !!me && grantsBeyond(ceilingOf(me).permissions, r.grants as Grant[]).length === 0;
  const list = useListState<RoleRecord>('name');
  const roles = useFindRoles({ ...list.filterQuery, ...list.pageQuery });
  const remove = useDeleteRole();

  const confirmDelete = (r: RoleRecord) =>
    openConfirm({
      title: t('roles.deleteTitle'),
      children: <Text size="sm">{t('roles.deleteText', { name: r.name })}</Text>,
      labels: { confirm: t('roles.delete'), cancel: t('roles.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(r.id, { onSuccess: () => notifySuccess(t('roles.deleted', { name: r.name })), onError: notifyError }),
    });

  return (
    <Stack>
      <PageHeader title={t('roles.title')}>
        {can('EXPORT') && <ExportButtons path="/api/roles/export" query={list.filterQuery} />}
        {can('CREATE') && (
          <Button component={Link} to="/roles/new" leftSection={<IconPlus size={16} />}>
            {t('roles.new')}
          </Button>
        )}
      </PageHeader>
      <TextInput
        label={t('roles.search')}
        placeholder={t('roles.searchPlaceholder')}
        leftSection={<IconSearch size={16} />}
        value={list.search}
        onChange={(e) => list.setSearch(e.currentTarget.value)}
        w={{ base: '100%', sm: 320 }}
      />
      <QueryState query={roles} list>
        <DataTable<RoleRecord>
          withTableBorder
          striped
          highlightOnHover
          minHeight={200}
          records={roles.data?.items ?? []}
          fetching={roles.isFetching}
          totalRecords={roles.data?.total ?? 0}
          {...list.tableProps}
          noRecordsText={t('roles.empty')}
          columns={[
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
            { accessor: 'updatedAt', title: t('roles.updated'), sortable: true, render: (r) => formatDateTime(r.updatedAt) },
            {
              accessor: 'actions',
              title: <VisuallyHidden>{t('roles.actions')}</VisuallyHidden>,
              textAlign: 'right',
              render: (r) => (
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  <Tooltip label={can('UPDATE') && withinCeiling(r) ? t('roles.edit') : t('roles.view')}>
                    <ActionIcon
                      variant="subtle"
                      aria-label={`${can('UPDATE') && withinCeiling(r) ? t('roles.edit') : t('roles.view')}: ${r.name}`}
                      onClick={() => navigate(`/roles/${r.id}`)}
                    >
                      <IconPencil size={18} />
                    </ActionIcon>
                  </Tooltip>
                  {can('DELETE') && withinCeiling(r) && (
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
          ]}
        />
      </QueryState>
    </Stack>
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
