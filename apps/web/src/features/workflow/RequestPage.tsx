import type { SigRequestDetail } from '@aporta/domain/workflow';
import { Alert, Anchor, Button, Card, FileButton, Grid, Group, Modal, Stack, Text, Textarea, Timeline } from '@mantine/core';
import { IconArrowRight, IconMessage, IconPaperclip } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { ApiError } from '../../lib/api.ts';
import { downloadFile } from '../../lib/download.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useAttachToRequest, useCommentRequest, useRequest, useTransitionRequest, useUpdateRequest } from './api.ts';
import { day, moment, RequestStateBadge } from './components.tsx';
import { FormRenderer } from './FormRenderer.tsx';

/** `/sig/item/:id`: a request's data, state, the actions the user may take now, who is expected, the timeline. */
export function RequestPage() {
  const id = Number(useParams().id);
  const request = useRequest(id);
  return (
    <QueryState query={request} notFound={<Alert color="yellow">La solicitud no existe o no está dentro de su alcance.</Alert>}>
      {() => <RequestView r={request.data!} />}
    </QueryState>
  );
}

function RequestView({ r }: { r: SigRequestDetail }) {
  const [editing, setEditing] = useState(false);
  const [data, setData] = useState<Record<string, unknown>>(r.data);
  const [errors, setErrors] = useState<{ path: string; message: string }[]>([]);
  const [acting, setActing] = useState<SigRequestDetail['transitions'][number] | null>(null);
  const [comment, setComment] = useState('');
  const [note, setNote] = useState('');
  const update = useUpdateRequest(r.id);
  const move = useTransitionRequest(r.id);
  const commentOn = useCommentRequest(r.id);
  const attach = useAttachToRequest(r.id);
  const apiErrors = (err: unknown) => {
    if (err instanceof ApiError) setErrors(err.details.length ? err.details : [{ path: '', message: err.message }]);
    notifyError(err);
  };
  const take = () => {
    if (!acting) return;
    move.mutate(
      { to: acting.to, comment: comment.trim() || null, expected: r.state },
      {
        onSuccess: (x) => {
          notifySuccess(`${acting.label}: la solicitud está en «${x.stateLabel}».`);
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
        title={`Solicitud ${r.number}`}
        description={`${r.flowTitle} · presentada el ${day(r.createdAt)} por ${r.requesterName || '—'}`}
      >
        <Group gap="xs">
          <RequestStateBadge label={r.stateLabel} final={r.final} overdue={r.overdue} />
          {r.transitions.map((t) => (
            <Button key={t.key} size="sm" rightSection={<IconArrowRight size={14} />} onClick={() => setActing(t)}>
              {t.label}
            </Button>
          ))}
        </Group>
      </PageHeader>
      {r.result && (
        <Alert color="green" title="Resultado">
          <Anchor component={Link} to={r.result.link}>
            {r.result.label}
          </Anchor>
        </Alert>
      )}
      {errors.length > 0 && (
        <Alert color="red" title="No se pudo completar" withCloseButton onClose={() => setErrors([])}>
          {errors.map((e) => (
            <Text size="sm" key={e.path + e.message}>
              {e.message}
            </Text>
          ))}
        </Alert>
      )}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Card withBorder>
            <Group justify="space-between" mb="xs">
              <Text fw={600}>Datos (formulario versión {r.formVersion})</Text>
              {r.editable && !editing && (
                <Button size="xs" variant="light" onClick={() => setEditing(true)}>
                  Corregir datos
                </Button>
              )}
            </Group>
            <FormRenderer
              schema={r.schema}
              uiSchema={r.uiSchema}
              data={editing ? data : r.data}
              onChange={editing ? setData : undefined}
              readOnly={!editing}
              context={{ entities: r.entityId ? [{ id: r.entityId, name: r.entityName ?? '' }] : [], canUpload: editing }}
              extraErrors={errors}
              busy={update.isPending}
              submitLabel="Guardar corrección"
              onSubmit={
                editing
                  ? (d) =>
                      update.mutate(
                        { data: d, expected: r.state },
                        {
                          onSuccess: () => {
                            notifySuccess('Datos corregidos.');
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
                Estado
              </Text>
              <Text size="sm">
                {r.stateLabel} desde {moment(r.stateSince)}
                {r.dueAt && !r.final ? ` · vence ${day(r.dueAt)}` : ''}
                {r.closedAt ? ` · cerrada ${day(r.closedAt)}` : ''}
              </Text>
              <Text size="sm" c="dimmed">
                Entidad: {r.entityName ?? 'ninguna (personal central)'} · flujo versión {r.flowVersion}
              </Text>
              {r.expected.length > 0 && (
                <>
                  <Text fw={600} mt="sm" mb={4}>
                    Quién debe actuar
                  </Text>
                  {r.expected.map((e) => (
                    <Text key={e.label} size="sm">
                      «{e.label}»: {e.role}
                      {e.users.length ? ` (${e.users.join(', ')})` : ' (nadie con ese rol a su alcance)'}
                    </Text>
                  ))}
                </>
              )}
            </Card>
            <Card withBorder>
              <Text fw={600} mb="xs">
                Historial
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
                      <Anchor
                        size="sm"
                        component="button"
                        onClick={() => downloadFile(`/api/sig/items/${r.id}/documents/${e.documentId}`).catch(notifyError)}
                      >
                        {e.filename ?? 'Documento'}
                      </Anchor>
                    )}
                  </Timeline.Item>
                ))}
              </Timeline>
              <Textarea
                mt="md"
                label="Comentario"
                autosize
                minRows={2}
                value={note}
                onChange={(e) => setNote(e.currentTarget.value)}
              />
              <Group justify="flex-end" mt="xs" gap="xs">
                <FileButton
                  accept="application/pdf,image/png,image/jpeg"
                  onChange={(f) =>
                    f && attach.mutate(f, { onSuccess: () => notifySuccess('Archivo adjuntado.'), onError: notifyError })
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
                      Adjuntar
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
                  Comentar
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
        closeButtonProps={{ 'aria-label': 'Cerrar' }}
      >
        <Stack>
          <Text size="sm">
            La solicitud pasará de «{r.stateLabel}» a «{acting?.toLabel}».
            {acting?.action === 'create-pension' ? ' Se creará la pensión de jubilación con los datos de la solicitud.' : ''}
            {acting?.action === 'document' ? ' Se generará la constancia en PDF.' : ''}
          </Text>
          <Textarea
            label="Comentario"
            required={acting?.commentRequired}
            autosize
            minRows={3}
            value={comment}
            onChange={(e) => setComment(e.currentTarget.value)}
            error={errors.find((e) => e.path === 'comment')?.message}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setActing(null)}>
              Cancelar
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
