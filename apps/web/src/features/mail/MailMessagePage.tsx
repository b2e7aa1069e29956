import { Alert, Anchor, Button, Card, Code, Group, SimpleGrid, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Fact } from '../../components/Fact.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { openConfirm } from '../../lib/confirm.ts';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { LANGUAGE_NAMES } from '../../lib/i18n.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import { useOutboxMessage, useRetryMessage } from './api.ts';
import { eventLabel, MailFrame, OutboxStateBadge } from './components.tsx';

const OUTBOX = '/administrative/correo-saliente';

/**
 * `/administrative/correo-saliente/:id`: one message as it was written — its headers, its HTML (in a sandboxed
 * frame) and plain text, its attempts and last error — and «Reintentar» for a failed one (holders of `mail`
 * UPDATE, after a confirmation). A digest lists the messages it carries; a carried message links to its digest.
 */
export function MailMessagePage() {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const id = Number(useParams().id);
  const q = useOutboxMessage(id);
  const retry = useRetryMessage(id);
  const lang = i18n.language;
  const when = (v: string | null) => (v ? formatDateTime(v, lang) : '—');

  const confirmRetry = (attempts: number) =>
    openConfirm({
      title: t('mail.retryTitle'),
      children: <Text size="sm">{t('mail.retryText', { count: attempts })}</Text>,
      labels: { confirm: t('mail.retry'), cancel: t('mail.cancel') },
      onConfirm: () =>
        retry.mutate(undefined, {
          onSuccess: () => notifySuccess(t('mail.retried')),
          onError: notifyError,
        }),
    });

  return (
    <QueryState
      query={q}
      notFound={
        <Stack>
          <Text>{t('mail.notFound')}</Text>
          <Anchor component={Link} to={OUTBOX}>
            {t('mail.back')}
          </Anchor>
        </Stack>
      }
    >
      {() => {
        const m = q.data!;
        return (
          <Stack>
            <Anchor component={Link} to={OUTBOX} size="sm">
              <Group gap={4} component="span">
                <IconArrowLeft size={14} />
                {t('mail.back')}
              </Group>
            </Anchor>
            <PageHeader title={m.subject} description={`${t('mail.fields.number')} ${m.id} · ${eventLabel(t, m.event)}`}>
              {m.state === 'FAILED' && can('mail', 'UPDATE') && (
                <Button
                  leftSection={<IconRefresh size={16} />}
                  loading={retry.isPending}
                  onClick={() => confirmRetry(m.attempts)}
                >
                  {t('mail.retry')}
                </Button>
              )}
            </PageHeader>
            {m.lastError && (
              <Alert color="red" variant="light" title={t('mail.fields.lastError')} data-testid="mail-last-error">
                <Text size="sm" style={{ wordBreak: 'break-word' }} dir="ltr">
                  {m.lastError}
                </Text>
              </Alert>
            )}
            <Card withBorder>
              <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md" data-testid="mail-headers">
                <Fact label={t('mail.fields.state')}>
                  <OutboxStateBadge state={m.state} />
                </Fact>
                <Fact label={t('mail.fields.to')}>
                  <span dir="ltr" style={{ wordBreak: 'break-all' }}>
                    {m.to.join(', ')}
                  </span>
                </Fact>
                <Fact label={t('mail.fields.language')}>{LANGUAGE_NAMES[m.language]}</Fact>
                <Fact label={t('mail.fields.attempts')}>{formatNumber(m.attempts, { language: lang })}</Fact>
                <Fact label={t('mail.fields.createdAt')}>{when(m.createdAt)}</Fact>
                <Fact label={t('mail.fields.sentAt')}>{when(m.sentAt)}</Fact>
                {m.state === 'PENDING' && <Fact label={t('mail.fields.nextAttemptAt')}>{when(m.nextAttemptAt)}</Fact>}
                {m.leaseUntil && m.state === 'SENDING' && <Fact label={t('mail.fields.leaseUntil')}>{when(m.leaseUntil)}</Fact>}
                <Fact label={t('mail.fields.messageId')}>
                  <Text size="sm" dir="ltr" style={{ wordBreak: 'break-all' }}>
                    {m.messageId ?? '—'}
                  </Text>
                </Fact>
                <Fact label={t('mail.fields.link')}>
                  {m.link ? (
                    <Anchor component={Link} to={m.link} size="sm" dir="ltr">
                      {m.link}
                    </Anchor>
                  ) : (
                    '—'
                  )}
                </Fact>
                {m.dedupeKey && (
                  <Fact label={t('mail.fields.dedupeKey')}>
                    <Text size="sm" dir="ltr" style={{ wordBreak: 'break-all' }}>
                      {m.dedupeKey}
                    </Text>
                  </Fact>
                )}
                {m.digestId !== null && (
                  <Fact label={t('mail.fields.digest')}>
                    <Anchor component={Link} to={`${OUTBOX}/${m.digestId}`} size="sm">
                      {t('mail.fields.number')} {m.digestId}
                    </Anchor>
                  </Fact>
                )}
                <Fact label={t('mail.fields.attachments')}>
                  {m.attachments.length ? m.attachments.map((a) => a.name).join(', ') : t('mail.noAttachments')}
                </Fact>
              </SimpleGrid>
              {m.state === 'DIGEST' && m.digestId === null && (
                <Text size="sm" c="dimmed" mt="sm">
                  {t('mail.waitsForDigest')}
                </Text>
              )}
            </Card>
            {m.digestItems.length > 0 && (
              <Card withBorder>
                <Title order={2} size="h4" mb="sm">
                  {t('mail.digestCarries', { count: m.digestItems.length })}
                </Title>
                <Table.ScrollContainer minWidth={520}>
                  <Table striped data-testid="digest-items">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('mail.fields.number')}</Table.Th>
                        <Table.Th>{t('mail.fields.event')}</Table.Th>
                        <Table.Th>{t('mail.fields.subject')}</Table.Th>
                        <Table.Th>{t('mail.fields.createdAt')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {m.digestItems.map((i) => (
                        <Table.Tr key={i.id}>
                          <Table.Td>
                            <Anchor component={Link} to={`${OUTBOX}/${i.id}`} size="sm">
                              {i.id}
                            </Anchor>
                          </Table.Td>
                          <Table.Td>{eventLabel(t, i.event)}</Table.Td>
                          <Table.Td>{i.subject}</Table.Td>
                          <Table.Td>{when(i.createdAt)}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              </Card>
            )}
            <Card withBorder>
              <Tabs defaultValue="html">
                <Tabs.List>
                  <Tabs.Tab value="html">{t('mail.html')}</Tabs.Tab>
                  <Tabs.Tab value="text">{t('mail.text')}</Tabs.Tab>
                </Tabs.List>
                <Tabs.Panel value="html" pt="sm">
                  <MailFrame html={m.html} title={t('mail.htmlFrameTitle')} />
                </Tabs.Panel>
                <Tabs.Panel value="text" pt="sm">
                  <Code block dir="auto" style={{ whiteSpace: 'pre-wrap' }} data-testid="mail-text">
                    {m.text}
                  </Code>
                </Tabs.Panel>
              </Tabs>
            </Card>
          </Stack>
        );
      }}
    </QueryState>
  );
}
