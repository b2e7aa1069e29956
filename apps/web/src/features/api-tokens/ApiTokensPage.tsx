import {
  API_TOKEN_MAX_DAYS,
  apiTokenInputSchema,
  apiTokenStates,
  type IntegrationPermission,
  integrationPermissionsHeld,
} from '@aporta/domain/api-tokens';
import { addDays } from '@aporta/domain/calendar';
import { guatemalaToday } from '@aporta/domain/settings';
import { Alert, Badge, Button, Checkbox, Code, CopyButton, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconCopy, IconKey, IconPlus } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../components/DateField.tsx';
import { FormActions } from '../../components/FormActions.tsx';
import { type ListColumn, type ListFilter, ListPage, type ListParams } from '../../components/ListPage.tsx';
import { useCurrentUser } from '../../lib/auth.ts';
import { openConfirm } from '../../lib/confirm.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import {
  type ApiTokenBody,
  type ApiTokenRow,
  useApiTokenEntities,
  useApiTokens,
  useCreateApiToken,
  useRevokeApiToken,
} from './api.ts';

// ListPage calls its `useRows` as a hook: a plain, stable function.
const useApiTokenRows = (params: ListParams) => useApiTokens(params);

const stateColors = { ACTIVE: 'teal', EXPIRED: 'gray', REVOKED: 'red' } as const;

function StateBadge({ state }: { state: ApiTokenRow['state'] }) {
  const { t } = useTranslation();
  return (
    <Badge color={stateColors[state]} variant="light" c="var(--mantine-color-text)" data-testid="api-token-state">
      {t(`apiTokens.states.${state}`)}
    </Badge>
  );
}

interface FormValues {
  name: string;
  entityId: string | null;
  permissions: IntegrationPermission[];
  expiresOn: string | null;
}

const toInput = (v: FormValues): ApiTokenBody => ({
  name: v.name,
  entityId: v.entityId ? Number(v.entityId) : 0,
  permissions: v.permissions,
  expiresOn: v.expiresOn ?? '',
});
const fields = ['name', 'entityId', 'permissions', 'expiresOn'];

/** The form of a new token, then the token itself, shown this once with a copy button. */
function NewTokenModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const entities = useApiTokenEntities(opened);
  const create = useCreateApiToken();
  const [created, setCreated] = useState<{ token: string; name: string } | null>(null);
  const today = guatemalaToday();
  const held = useMemo(() => (user ? integrationPermissionsHeld(user.permissions) : []), [user]);
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: { name: '', entityId: null, permissions: [], expiresOn: addDays(today, 90) },
    validate: (values) => zod4Resolver(apiTokenInputSchema)(toInput(values)),
  });
  const entityOptions = (entities.data ?? []).map((e) => ({ value: String(e.id), label: `${e.code} — ${e.name}` }));
  // One entity in reach (an entity's own administrator): it is the one.
  if (opened && !form.values.entityId && entityOptions.length === 1) form.setFieldValue('entityId', entityOptions[0].value);

  const close = () => {
    setCreated(null);
    form.reset();
    onClose();
  };
  const submit = form.onSubmit((values) =>
    create.mutate(toInput(values), {
      onSuccess: (answer) => setCreated({ token: answer.token, name: answer.apiToken.name }),
      onError: (e) => showApiError(e, form, fields),
    }),
  );

  return (
    <Modal
      opened={opened}
      onClose={close}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      title={created ? t('apiTokens.createdTitle') : t('apiTokens.newTitle')}
      size="lg"
      centered
    >
      {created ? (
        <Stack>
          <Text size="sm">{t('apiTokens.createdFor', { name: created.name })}</Text>
          <Code block fz="sm" style={{ wordBreak: 'break-all' }} dir="ltr" data-testid="api-token-secret">
            {created.token}
          </Code>
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title={t('apiTokens.onceTitle')}>
            {t('apiTokens.onceText')}
          </Alert>
          <Group justify="flex-end">
            <CopyButton value={created.token}>
              {({ copied, copy }) => (
                <Button variant="default" leftSection={<IconCopy size={16} />} onClick={copy}>
                  {copied ? t('apiTokens.copied') : t('apiTokens.copy')}
                </Button>
              )}
            </CopyButton>
            <Button onClick={close}>{t('apiTokens.done')}</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput
              label={t('apiTokens.fields.name')}
              description={t('apiTokens.nameHelp')}
              required
              maxLength={100}
              {...form.getInputProps('name')}
            />
            <Select
              label={t('apiTokens.fields.entity')}
              required
              searchable
              allowDeselect={false}
              nothingFoundMessage={t('apiTokens.noEntities')}
              data={entityOptions}
              disabled={entities.isLoading}
              {...form.getInputProps('entityId')}
            />
            <Checkbox.Group
              label={t('apiTokens.fields.permissions')}
              description={t('apiTokens.permissionsHelp')}
              required
              {...form.getInputProps('permissions')}
            >
              <Stack gap="xs" mt="xs">
                {held.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    {t('apiTokens.noPermissions')}
                  </Text>
                ) : (
                  held.map((p) => (
                    <Checkbox
                      key={p}
                      value={p}
                      label={t(`apiTokens.permissions.${p}`)}
                      description={t(`apiTokens.permissionHelp.${p}`)}
                    />
                  ))
                )}
              </Stack>
            </Checkbox.Group>
            <DateField
              label={t('apiTokens.fields.expiresOn')}
              description={t('apiTokens.expiresHelp', { days: API_TOKEN_MAX_DAYS })}
              required
              minDate={addDays(today, 1)}
              maxDate={addDays(today, API_TOKEN_MAX_DAYS)}
              value={form.values.expiresOn}
              onChange={(v) => form.setFieldValue('expiresOn', v)}
              error={form.errors.expiresOn}
            />
            <FormActions onCancel={close} submitLabel={t('apiTokens.create')} loading={create.isPending} />
          </Stack>
        </form>
      )}
    </Modal>
  );
}

/** `/administrative/tokens-integracion`: the tokens a municipality's payroll software calls the API with. */
export function ApiTokensPage() {
  const { t } = useTranslation();
  const can = useCan();
  const [creating, setCreating] = useState(false);
  const revoke = useRevokeApiToken();

  const askRevoke = (row: ApiTokenRow) =>
    openConfirm({
      title: t('apiTokens.revokeTitle'),
      children: <Text size="sm">{t('apiTokens.revokeText', { name: row.name, entity: row.entityName })}</Text>,
      labels: { confirm: t('apiTokens.revoke'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        revoke.mutate(row.id, {
          onSuccess: () => notifySuccess(t('apiTokens.revoked', { name: row.name })),
          onError: notifyError,
        }),
    });

  const filters: ListFilter[] = [
    {
      name: 'state',
      label: t('apiTokens.fields.state'),
      kind: 'enum',
      options: apiTokenStates.map((s) => ({ value: s, label: t(`apiTokens.states.${s}`) })),
      w: { base: '100%', sm: 190 },
    },
  ];
  const columns: ListColumn<ApiTokenRow>[] = [
    { accessor: 'name', title: t('apiTokens.fields.name'), sortable: true },
    {
      accessor: 'prefix',
      title: t('apiTokens.fields.prefix'),
      render: (r) => <Code dir="ltr">{r.prefix}…</Code>,
    },
    { accessor: 'entityName', title: t('apiTokens.fields.entity'), render: (r) => `${r.entityCode} — ${r.entityName}` },
    {
      accessor: 'permissions',
      title: t('apiTokens.fields.permissions'),
      render: (r) => (
        <Group gap={4}>
          {r.permissions.map((p) => (
            <Badge key={p} variant="outline" size="sm" c="var(--mantine-color-text)">
              {t(`apiTokens.permissions.${p}`)}
            </Badge>
          ))}
        </Group>
      ),
    },
    { accessor: 'state', title: t('apiTokens.fields.state'), render: (r) => <StateBadge state={r.state} /> },
    { accessor: 'expiresAt', title: t('apiTokens.fields.expiresAt'), sortable: true, kind: 'datetime' },
    { accessor: 'lastUsedAt', title: t('apiTokens.fields.lastUsedAt'), sortable: true, kind: 'datetime' },
    { accessor: 'createdByEmail', title: t('apiTokens.fields.createdBy') },
    {
      accessor: 'actions',
      title: '',
      textAlign: 'right',
      render: (r) =>
        can('api-tokens', 'DELETE') && r.state !== 'REVOKED' ? (
          <Button size="compact-sm" variant="subtle" color="red" onClick={() => askRevoke(r)}>
            {t('apiTokens.revoke')}
          </Button>
        ) : null,
    },
  ];
  return (
    <>
      <ListPage<ApiTokenRow>
        title={t('apiTokens.title')}
        description={t('apiTokens.intro')}
        actions={
          can('api-tokens', 'CREATE') ? (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              {t('apiTokens.new')}
            </Button>
          ) : null
        }
        notice={
          <Alert variant="light" color="blue" icon={<IconKey size={18} />}>
            {t('apiTokens.guide')}
          </Alert>
        }
        defaultSort="-id"
        searchLabel={t('apiTokens.search')}
        searchPlaceholder={t('apiTokens.searchPlaceholder')}
        filters={filters}
        columns={columns}
        useRows={useApiTokenRows}
        exportPath={can('api-tokens', 'EXPORT') ? '/api/api-tokens/export' : null}
        emptyText={t('apiTokens.empty')}
      />
      <NewTokenModal opened={creating} onClose={() => setCreating(false)} />
    </>
  );
}
