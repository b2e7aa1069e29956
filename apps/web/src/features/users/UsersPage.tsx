import 'mantine-datatable/styles.layer.css';
import { fullNameOf, scopeFor, type UserRecord } from '@aporta/domain';
import { ActionIcon, Badge, Button, Group, Menu, Select, Stack, Text, TextInput, VisuallyHidden } from '@mantine/core';

import { IconDots, IconKey, IconLogout, IconPencil, IconPlus, IconSearch, IconUserCheck, IconUserOff } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButtons } from '../../components/ExportButtons.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { RequirePermission } from '../../components/RequirePermission.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { formatDateTime } from '../../lib/format.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useListState } from '../../lib/useListState.ts';
import { useCurrentUser } from '../auth/useAuth.ts';
import { OneTimePasswordModal } from './OneTimePasswordModal.tsx';
import { UserFormModal } from './UserFormModal.tsx';
import {
  isManageable,
  useFindUsers,
  useResetUserPassword,
  useRevokeUserSessions,
  useSetUserActive,
  useUserOptions,
} from './useUsers.ts';

export function UsersPage() {
  const { t } = useTranslation();
  const { data: me } = useCurrentUser();
  const can = (action: 'CREATE' | 'UPDATE' | 'EXPORT') => !!me && !!scopeFor(me.permissions, 'users', action);
  const list = useListState<UserRecord>('email');
  const [isActive, setIsActive] = useState<string | null>(null);
  const [roleId, setRoleId] = useState<string | null>(null);
  const [institutionId, setInstitutionId] = useState<string | null>(null);
  const filterQuery = {
    ...list.filterQuery,
    isActive: isActive ?? undefined,
    roleId: roleId ?? undefined,
    institutionId: institutionId ?? undefined,
  };
  const users = useFindUsers({ ...filterQuery, ...list.pageQuery });
  const options = useUserOptions();
  const setActive = useSetUserActive();
  const reset = useResetUserPassword();
  const revoke = useRevokeUserSessions();
  const [editing, setEditing] = useState<UserRecord | null | undefined>(undefined);
  const [otp, setOtp] = useState<{ email: string; password: string } | null>(null);

  const filter = (set: (v: string | null) => void) => (v: string | null) => {
    set(v);
    list.resetPage();
  };

  const confirmActive = (u: UserRecord) =>
    openConfirm({
      title: u.isActive ? t('users.deactivateTitle') : t('users.activateTitle'),
      children: <Text size="sm">{t(u.isActive ? 'users.deactivateText' : 'users.activateText', { name: fullNameOf(u) })}</Text>,
      labels: { confirm: u.isActive ? t('users.deactivate') : t('users.activate'), cancel: t('users.cancel') },
      confirmProps: { color: u.isActive ? 'red' : undefined },
      onConfirm: () =>
        setActive.mutate(
          { id: u.id, isActive: !u.isActive },
          {
            onSuccess: () => notifySuccess(u.isActive ? t('users.deactivated') : t('users.activated')),
            onError: notifyError,
          },
        ),
    });

  const confirmReset = (u: UserRecord) =>
    openConfirm({
      title: t('users.resetTitle'),
      children: <Text size="sm">{t('users.resetText', { name: fullNameOf(u) })}</Text>,
      labels: { confirm: t('users.reset'), cancel: t('users.cancel') },
      onConfirm: () =>
        reset.mutate(u.id, { onSuccess: (res) => setOtp({ email: u.email, password: res.password }), onError: notifyError }),
    });

  const confirmRevoke = (u: UserRecord) =>
    openConfirm({
      title: t('users.revokeTitle'),
      children: <Text size="sm">{t('users.revokeText', { name: fullNameOf(u) })}</Text>,
      labels: { confirm: t('users.revoke'), cancel: t('users.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        revoke.mutate(u.id, {
          onSuccess: (res) => notifySuccess(t('users.revoked', { count: res.revoked })),
          onError: notifyError,
        }),
    });

  return (
    <Stack>
      <PageHeader title={t('users.title')}>
        {can('EXPORT') && <ExportButtons path="/api/users/export" query={filterQuery} />}
        {can('CREATE') && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)}>
            {t('users.new')}
          </Button>
        )}
      </PageHeader>
      <Group align="flex-end" gap="sm">
        <TextInput
          label={t('users.search')}
          placeholder={t('users.searchPlaceholder')}
          leftSection={<IconSearch size={16} />}
          value={list.search}
          onChange={(e) => list.setSearch(e.currentTarget.value)}
          w={{ base: '100%', sm: 280 }}
        />
        <Select
          label={t('users.status')}
          placeholder={t('users.all')}
          clearable
          clearButtonProps={{ 'aria-label': t('users.clear') }}
          data={[
            { value: 'true', label: t('users.activeMany') },
            { value: 'false', label: t('users.inactiveMany') },
          ]}
          value={isActive}
          onChange={filter(setIsActive)}
          w={160}
        />
        <Select
          label={t('users.role')}
          placeholder={t('users.all')}
          clearable
          clearButtonProps={{ 'aria-label': t('users.clear') }}
          searchable
          data={(options.data?.roles ?? []).map((r) => ({ value: String(r.id), label: r.name }))}
          value={roleId}
          onChange={filter(setRoleId)}
          w={220}
        />
        <Select
          label={t('users.institution')}
          placeholder={t('users.all')}
          clearable
          clearButtonProps={{ 'aria-label': t('users.clear') }}
          searchable
          data={(options.data?.institutions ?? []).map((i) => ({ value: String(i.id), label: i.code }))}
          value={institutionId}
          onChange={filter(setInstitutionId)}
          w={200}
        />
      </Group>
      <QueryState query={users} list>
        <DataTable<UserRecord>
          withTableBorder
          striped
          highlightOnHover
          minHeight={200}
          records={users.data?.items ?? []}
          fetching={users.isFetching}
          totalRecords={users.data?.total ?? 0}
          {...list.tableProps}
          noRecordsText={t('users.empty')}
          columns={[
            {
              accessor: 'lastName',
              title: t('users.name'),
              sortable: true,
              render: (u) => (
                <Text size="sm" fw={500}>
                  {fullNameOf(u)}
                </Text>
              ),
            },
            { accessor: 'email', title: t('users.email'), sortable: true },
            {
              accessor: 'roles',
              title: t('users.roles'),
              render: (u) => (
                <Group gap={4}>
                  {u.roles.map((r) => (
                    <Badge key={r.id} color="blue.9" variant="outline" size="sm">
                      {r.name}
                    </Badge>
                  ))}
                </Group>
              ),
            },
            {
              accessor: 'institutions',
              title: t('users.institutions'),
              render: (u) => u.institutions.map((i) => i.code).join(', '),
            },
            {
              accessor: 'isActive',
              title: t('users.status'),
              sortable: true,
              render: (u) => (
                <Group gap={4}>
                  <Badge color={u.isActive ? 'teal.9' : 'gray.7'} variant="outline" size="sm">
                    {u.isActive ? t('users.activeOne') : t('users.inactiveOne')}
                  </Badge>
                  {u.isLocked && (
                    <Badge color="red.9" variant="outline" size="sm">
                      {t('users.locked')}
                    </Badge>
                  )}
                  {u.mustChangePassword && (
                    <Badge color="violet.9" variant="outline" size="sm">
                      {t('users.mustChange')}
                    </Badge>
                  )}
                </Group>
              ),
            },
            {
              accessor: 'lastLoginAt',
              title: t('users.lastLogin'),
              sortable: true,
              render: (u) => formatDateTime(u.lastLoginAt) || '—',
            },
            {
              accessor: 'actions',
              title: <VisuallyHidden>{t('users.actions')}</VisuallyHidden>,
              textAlign: 'right',
              hidden: !can('UPDATE'),
              // Accounts beyond the user's privilege ceiling (super administrators, stronger accounts) get no actions.
              render: (u) =>
                !isManageable(u, options.data) ? null : (
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <ActionIcon variant="subtle" aria-label={t('users.actionsFor', { email: u.email })}>
                        <IconDots size={18} />
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => setEditing(u)}>
                        {t('users.edit')}
                      </Menu.Item>
                      <Menu.Item
                        leftSection={u.isActive ? <IconUserOff size={16} /> : <IconUserCheck size={16} />}
                        color={u.isActive ? 'red' : undefined}
                        onClick={() => confirmActive(u)}
                      >
                        {u.isActive ? t('users.deactivate') : t('users.activate')}
                      </Menu.Item>
                      <Menu.Item leftSection={<IconKey size={16} />} onClick={() => confirmReset(u)}>
                        {t('users.reset')}
                      </Menu.Item>
                      <Menu.Item
                        leftSection={<IconLogout size={16} />}
                        onClick={() => confirmRevoke(u)}
                        disabled={u.activeSessions === 0}
                      >
                        {t('users.revoke')}
                      </Menu.Item>
                    </Menu.Dropdown>
                  </Menu>
                ),
            },
          ]}
        />
      </QueryState>
      <UserFormModal
        opened={editing !== undefined}
        user={editing ?? null}
        onClose={() => setEditing(undefined)}
        onCreated={(email, password) => setOtp({ email, password })}
      />
      <OneTimePasswordModal email={otp?.email ?? ''} password={otp?.password ?? null} onClose={() => setOtp(null)} />
    </Stack>
  );
}

/** The route's element: the page behind its permission ("No autorizado" otherwise). */
export function UsersScreen() {
  return (
    <RequirePermission resource="users">
      <UsersPage />
    </RequirePermission>
  );
}
