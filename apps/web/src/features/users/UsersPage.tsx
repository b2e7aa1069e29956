import { fullNameOf } from '@aporta/domain';
import { ActionIcon, Badge, Button, Group, Menu, Text, VisuallyHidden } from '@mantine/core';
import { IconDots, IconKey, IconLogout, IconPencil, IconPlus, IconUserCheck, IconUserOff } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ListColumn, type ListFilter, ListPage } from '../../components/ListPage.tsx';
import { RequirePermission } from '../../components/RequirePermission.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import {
  type UserOptions,
  type UserRow,
  useFindUsers,
  useResetUserPassword,
  useRevokeUserSessions,
  useSetUserActive,
  useUserOptions,
} from './api.ts';
import { OneTimePasswordModal } from './OneTimePasswordModal.tsx';
import { UserFormModal } from './UserFormModal.tsx';

/**
 * True when the current user may act on `u` at all: every role and institution it holds is one they may
 * assign (a super-administrator account or a stronger one is not), the same rule the server applies.
 */
function isManageable(u: UserRow, options: UserOptions | undefined): boolean {
  if (!options) return false;
  const roles = new Set(options.roles.filter((r) => r.assignable).map((r) => r.id));
  const insts = new Set(options.institutions.filter((i) => i.assignable).map((i) => i.id));
  return u.roles.every((r) => roles.has(r.id)) && u.institutions.every((i) => insts.has(i.id));
}

export function UsersPage() {
  const { t } = useTranslation();
  const can = useCan();
  const options = useUserOptions();
  const setActive = useSetUserActive();
  const reset = useResetUserPassword();
  const revoke = useRevokeUserSessions();
  const [editing, setEditing] = useState<UserRow | null | undefined>(undefined);
  const [otp, setOtp] = useState<{ email: string; password: string } | null>(null);
  const canUpdate = can('users', 'UPDATE');

  const confirmActive = (u: UserRow) =>
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

  const confirmReset = (u: UserRow) =>
    openConfirm({
      title: t('users.resetTitle'),
      children: <Text size="sm">{t('users.resetText', { name: fullNameOf(u) })}</Text>,
      labels: { confirm: t('users.reset'), cancel: t('users.cancel') },
      onConfirm: () =>
        reset.mutate(u.id, { onSuccess: (res) => setOtp({ email: u.email, password: res.password }), onError: notifyError }),
    });

  const confirmRevoke = (u: UserRow) =>
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

  const filters: ListFilter[] = [
    {
      name: 'isActive',
      label: t('users.status'),
      kind: 'enum',
      options: [
        { value: 'true', label: t('users.activeMany') },
        { value: 'false', label: t('users.inactiveMany') },
      ],
      w: { base: '100%', sm: 160 },
    },
    {
      name: 'roleId',
      label: t('users.role'),
      kind: 'reference',
      options: (options.data?.roles ?? []).map((r) => ({ value: String(r.id), label: r.name })),
      w: { base: '100%', sm: 220 },
    },
    {
      name: 'institutionId',
      label: t('users.institution'),
      kind: 'reference',
      options: (options.data?.institutions ?? []).map((i) => ({ value: String(i.id), label: i.code })),
      w: { base: '100%', sm: 200 },
    },
  ];

  const columns: ListColumn<UserRow>[] = [
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
    { accessor: 'lastLoginAt', title: t('users.lastLogin'), sortable: true, kind: 'datetime' },
    {
      accessor: 'actions',
      title: <VisuallyHidden>{t('users.actions')}</VisuallyHidden>,
      textAlign: 'right',
      hidden: !canUpdate,
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
  ];

  return (
    <ListPage<UserRow>
      title={t('users.title')}
      defaultSort="email"
      searchLabel={t('users.search')}
      searchPlaceholder={t('users.searchPlaceholder')}
      filters={filters}
      columns={columns}
      useRows={useFindUsers}
      exportPath={can('users', 'EXPORT') ? '/api/users/export' : null}
      actions={
        can('users', 'CREATE') && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)}>
            {t('users.new')}
          </Button>
        )
      }
      emptyText={t('users.empty')}
    >
      <UserFormModal
        opened={editing !== undefined}
        user={editing ?? null}
        onClose={() => setEditing(undefined)}
        onCreated={(email, password) => setOtp({ email, password })}
      />
      <OneTimePasswordModal email={otp?.email ?? ''} password={otp?.password ?? null} onClose={() => setOtp(null)} />
    </ListPage>
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
