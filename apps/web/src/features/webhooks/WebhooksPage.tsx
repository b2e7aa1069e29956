import {
  WEBHOOK_DELIVERY_EVENTS,
  WEBHOOK_DELIVERY_STATES,
  WEBHOOK_EVENTS,
  type WebhookDeliveryState,
  type WebhookSubscribableEvent,
  webhookEndpointInputSchema,
} from '@aporta/domain/webhooks';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconCopy, IconPlus, IconWebhook } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../components/DateField.tsx';
import { FormActions } from '../../components/FormActions.tsx';
import { type ListColumn, type ListFilter, ListPage, type ListParams } from '../../components/ListPage.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { formatDateTime } from '../../lib/format.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import { useTabParam } from '../../lib/useTabParam.ts';
import {
  useCreateWebhook,
  usePingWebhook,
  useResendDelivery,
  useUpdateWebhook,
  useWebhookDeliveries,
  useWebhookDelivery,
  useWebhookEndpoints,
  useWebhookEntities,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from './api.ts';

// ListPage calls its `useRows` as a hook: plain, stable functions.
const useEndpointRows = (params: ListParams) => useWebhookEndpoints(params);
const useDeliveryRows = (params: ListParams) => useWebhookDeliveries(params);

const stateColors: Record<WebhookDeliveryState, string> = { PENDING: 'yellow', SENDING: 'blue', SENT: 'green', FAILED: 'red' };

function DeliveryStateBadge({ state }: { state: WebhookDeliveryState }) {
  const { t } = useTranslation();
  return (
    <Badge color={stateColors[state]} variant="light" c="var(--mantine-color-text)" data-testid="webhook-delivery-state">
      {t(`webhooks.states.${state}`)}
    </Badge>
  );
}

const eventLabel = (t: TFunction, event: string): string => t(`webhooks.events.${event.replace('.', '_')}`);

/** The institution-wide choice of the entity select (only for those who may register one). */
const INSTITUTION = 'all';

interface FormValues {
  name: string;
  entityId: string | null;
  url: string;
  events: WebhookSubscribableEvent[];
}

const toInput = (v: FormValues) => ({
  name: v.name,
  entityId: v.entityId === INSTITUTION ? null : v.entityId ? Number(v.entityId) : 0,
  url: v.url,
  events: v.events,
});
const fields = ['name', 'entityId', 'url', 'events'];

/** A new endpoint (then its secret, shown this once) or an endpoint's change (no entity, no secret). */
function EndpointModal({
  editing,
  opened,
  onClose,
}: {
  editing: WebhookEndpointRow | null;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const entities = useWebhookEntities(opened && !editing);
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const [created, setCreated] = useState<{ secret: string; name: string } | null>(null);
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: { name: '', entityId: null, url: 'https://', events: [...WEBHOOK_EVENTS] },
    validate: (values) =>
      zod4Resolver(webhookEndpointInputSchema)(editing ? { ...toInput(values), entityId: editing.entityId } : toInput(values)),
  });
  const [loadedFor, setLoadedFor] = useState<number | null>(null);
  if (opened && editing && loadedFor !== editing.id) {
    setLoadedFor(editing.id);
    form.setValues({ name: editing.name, entityId: null, url: editing.url, events: editing.events });
  }
  const options = [
    ...(entities.data?.institutionWide ? [{ value: INSTITUTION, label: t('webhooks.institution') }] : []),
    ...(entities.data?.entities ?? []).map((e) => ({ value: String(e.id), label: `${e.code} — ${e.name}` })),
  ];
  if (opened && !editing && !form.values.entityId && options.length === 1) form.setFieldValue('entityId', options[0].value);

  const close = () => {
    setCreated(null);
    setLoadedFor(null);
    form.reset();
    onClose();
  };
  const submit = form.onSubmit((values) => {
    if (editing) {
      update.mutate(
        { id: editing.id, body: { name: values.name, url: values.url, events: values.events } },
        {
          onSuccess: () => {
            notifySuccess(t('webhooks.saved', { name: values.name }));
            close();
          },
          onError: (e) => showApiError(e, form, fields),
        },
      );
      return;
    }
    create.mutate(toInput(values), {
      onSuccess: (answer) => setCreated({ secret: answer.secret, name: answer.endpoint.name }),
      onError: (e) => showApiError(e, form, fields),
    });
  });

  return (
    <Modal
      opened={opened}
      onClose={close}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      title={created ? t('webhooks.createdTitle') : editing ? t('webhooks.editTitle') : t('webhooks.newTitle')}
      size="lg"
      centered
    >
      {created ? (
        <Stack>
          <Text size="sm">{t('webhooks.createdFor', { name: created.name })}</Text>
          <Code block fz="sm" style={{ wordBreak: 'break-all' }} dir="ltr" data-testid="webhook-secret">
            {created.secret}
          </Code>
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title={t('webhooks.onceTitle')}>
            {t('webhooks.onceText')}
          </Alert>
          <Group justify="flex-end">
            <CopyButton value={created.secret}>
              {({ copied, copy }) => (
                <Button variant="default" leftSection={<IconCopy size={16} />} onClick={copy}>
                  {copied ? t('webhooks.copied') : t('webhooks.copy')}
                </Button>
              )}
            </CopyButton>
            <Button onClick={close}>{t('webhooks.done')}</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput label={t('webhooks.fields.name')} required maxLength={100} {...form.getInputProps('name')} />
            {!editing && (
              <Select
                label={t('webhooks.fields.entity')}
                required
                searchable
                allowDeselect={false}
                nothingFoundMessage={t('webhooks.noEntities')}
                data={options}
                disabled={entities.isLoading}
                {...form.getInputProps('entityId')}
              />
            )}
            <TextInput
              label={t('webhooks.fields.url')}
              description={t('webhooks.urlHelp')}
              required
              maxLength={2000}
              dir="ltr"
              {...form.getInputProps('url')}
            />
            <Checkbox.Group label={t('webhooks.fields.events')} required {...form.getInputProps('events')}>
              <Stack gap="xs" mt="xs">
                {WEBHOOK_EVENTS.map((e) => (
                  <Checkbox key={e} value={e} label={eventLabel(t, e)} />
                ))}
              </Stack>
            </Checkbox.Group>
            <FormActions
              onCancel={close}
              submitLabel={editing ? t('webhooks.save') : t('webhooks.create')}
              loading={create.isPending || update.isPending}
            />
          </Stack>
        </form>
      )}
    </Modal>
  );
}

function EndpointsList() {
  const { t } = useTranslation();
  const can = useCan();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<WebhookEndpointRow | null>(null);
  const update = useUpdateWebhook();
  const ping = usePingWebhook();

  const setActive = (row: WebhookEndpointRow, isActive: boolean) =>
    update.mutate(
      { id: row.id, body: { isActive } },
      {
        onSuccess: () => notifySuccess(t(isActive ? 'webhooks.activated' : 'webhooks.deactivated', { name: row.name })),
        onError: notifyError,
      },
    );
  const askDeactivate = (row: WebhookEndpointRow) =>
    openConfirm({
      title: t('webhooks.deactivateTitle'),
      children: <Text size="sm">{t('webhooks.deactivateText', { name: row.name })}</Text>,
      labels: { confirm: t('webhooks.deactivate'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => setActive(row, false),
    });
  const sendPing = (row: WebhookEndpointRow) =>
    ping.mutate(row.id, { onSuccess: () => notifySuccess(t('webhooks.pinged', { name: row.name })), onError: notifyError });

  const filters: ListFilter[] = [
    {
      name: 'isActive',
      label: t('webhooks.fields.active'),
      kind: 'enum',
      options: [
        { value: 'true', label: t('webhooks.active') },
        { value: 'false', label: t('webhooks.inactive') },
      ],
      w: { base: '100%', sm: 180 },
    },
  ];
  const columns: ListColumn<WebhookEndpointRow>[] = [
    { accessor: 'name', title: t('webhooks.fields.name'), sortable: true },
    { accessor: 'entityName', title: t('webhooks.fields.entity'), render: (r) => r.entityName ?? t('webhooks.institution') },
    {
      accessor: 'url',
      title: t('webhooks.fields.url'),
      render: (r) => (
        <Text size="sm" dir="ltr" style={{ wordBreak: 'break-all' }}>
          {r.url}
        </Text>
      ),
    },
    {
      accessor: 'events',
      title: t('webhooks.fields.events'),
      render: (r) => (
        <Group gap={4}>
          {r.events.map((e) => (
            <Badge key={e} variant="outline" size="sm" c="var(--mantine-color-text)">
              {eventLabel(t, e)}
            </Badge>
          ))}
        </Group>
      ),
    },
    {
      accessor: 'isActive',
      title: t('webhooks.fields.active'),
      render: (r) => (
        <Badge color={r.isActive ? 'teal' : 'gray'} variant="light" c="var(--mantine-color-text)">
          {r.isActive ? t('webhooks.active') : t('webhooks.inactive')}
        </Badge>
      ),
    },
    { accessor: 'createdAt', title: t('webhooks.fields.createdAt'), sortable: true, kind: 'datetime' },
    {
      accessor: 'actions',
      title: '',
      textAlign: 'right',
      render: (r) =>
        can('webhooks', 'UPDATE') ? (
          <Group gap={4} justify="flex-end" wrap="nowrap">
            <Button size="compact-sm" variant="subtle" onClick={() => setEditing(r)}>
              {t('webhooks.edit')}
            </Button>
            {r.isActive && (
              <Button
                size="compact-sm"
                variant="subtle"
                onClick={() => sendPing(r)}
                loading={ping.isPending && ping.variables === r.id}
              >
                {t('webhooks.ping')}
              </Button>
            )}
            {r.isActive ? (
              <Button size="compact-sm" variant="subtle" color="red" onClick={() => askDeactivate(r)}>
                {t('webhooks.deactivate')}
              </Button>
            ) : (
              <Button size="compact-sm" variant="subtle" onClick={() => setActive(r, true)}>
                {t('webhooks.activate')}
              </Button>
            )}
          </Group>
        ) : null,
    },
  ];
  return (
    <ListPage<WebhookEndpointRow>
      title={t('webhooks.title')}
      description={t('webhooks.intro')}
      actions={
        can('webhooks', 'CREATE') ? (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            {t('webhooks.new')}
          </Button>
        ) : null
      }
      notice={
        <Alert variant="light" color="blue" icon={<IconWebhook size={18} />}>
          {t('webhooks.guide')}
        </Alert>
      }
      defaultSort="-id"
      searchLabel={t('webhooks.search')}
      searchPlaceholder={t('webhooks.searchPlaceholder')}
      filters={filters}
      columns={columns}
      useRows={useEndpointRows}
      exportPath={can('webhooks', 'EXPORT') ? '/api/webhooks/export' : null}
      emptyText={t('webhooks.empty')}
    >
      <EndpointModal editing={null} opened={creating} onClose={() => setCreating(false)} />
      <EndpointModal editing={editing} opened={editing !== null} onClose={() => setEditing(null)} />
    </ListPage>
  );
}

/** One delivery: the body sent, the receiver's answer, the last error, and «Reenviar». */
function DeliveryModal({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const delivery = useWebhookDelivery(id);
  const resend = useResendDelivery();
  const askResend = (d: WebhookDeliveryRow) =>
    openConfirm({
      title: t('webhooks.resendTitle'),
      children: <Text size="sm">{t('webhooks.resendText', { event: eventLabel(t, d.event), name: d.endpointName })}</Text>,
      labels: { confirm: t('webhooks.resend'), cancel: t('common.cancel') },
      onConfirm: () => resend.mutate(d.id, { onSuccess: () => notifySuccess(t('webhooks.resent')), onError: notifyError }),
    });
  return (
    <Modal
      opened={id !== null}
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      title={t('webhooks.deliveryTitle', { id: id ?? '' })}
      size="xl"
      centered
    >
      <QueryState query={delivery}>
        {() => {
          const d = delivery.data!;
          return (
            <Stack data-testid="webhook-delivery">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
                <Text size="sm">
                  <b>{t('webhooks.fields.event')}:</b> {eventLabel(t, d.event)}
                </Text>
                <Group gap="xs">
                  <Text size="sm" fw={700}>
                    {t('webhooks.fields.state')}:
                  </Text>
                  <DeliveryStateBadge state={d.state} />
                </Group>
                <Text size="sm">
                  <b>{t('webhooks.fields.endpoint')}:</b> {d.endpointName}
                </Text>
                <Text size="sm">
                  <b>{t('webhooks.fields.attempts')}:</b> {d.attempts}
                </Text>
                <Text size="sm">
                  <b>{t('webhooks.fields.createdAt')}:</b> {formatDateTime(d.createdAt, i18n.language)}
                </Text>
                <Text size="sm">
                  <b>{t('webhooks.fields.deliveredAt')}:</b> {d.deliveredAt ? formatDateTime(d.deliveredAt, i18n.language) : '—'}
                </Text>
                {d.state === 'PENDING' && (
                  <Text size="sm">
                    <b>{t('webhooks.fields.nextAttemptAt')}:</b> {formatDateTime(d.nextAttemptAt, i18n.language)}
                  </Text>
                )}
              </SimpleGrid>
              <Text size="sm" dir="ltr" style={{ wordBreak: 'break-all' }}>
                {d.url}
              </Text>
              {d.lastError && (
                <Alert color="red" variant="light" title={t('webhooks.fields.lastError')}>
                  <Text size="sm" dir="ltr" style={{ wordBreak: 'break-word' }}>
                    {d.lastError}
                  </Text>
                </Alert>
              )}
              <Text size="sm" fw={700}>
                {t('webhooks.body')}
              </Text>
              <Code block dir="ltr" style={{ maxHeight: 260, overflow: 'auto' }}>
                {JSON.stringify(d.payload, null, 2)}
              </Code>
              <Text size="sm" fw={700}>
                {t('webhooks.response', { status: d.responseStatus ?? '—' })}
              </Text>
              <Code block dir="ltr" style={{ maxHeight: 200, overflow: 'auto', whiteSpace: 'pre-wrap' }}>
                {d.responseBody || t('webhooks.noResponse')}
              </Code>
              {can('webhooks', 'UPDATE') && d.state !== 'SENDING' && (
                <Group justify="flex-end">
                  <Button onClick={() => askResend(d)} loading={resend.isPending}>
                    {t('webhooks.resend')}
                  </Button>
                </Group>
              )}
            </Stack>
          );
        }}
      </QueryState>
    </Modal>
  );
}

function DeliveriesList() {
  const { t } = useTranslation();
  const can = useCan();
  const [open, setOpen] = useState<number | null>(null);
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const filters: ListFilter[] = [
    {
      name: 'state',
      label: t('webhooks.fields.state'),
      kind: 'enum',
      options: WEBHOOK_DELIVERY_STATES.map((s) => ({ value: s, label: t(`webhooks.states.${s}`) })),
      w: { base: '100%', sm: 180 },
    },
    {
      name: 'event',
      label: t('webhooks.fields.event'),
      kind: 'enum',
      options: WEBHOOK_DELIVERY_EVENTS.map((e) => ({ value: e, label: eventLabel(t, e) })),
      w: { base: '100%', sm: 230 },
    },
    {
      name: 'from',
      label: t('ui.dateFrom'),
      kind: 'date',
      render: (p) => (
        <DateField
          label={p.label}
          value={from}
          maxDate={to ?? undefined}
          onChange={(v) => {
            setFrom(v);
            p.onChange(v);
          }}
          w={p.w}
        />
      ),
      w: { base: '100%', sm: 160 },
    },
    {
      name: 'to',
      label: t('ui.dateTo'),
      kind: 'date',
      render: (p) => (
        <DateField
          label={p.label}
          value={to}
          minDate={from ?? undefined}
          onChange={(v) => {
            setTo(v);
            p.onChange(v);
          }}
          w={p.w}
        />
      ),
      w: { base: '100%', sm: 160 },
    },
  ];
  const columns: ListColumn<WebhookDeliveryRow>[] = [
    { accessor: 'id', title: t('webhooks.fields.number'), sortable: true, width: 80 },
    { accessor: 'createdAt', title: t('webhooks.fields.createdAt'), sortable: true, kind: 'datetime' },
    { accessor: 'event', title: t('webhooks.fields.event'), sortable: true, render: (r) => eventLabel(t, r.event) },
    { accessor: 'endpointName', title: t('webhooks.fields.endpoint') },
    {
      accessor: 'state',
      title: t('webhooks.fields.state'),
      sortable: true,
      render: (r) => <DeliveryStateBadge state={r.state} />,
    },
    { accessor: 'attempts', title: t('webhooks.fields.attempts'), sortable: true, textAlign: 'right', width: 90 },
    { accessor: 'responseStatus', title: t('webhooks.fields.responseStatus'), textAlign: 'right', width: 100 },
    {
      accessor: 'lastError',
      title: t('webhooks.fields.lastError'),
      render: (r) => (
        <Text size="sm" lineClamp={2} dir="ltr">
          {r.lastError ?? ''}
        </Text>
      ),
    },
    { accessor: 'deliveredAt', title: t('webhooks.fields.deliveredAt'), kind: 'datetime' },
  ];
  return (
    <ListPage<WebhookDeliveryRow>
      title={t('webhooks.deliveriesTitle')}
      description={t('webhooks.deliveriesIntro')}
      defaultSort="-id"
      searchLabel={t('webhooks.search')}
      searchPlaceholder={t('webhooks.deliveriesSearchPlaceholder')}
      filters={filters}
      columns={columns}
      useRows={useDeliveryRows}
      exportPath={can('webhooks', 'EXPORT') ? '/api/webhook-deliveries/export' : null}
      emptyText={t('webhooks.deliveriesEmpty')}
      onRowClick={(r) => setOpen(r.id)}
    >
      <DeliveryModal id={open} onClose={() => setOpen(null)} />
    </ListPage>
  );
}

/** `/administrative/webhooks`: the endpoints an entity's systems are told of its events at, and the delivery log. */
export function WebhooksPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useTabParam(['endpoints', 'deliveries'] as const);
  return (
    <Stack>
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List>
          <Tabs.Tab value="endpoints">{t('webhooks.tabs.endpoints')}</Tabs.Tab>
          <Tabs.Tab value="deliveries">{t('webhooks.tabs.deliveries')}</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {tab === 'endpoints' ? <EndpointsList /> : <DeliveriesList />}
    </Stack>
  );
}
