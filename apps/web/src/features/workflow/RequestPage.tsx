import type { ErrorDetail } from '@aporta/domain';
import type { SigRequestDetail } from '@aporta/domain/workflow';
import { Alert, Anchor, Button, Card, FileButton, Grid, Group, Modal, Stack, Text, Textarea, Timeline } from '@mantine/core';
import { IconArrowRight, IconMessage, IconPaperclip } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { SpanishDocumentHint } from '../../components/SpanishDocumentHint.tsx';
import { ApiError } from '../../lib/api.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { messageText } from '../../lib/server-messages.ts';
import {
  downloadRequestDocument,
  useAttachToRequest,
  useCommentRequest,
  useRequest,
  useTransitionRequest,
  useUpdateRequest,
} from './api.ts';
import { day, moment, RequestStateBadge } from './components.tsx';
import { FormRenderer } from './FormRenderer.tsx';

/** `/sig/item/:id`: a request's data, state, the actions the user may take now, who is expected, the timeline. */
export function RequestPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const request = useRequest(id);
  return (
    <QueryState query={request} notFound={<Alert color="yellow">{t('workflow.request.notFound')}</Alert>}>
      {() => <RequestView r={request.data!} />}
    </QueryState>
  );
}

function RequestView({ r }: { r: SigRequestDetail }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [data, setData] = useState<Record<string, unknown>>(r.data);
  const [errors, setErrors] = useState<ErrorDetail[]>([]);
  const [acting, setActing] = useState<SigRequestDetail['transitions'][number] | null>(null);
  const [comment, setComment] = useState('');
  const [note, setNote] = useState('');
  const update = useUpdateRequest(r.id);
  const move = useTransitionRequest(r.id);
  const commentOn = useCommentRequest(r.id);
  const attach = useAttachToRequest(r.id);
  const download = (documentId: number) => downloadRequestDocument(r.id, documentId).catch(notifyError);
  const apiErrors = (err: unknown) => {
    if (err instanceof ApiError) setErrors(err.details.length ? err.details : [{ path: '', message: err.message, ...err.keyed }]);
    notifyError(err);
  };
  const take = () => {
    if (!acting) return;
    move.mutate(
      { to: acting.to, comment: comment.trim() || null, expected: r.state },
      {
        onSuccess: (x) => {
          notifySuccess(t('workflow.request.moved', { action: acting.label, state: x.stateLabel }));
          setActing(null);
          setComment('');
          setErrors([]);
        },
        onError: apiErrors,
      },
    );
  };
  return (
    <Stack gap="md">
      <PageHeader
        title={t('workflow.request.title', { number: r.number })}
        description={t('workflow.request.subtitle', {
          flow: r.flowTitle,
          date: day(r.createdAt),
          requester: r.requesterName || t('workflow.none'),
        })}
      >
        <Group gap="xs">
          <RequestStateBadge label={r.stateLabel} final={r.final} overdue={r.overdue} />
          {r.transitions.map((x) => (
            <Button key={x.key} size="sm" rightSection={<IconArrowRight size={14} />} onClick={() => setActing(x)}>
              {x.label}
            </Button>
          ))}
        </Group>
      </PageHeader>
      {r.result && (
        <Alert color="green" title={t('workflow.request.result')}>
          <Anchor component={Link} to={r.result.link}>
            {r.result.label}
          </Anchor>
        </Alert>
      )}
      {errors.length > 0 && (
        <Alert color="red" title={t('workflow.request.failed')} withCloseButton onClose={() => setErrors([])}>
          {errors.map((e) => (
            <Text size="sm" key={e.path + e.message}>
              {messageText(e)}
            </Text>
          ))}
        </Alert>
      )}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Card withBorder>
            <Group justify="space-between" mb="xs">
              <Text fw={600}>{t('workflow.request.data', { version: r.formVersion })}</Text>
              {r.editable && !editing && (
                <Button size="xs" variant="light" onClick={() => setEditing(true)}>
                  {t('workflow.request.correct')}
                </Button>
              )}
            </Group>
            <FormRenderer
              schema={r.schema}
              uiSchema={r.uiSchema}
              data={editing ? data : r.data}
              onChange={editing ? setData : undefined}
              readOnly={!editing}
              context={{
                entities: r.entityId ? [{ id: r.entityId, name: r.entityName ?? '' }] : [],
                canUpload: editing,
                files: Object.fromEntries(r.files.map((f) => [f.documentId, f.filename])),
                onDownload: download,
              }}
              extraErrors={errors}
              busy={update.isPending}
              submitLabel={t('workflow.request.saveCorrection')}
              onSubmit={
                editing
                  ? (d) =>
                      update.mutate(
                        { data: d, expected: r.state },
                        {
                          onSuccess: () => {
                            notifySuccess(t('workflow.request.corrected'));
                            setEditing(false);
                            setErrors([]);
                          },
                          onError: apiErrors,
                        },
                      )
                  : undefined
              }
            />
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="md">
            <Card withBorder>
              <Text fw={600} mb={4}>
                {t('workflow.request.state')}
              </Text>
              <Text size="sm">
                {t('workflow.request.since', { state: r.stateLabel, at: moment(r.stateSince) })}
                {r.dueAt && !r.final ? t('workflow.request.dueOn', { date: day(r.dueAt) }) : ''}
                {r.closedAt ? t('workflow.request.closedOn', { date: day(r.closedAt) }) : ''}
              </Text>
              <Text size="sm" c="dimmed">
                {t('workflow.request.entity', {
                  entity: r.entityName ?? t('workflow.request.noEntity'),
                  version: r.flowVersion,
                })}
              </Text>
              {r.expected.length > 0 && (
                <>
                  <Text fw={600} mt="sm" mb={4}>
                    {t('workflow.request.expected')}
                  </Text>
                  {r.expected.map((e) => (
                    <Text key={e.label} size="sm">
                      {t('workflow.request.expectedLine', { label: e.label, role: e.role })}
                      {e.users.length
                        ? t('workflow.request.expectedUsers', { users: e.users.join(', ') })
                        : t('workflow.request.expectedNobody')}
                    </Text>
                  ))}
                </>
              )}
            </Card>
            <Card withBorder>
              <Text fw={600} mb="xs">
                {t('workflow.request.history')}
              </Text>
              <Timeline bulletSize={18} lineWidth={2}>
                {r.timeline.map((e) => (
                  <Timeline.Item key={e.id} title={e.label}>
                    <Text size="xs" c="dimmed">
                      {moment(e.at)}
                      {e.actor ? ` · ${e.actor}` : ''}
                    </Text>
                    {e.comment && <Text size="sm">{e.comment}</Text>}
                    {e.documentId && (
                      <Group gap="xs">
                        <Anchor size="sm" component="button" onClick={() => e.documentId && download(e.documentId)}>
                          {e.filename ?? t('workflow.request.documentFallback')}
                        </Anchor>
                        {/* The constancia a transition generates (server: documentOfRequest) is in Spanish; attachments are the users' own. */}
                        {e.filename === `constancia-${r.number}.pdf` && <SpanishDocumentHint />}
                      </Group>
                    )}
                  </Timeline.Item>
                ))}
              </Timeline>
              <Textarea
                mt="md"
                label={t('workflow.comment')}
                autosize
                minRows={2}
                value={note}
                onChange={(e) => setNote(e.currentTarget.value)}
              />
              <Group justify="flex-end" mt="xs" gap="xs">
                <FileButton
                  accept="application/pdf,image/png,image/jpeg"
                  onChange={(f) =>
                    f &&
                    attach.mutate(f, { onSuccess: () => notifySuccess(t('workflow.request.attached')), onError: notifyError })
                  }
                >
                  {(props) => (
                    <Button
                      {...props}
                      size="xs"
                      variant="default"
                      leftSection={<IconPaperclip size={14} />}
                      loading={attach.isPending}
                    >
                      {t('workflow.request.attach')}
                    </Button>
                  )}
                </FileButton>
                <Button
                  size="xs"
                  leftSection={<IconMessage size={14} />}
                  disabled={!note.trim()}
                  loading={commentOn.isPending}
                  onClick={() => commentOn.mutate(note.trim(), { onSuccess: () => setNote(''), onError: notifyError })}
                >
                  {t('workflow.request.comment')}
                </Button>
              </Group>
            </Card>
          </Stack>
        </Grid.Col>
      </Grid>
      <Modal
        opened={!!acting}
        onClose={() => setActing(null)}
        title={acting?.label}
        centered
        closeButtonProps={{ 'aria-label': t('workflow.close') }}
      >
        <Stack>
          <Text size="sm">
            {t('workflow.request.confirmMove', { from: r.stateLabel, to: acting?.toLabel ?? '' })}
            {acting?.action === 'create-pension' ? t('workflow.request.createsPension') : ''}
            {acting?.action === 'document' ? t('workflow.request.createsDocument') : ''}
          </Text>
          <Textarea
            label={t('workflow.comment')}
            required={acting?.commentRequired}
            autosize
            minRows={3}
            value={comment}
            onChange={(e) => setComment(e.currentTarget.value)}
            error={errors.filter((e) => e.path === 'comment').map(messageText)[0]}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setActing(null)}>
              {t('workflow.cancel')}
            </Button>
            <Button onClick={take} loading={move.isPending} disabled={!!acting?.commentRequired && !comment.trim()}>
              {acting?.label}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
