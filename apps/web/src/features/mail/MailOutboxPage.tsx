import { OUTBOX_STATES } from '@aporta/domain/mail';
import { OUTBOX_EVENTS } from '@aporta/domain/mail-outbox';
import { Alert, Card, Group, SimpleGrid, Stack, Tabs, Text } from '@mantine/core';
import { IconMailCheck, IconMailPause } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DateField } from '../../components/DateField.tsx';
import { type ListColumn, type ListFilter, ListPage, type ListParams } from '../../components/ListPage.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { formatNumber } from '../../lib/format.ts';
import { useCan } from '../../lib/useCan.ts';
import { useTabParam } from '../../lib/useTabParam.ts';
import { type OutboxRow, useOutbox, useOutboxStatus } from './api.ts';
import { eventLabel, OutboxStateBadge } from './components.tsx';
import { TemplatePreview } from './TemplatePreview.tsx';

// ListPage calls its `useRows` as a hook: a plain, stable function.
const useOutboxRows = (params: ListParams) => useOutbox(params);

/** Whether this server sends mail or keeps it here, from the API (SMTP_URL), and the counts per state. */
function OutboxStatusPanel() {
  const { t, i18n } = useTranslation();
  const status = useOutboxStatus();
  return (
    <QueryState query={status}>
      {() => {
        const s = status.data!;
        return (
          <Stack gap="sm">
            {s.sending ? (
              <Alert color="teal" variant="light" icon={<IconMailCheck size={18} />} data-testid="mail-sending">
                {t('mail.sendingOn', { sender: s.sender })}
              </Alert>
            ) : (
              <Alert
                color="yellow"
                variant="light"
                icon={<IconMailPause size={18} />}
                title={t('mail.sendingOffTitle')}
                data-testid="mail-kept"
              >
                {t('mail.sendingOff')}
              </Alert>
            )}
            <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="sm" data-testid="outbox-counts">
              {OUTBOX_STATES.map((state) => (
                <Card key={state} withBorder padding="sm">
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <OutboxStateBadge state={state} />
                    <Text fw={700} size="lg" style={{ fontVariantNumeric: 'tabular-nums' }}>
                      {formatNumber(s.counts[state], { language: i18n.language })}
                    </Text>
                  </Group>
                </Card>
              ))}
            </SimpleGrid>
          </Stack>
        );
      }}
    </QueryState>
  );
}

function OutboxList() {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  // Kept here too so each date bounds the other in its calendar.
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const filters: ListFilter[] = [
    {
      name: 'state',
      label: t('mail.fields.state'),
      kind: 'enum',
      options: OUTBOX_STATES.map((s) => ({ value: s, label: t(`mail.states.${s}`) })),
      w: { base: '100%', sm: 190 },
    },
    {
      name: 'event',
      label: t('mail.fields.event'),
      kind: 'enum',
      options: OUTBOX_EVENTS.map((e) => ({ value: e, label: eventLabel(t, e) })),
      w: { base: '100%', sm: 240 },
    },
    { name: 'recipient', label: t('mail.fields.recipient'), kind: 'text', w: { base: '100%', sm: 220 } },
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
  const columns: ListColumn<OutboxRow>[] = [
    { accessor: 'id', title: t('mail.fields.number'), sortable: true, width: 80 },
    { accessor: 'createdAt', title: t('mail.fields.createdAt'), sortable: true, kind: 'datetime' },
    { accessor: 'event', title: t('mail.fields.event'), sortable: true, render: (r) => eventLabel(t, r.event) },
    {
      accessor: 'to',
      title: t('mail.fields.to'),
      render: (r) => (
        <Text size="sm" style={{ wordBreak: 'break-all' }} dir="ltr">
          {r.to.join(', ')}
        </Text>
      ),
    },
    { accessor: 'subject', title: t('mail.fields.subject') },
    { accessor: 'state', title: t('mail.fields.state'), sortable: true, render: (r) => <OutboxStateBadge state={r.state} /> },
    { accessor: 'attempts', title: t('mail.fields.attempts'), sortable: true, textAlign: 'right', width: 90 },
    { accessor: 'sentAt', title: t('mail.fields.sentAt'), kind: 'datetime' },
  ];
  return (
    <ListPage<OutboxRow>
      title={t('mail.title')}
      description={t('mail.intro')}
      notice={<OutboxStatusPanel />}
      defaultSort="-id"
      searchLabel={t('mail.search')}
      searchPlaceholder={t('mail.searchPlaceholder')}
      filters={filters}
      columns={columns}
      useRows={useOutboxRows}
      exportPath={can('mail', 'EXPORT') ? '/api/mail/outbox/export' : null}
      emptyText={t('mail.empty')}
      onRowClick={(r) => navigate(`/administrative/correo-saliente/${r.id}`)}
    />
  );
}

/** `/administrative/correo-saliente`: every mail the application wrote, its state and attempts; the templates' preview. */
export function MailOutboxPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useTabParam(['messages', 'templates'] as const);
  return (
    <Stack>
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List>
          <Tabs.Tab value="messages">{t('mail.tabs.messages')}</Tabs.Tab>
          <Tabs.Tab value="templates">{t('mail.tabs.templates')}</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {tab === 'messages' ? <OutboxList /> : <TemplatePreview />}
    </Stack>
  );
}
