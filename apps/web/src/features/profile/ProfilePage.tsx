import { institutionLabelOf, profileUpdateSchema } from '@aporta/domain';
import { Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMail } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ChangePasswordForm } from '../../components/ChangePasswordForm.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { formatDateTime } from '../../lib/format.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useFindOwnSessions, useGetProfile, useRevokeOtherSessions, useRevokeOwnSession, useUpdateProfile } from './api.ts';

/** A short, readable name for a browser's user agent. */
function deviceOf(userAgent: string | null): string {
  if (!userAgent) return '—';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : '';
  const os = /Windows/.test(userAgent)
    ? 'Windows'
    : /Android/.test(userAgent)
      ? 'Android'
      : /iPhone|iPad/.test(userAgent)
        ? 'iOS'
        : /Mac OS/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : '';
  return [browser, os].filter(Boolean).join(' · ') || userAgent.slice(0, 40);
}

export function ProfilePage() {
  const { t } = useTranslation();
  const profile = useGetProfile();
  const update = useUpdateProfile();
  const sessions = useFindOwnSessions();
  const revoke = useRevokeOwnSession();
  const revokeOthers = useRevokeOtherSessions();
  const form = useForm({
    mode: 'controlled',
    initialValues: { firstName: '', lastName: '' },
    validate: zod4Resolver(profileUpdateSchema),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: fill the form once the profile arrives.
  useEffect(() => {
    if (profile.data) form.setValues({ firstName: profile.data.firstName, lastName: profile.data.lastName });
  }, [profile.data?.id]);

  if (!profile.data) return <QueryState query={profile}>{null}</QueryState>;
  const p = profile.data;
  const others = (sessions.data ?? []).filter((s) => !s.isCurrent).length;

  const submit = form.onSubmit((values) =>
    update.mutate(values, {
      onSuccess: () => notifySuccess(t('profile.saved')),
      onError: (e) => showApiError(e, form, ['firstName', 'lastName']),
    }),
  );

  const confirmOthers = () =>
    openConfirm({
      title: t('profile.closeOthersTitle'),
      children: <Text size="sm">{t('profile.closeOthersText', { count: others })}</Text>,
      labels: { confirm: t('profile.closeOthers'), cancel: t('profile.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        revokeOthers.mutate(undefined, {
          onSuccess: (r) => notifySuccess(t('profile.closedOthers', { count: r.revoked })),
          onError: notifyError,
        }),
    });

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {t('profile.title')}
        </Title>
        <Button component={Link} to="/profile/correo" variant="light" leftSection={<IconMail size={16} />}>
          {t('profile.mailPreferences')}
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <form onSubmit={submit} noValidate>
            <Stack>
              <Title order={2} size="h4">
                {t('profile.myData')}
              </Title>
              <TextInput label={t('profile.email')} value={p.email} readOnly />
              <Group grow align="flex-start">
                <TextInput label={t('profile.firstName')} required {...form.getInputProps('firstName')} />
                <TextInput label={t('profile.lastName')} required {...form.getInputProps('lastName')} />
              </Group>
              <div>
                <Text size="sm" fw={500}>
                  {t('profile.institution')}
                </Text>
                <Text size="sm" data-testid="profile-institution">
                  {institutionLabelOf(p) || '—'}
                </Text>
              </div>
              <div>
                <Text size="sm" fw={500}>
                  {t('profile.roles')}
                </Text>
                <Group gap={4}>
                  {p.roles.length === 0 ? (
                    <Text size="sm">—</Text>
                  ) : (
                    p.roles.map((r) => (
                      <Badge key={r.id} color="blue.9" variant="outline">
                        {r.name}
                      </Badge>
                    ))
                  )}
                </Group>
              </div>
              <Text size="sm" c="dimmed">
                {t('profile.lastLogin', { date: formatDateTime(p.lastLoginAt) || '—' })}
              </Text>
              <Group justify="flex-end">
                <Button type="submit" loading={update.isPending}>
                  {t('profile.save')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Card>
        <Card withBorder>
          <Stack>
            <Title order={2} size="h4">
              {t('profile.changePassword')}
            </Title>
            <ChangePasswordForm email={p.email} onDone={() => notifySuccess(t('profile.passwordChanged'))} />
          </Stack>
        </Card>
      </SimpleGrid>
      <Card withBorder>
        <Stack>
          <Group justify="space-between">
            <Title order={2} size="h4">
              {t('profile.sessions')}
            </Title>
            <Button variant="light" color="red" disabled={others === 0} onClick={confirmOthers}>
              {t('profile.closeOthers')}
            </Button>
          </Group>
          <Table.ScrollContainer minWidth={600}>
            <Table striped data-testid="sessions-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('profile.device')}</Table.Th>
                  <Table.Th>{t('profile.ip')}</Table.Th>
                  <Table.Th>{t('profile.started')}</Table.Th>
                  <Table.Th>{t('profile.lastSeen')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('profile.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(sessions.data ?? []).map((s) => (
                  <Table.Tr key={s.id}>
                    <Table.Td>
                      <Group gap={6}>
                        <Text size="sm">{deviceOf(s.userAgent)}</Text>
                        {s.isCurrent && (
                          <Badge size="sm" color="teal.9" variant="outline">
                            {t('profile.current')}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>{s.ip ?? '—'}</Table.Td>
                    <Table.Td>{formatDateTime(s.createdAt)}</Table.Td>
                    <Table.Td>{formatDateTime(s.lastSeenAt)}</Table.Td>
                    <Table.Td ta="right">
                      {!s.isCurrent && (
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          loading={revoke.isPending && revoke.variables === s.id}
                          onClick={() =>
                            revoke.mutate(s.id, {
                              onSuccess: () => notifySuccess(t('profile.sessionClosed')),
                              onError: notifyError,
                            })
                          }
                        >
                          {t('profile.closeSession')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>
      </Card>
    </Stack>
  );
}
