import {
  guatemalaToday,
  legalActionCreateSchema,
  legalActionKinds,
  legalDeadlineCreateSchema,
  legalStages,
} from '@aporta/domain';
import {
  Anchor,
  Button,
  Card,
  FileButton,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { DateField } from '../../components/DateField.tsx';
import { Fact } from '../../components/Fact.tsx';
import { Money } from '../../components/Money.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { TransitionActions } from '../../components/TransitionActions.tsx';
import { showApiError } from '../../lib/form-errors.ts';
import { zod4Resolver } from '../../lib/form-validate.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import {
  uploadCaseDocument,
  useAddCaseAction,
  useAddCaseDeadline,
  useCase,
  useCaseTransition,
  useMarkDeadlineDone,
} from './api.ts';
import { day, StageBadge } from './components.tsx';

/** `/contributors/legal-module/:id`: what the case covers (then and now), its stage, actions, deadlines, documents. */
export function CasePage() {
  const { t } = useTranslation();
  const can = useCan();
  const id = Number(useParams().id);
  const q = useCase(id);
  const c = q.data;
  const canEdit = can('legal-module', 'UPDATE') && c?.stage !== 'CERRADO';
  const transition = useCaseTransition(id);
  const addAction = useAddCaseAction(id);
  const addDeadline = useAddCaseDeadline(id);
  const done = useMarkDeadlineDone(id);
  const actionForm = useForm<{ actionDate: string; kind: (typeof legalActionKinds)[number]; description: string }>({
    initialValues: { actionDate: guatemalaToday(), kind: 'NOTIFICACION', description: '' },
    validate: zod4Resolver(legalActionCreateSchema),
  });
  const deadlineForm = useForm({
    initialValues: { dueDate: '', description: '' },
    validate: zod4Resolver(legalDeadlineCreateSchema),
  });
  const [uploading, setUploading] = useState(false);
  return (
    <QueryState query={q} notFound={<Text>{t('legal.notFound')}</Text>}>
      {() => (
        <Stack>
          <PageHeader title={`${t('legal.one')} ${c!.number}`} description={c!.entityName} />
          <Card withBorder>
            <SimpleGrid cols={{ base: 2, sm: 4 }}>
              <Fact label={t('legal.fields.stage')}>
                <StageBadge stage={c!.stage} />
              </Fact>
              <Fact label={t('legal.fields.openedOn')}>{day(c!.openedOn)}</Fact>
              <Fact label={t('legal.fields.amountAtOpening')}>
                <Money value={c!.amountAtOpening} />
              </Fact>
              <Fact label={t('legal.fields.amountNow')}>
                <span data-testid="case-amount-now">
                  <Money value={c!.amountNow} />
                </span>
              </Fact>
              <Fact label={t('legal.fields.lawyer')}>{c!.lawyer ?? '—'}</Fact>
              {c!.closedOn && <Fact label={t('legal.fields.closedOn')}>{day(c!.closedOn)}</Fact>}
              {c!.closeReason && <Fact label={t('legal.fields.closeReason')}>{c!.closeReason}</Fact>}
            </SimpleGrid>
          </Card>
          {c!.transitions.length > 0 && (
            <Card withBorder>
              <Title order={2} size="h4" mb="sm">
                {t('legal.stageTitle')}
              </Title>
              <TransitionActions
                transitions={c!.transitions}
                pending={transition.isPending}
                onTake={(x, comment) => {
                  const to = legalStages.find((s) => s === x.to);
                  if (!to) return;
                  transition.mutate(
                    { to, ...(comment.trim() ? { comment: comment.trim() } : {}) },
                    { onSuccess: () => notifySuccess(t('legal.moved')), onError: (err) => showApiError(err) },
                  );
                }}
              />
            </Card>
          )}
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              {t('legal.covers')}
            </Title>
            <Table striped data-testid="case-items">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('legal.fields.item')}</Table.Th>
                  <Table.Th ta="right">{t('legal.fields.amountAtOpening')}</Table.Th>
                  <Table.Th ta="right">{t('legal.fields.amountNow')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {c!.items.map((i) => (
                  <Table.Tr key={`${i.kind}-${i.id}`}>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={i.kind === 'ORDEN' ? `/ordenes-pago/${i.id}` : `/planilla/convenios-pago/${i.id}`}
                        size="sm"
                      >
                        {i.label}
                      </Anchor>
                    </Table.Td>
                    <Table.Td ta="right">
                      <Money value={i.amountAtOpening} />
                    </Table.Td>
                    <Table.Td ta="right">
                      <Money value={i.amountNow} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Card>
          <SimpleGrid cols={{ base: 1, lg: 2 }}>
            <Card withBorder>
              <Title order={2} size="h4" mb="sm">
                {t('legal.actions')}
              </Title>
              {c!.actions.length === 0 && <Text c="dimmed">{t('legal.noActions')}</Text>}
              <Stack gap="xs" data-testid="case-actions">
                {c!.actions.map((a) => (
                  <Text key={a.id} size="sm">
                    <b>{day(a.actionDate)}</b> · {t(`legal.actionKinds.${a.kind}`)} · {a.description}
                    {a.lawyer ? ` (${a.lawyer})` : ''}
                  </Text>
                ))}
              </Stack>
              {canEdit && (
                <form
                  onSubmit={actionForm.onSubmit((v) =>
                    addAction.mutate(v, {
                      onSuccess: () => {
                        actionForm.reset();
                        notifySuccess(t('legal.actionAdded'));
                      },
                      onError: (err) => showApiError(err, actionForm, ['actionDate', 'kind', 'description']),
                    }),
                  )}
                >
                  <Stack gap="xs" mt="md">
                    <Group grow align="flex-start">
                      <DateField
                        label={t('legal.fields.actionDate')}
                        {...actionForm.getInputProps('actionDate')}
                        onChange={(v) => actionForm.setFieldValue('actionDate', v ?? '')}
                      />
                      <Select
                        label={t('legal.fields.kind')}
                        data={legalActionKinds.map((k) => ({ value: k, label: t(`legal.actionKinds.${k}`) }))}
                        allowDeselect={false}
                        {...actionForm.getInputProps('kind')}
                      />
                    </Group>
                    <Textarea
                      label={t('legal.fields.description')}
                      autosize
                      minRows={2}
                      {...actionForm.getInputProps('description')}
                    />
                    <Button type="submit" variant="default" loading={addAction.isPending} w="fit-content">
                      {t('legal.addAction')}
                    </Button>
                  </Stack>
                </form>
              )}
            </Card>
            <Card withBorder>
              <Title order={2} size="h4" mb="sm">
                {t('legal.deadlines')}
              </Title>
              {c!.deadlines.length === 0 && <Text c="dimmed">{t('legal.noCaseDeadlines')}</Text>}
              <Stack gap="xs" data-testid="case-deadlines">
                {c!.deadlines.map((d) => (
                  <Group key={d.id} justify="space-between" wrap="nowrap">
                    <Text size="sm" td={d.done ? 'line-through' : undefined}>
                      <b>{day(d.dueDate)}</b> · {d.description}
                    </Text>
                    {!d.done && canEdit && (
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => done.mutate(d.id, { onError: (err) => showApiError(err) })}
                      >
                        {t('legal.markDone')}
                      </Button>
                    )}
                  </Group>
                ))}
              </Stack>
              {canEdit && (
                <form
                  onSubmit={deadlineForm.onSubmit((v) =>
                    addDeadline.mutate(v, {
                      onSuccess: () => {
                        deadlineForm.reset();
                        notifySuccess(t('legal.deadlineAdded'));
                      },
                      onError: (err) => showApiError(err, deadlineForm, ['dueDate', 'description']),
                    }),
                  )}
                >
                  <Stack gap="xs" mt="md">
                    <Group grow align="flex-start">
                      <DateField
                        label={t('legal.fields.dueDate')}
                        {...deadlineForm.getInputProps('dueDate')}
                        onChange={(v) => deadlineForm.setFieldValue('dueDate', v ?? '')}
                      />
                      <TextInput label={t('legal.fields.deadline')} {...deadlineForm.getInputProps('description')} />
                    </Group>
                    <Button type="submit" variant="default" loading={addDeadline.isPending} w="fit-content">
                      {t('legal.addDeadline')}
                    </Button>
                  </Stack>
                </form>
              )}
            </Card>
          </SimpleGrid>
          <Card withBorder>
            <Group justify="space-between" mb="sm">
              <Title order={2} size="h4">
                {t('legal.documents')}
              </Title>
              {canEdit && (
                <FileButton
                  onChange={(file) => {
                    if (!file) return;
                    setUploading(true);
                    uploadCaseDocument(id, file)
                      .then(() => notifySuccess(t('legal.documentAdded')))
                      .catch(notifyError)
                      .finally(() => setUploading(false));
                  }}
                  accept="application/pdf,image/png,image/jpeg"
                >
                  {(props) => (
                    <Button {...props} variant="default" leftSection={<IconUpload size={16} />} loading={uploading}>
                      {t('legal.attach')}
                    </Button>
                  )}
                </FileButton>
              )}
            </Group>
            {c!.documents.length === 0 ? (
              <Text c="dimmed">{t('legal.noDocuments')}</Text>
            ) : (
              <Stack gap="xs" data-testid="case-documents">
                {c!.documents.map((d) => (
                  <Anchor key={d.id} component={Link} to={`/folders?document=${d.documentId}`} size="sm">
                    {d.title}
                  </Anchor>
                ))}
              </Stack>
            )}
          </Card>
          <Card withBorder data-testid="case-notices">
            <Title order={2} size="h4" mb={4}>
              {t('legal.notices.title')}
            </Title>
            <Text size="sm" c="dimmed" mb="sm">
              {t('legal.notices.help')}
            </Text>
            {c!.notices.length === 0 ? (
              <Text c="dimmed">{t('legal.notices.none')}</Text>
            ) : (
              <Table.ScrollContainer minWidth={560}>
                <Table striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('legal.notices.sentOn')}</Table.Th>
                      <Table.Th>{t('legal.notices.asOf')}</Table.Th>
                      <Table.Th ta="right">{t('legal.notices.amount')}</Table.Th>
                      <Table.Th>{t('legal.notices.to')}</Table.Th>
                      <Table.Th>{t('legal.notices.letter')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {c!.notices.map((n) => (
                      <Table.Tr key={n.id}>
                        <Table.Td>{day(n.issuedOn)}</Table.Td>
                        <Table.Td>{day(n.asOf)}</Table.Td>
                        <Table.Td ta="right">{n.amount == null ? '—' : <Money value={n.amount} />}</Table.Td>
                        <Table.Td>
                          {n.addresses.length
                            ? `${n.addresses.join(', ')} · ${t(`legal.notices.mail.${n.mailState ?? 'QUEUED'}`)}`
                            : t('legal.notices.noAddress')}
                        </Table.Td>
                        <Table.Td>
                          {n.documentId ? (
                            <Anchor component={Link} to={`/folders?document=${n.documentId}`} size="sm">
                              {t('legal.notices.open')}
                            </Anchor>
                          ) : (
                            '—'
                          )}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Card>
        </Stack>
      )}
    </QueryState>
  );
}
