import type { SigningRequest } from '@aporta/domain/signing';
import { Badge, Box, Button, Drawer, Group, PasswordInput, Stack, Text, Textarea, Timeline } from '@mantine/core';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ListColumn, ListPage, type ListParams } from '../../components/ListPage.tsx';
import { SpanishDocumentHint } from '../../components/SpanishDocumentHint.tsx';
import { useCurrentUser } from '../../lib/auth.ts';
import { showApiError } from '../../lib/form-errors.ts';
import { formatDateTime } from '../../lib/format.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import {
  downloadRequestPdf,
  fetchRequestPdf,
  type RequestListKind,
  requestsExportPath,
  useRequestAction,
  useRequests,
} from './api.ts';

const stateColor = { BORRADOR: 'gray', PENDIENTE: 'yellow', FIRMADO: 'green', RECHAZADO: 'red' } as const;
const listHooks: Record<RequestListKind, (p: ListParams) => ReturnType<typeof useRequests>> = {
  pending: (p) => useRequests('pending', p),
  signed: (p) => useRequests('signed', p),
  rejected: (p) => useRequests('rejected', p),
  sent: (p) => useRequests('sent', p),
};
const exportable = { signed: 'signing-signed', rejected: 'signing-rejected' } as const;

/** /firmaDoc/pendientes, /signed, /rechazados: the user's documents in that state; pending ones are signed or rejected here. */
export function RequestsPage({ kind }: { kind: RequestListKind }) {
  const { t } = useTranslation();
  return <RequestList kind={kind} title={t(`signing.lists.${kind}`)} description={t(`signing.lists.${kind}Intro`)} />;
}

/**
 * One list of signing requests (ListPage): search, pages, export where the list's permission has it, the
 * request's drawer on click; in "sent", a saved draft is sent from its row or its drawer.
 */
export function RequestList({
  kind,
  title,
  description,
  notice,
}: {
  kind: RequestListKind;
  title: ReactNode;
  description?: ReactNode;
  notice?: ReactNode;
}) {
  const { t } = useTranslation();
  const can = useCan();
  const [open, setOpen] = useState<SigningRequest | null>(null);
  const send = useSend();
  const exportResource = kind === 'signed' || kind === 'rejected' ? exportable[kind] : null;
  const columns: ListColumn<SigningRequest>[] = [
    { accessor: 'title', title: t('signing.upload.docTitle') },
    { accessor: 'createdBy', title: t('signing.sender') },
    {
      accessor: 'signers',
      title: t('signing.upload.signers'),
      render: (r) => r.signers.map((s) => `${s.position}. ${s.name}`).join(' → '),
    },
    {
      accessor: 'state',
      title: t('signing.state'),
      render: (r) => (
        <Badge color={stateColor[r.state]} variant="light" c="var(--mantine-color-text)">
          {t(`signing.requestStates.${r.state}`)}
        </Badge>
      ),
    },
    { accessor: 'createdAt', title: t('signing.created'), kind: 'datetime' },
    {
      accessor: 'open',
      title: '',
      render: (r) => (
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="light" onClick={() => setOpen(r)}>
            {kind === 'pending' ? t('signing.review') : t('signing.open')}
          </Button>
          {kind === 'sent' && r.state === 'BORRADOR' && (
            <Button
              size="xs"
              loading={send.isPending && send.variables?.id === r.id}
              onClick={(e) => {
                e.stopPropagation();
                send.mutate(r);
              }}
            >
              {t('signing.sendDraft')}
            </Button>
          )}
        </Group>
      ),
    },
  ];
  return (
    <ListPage<SigningRequest>
      title={title}
      description={description}
      defaultSort="-id"
      searchLabel={t('signing.search')}
      columns={columns}
      useRows={listHooks[kind]}
      exportPath={exportResource && can(exportResource, 'EXPORT') ? requestsExportPath(kind) : null}
      notice={notice}
      emptyText={t('signing.lists.empty')}
      onRowClick={setOpen}
    >
      <RequestDrawer
        request={open}
        onClose={() => setOpen(null)}
        onSend={(r) => send.mutate(r, { onSuccess: () => setOpen(null) })}
      />
    </ListPage>
  );
}

/** Sends a saved draft to its first signer. */
function useSend() {
  const { t } = useTranslation();
  const act = useRequestAction();
  return {
    isPending: act.isPending,
    variables: act.variables,
    mutate: (r: SigningRequest, opts: { onSuccess?: () => void } = {}) =>
      act.mutate(
        { id: r.id, action: 'send' },
        {
          onSuccess: () => {
            notifySuccess(t('signing.upload.sent'));
            opts.onSuccess?.();
          },
          onError: (err) => showApiError(err),
        },
      ),
  };
}

function RequestDrawer({
  request,
  onClose,
  onSend,
}: {
  request: SigningRequest | null;
  onClose: () => void;
  onSend: (r: SigningRequest) => void;
}) {
  const { t } = useTranslation();
  const act = useRequestAction();
  const me = useCurrentUser().data?.id;
  const [pdf, setPdf] = useState<{ url: string; sha256: string | null } | null>(null);
  const [pass, setPass] = useState('');
  const [passError, setPassError] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  useEffect(() => {
    setPdf(null);
    setPass('');
    setPassError(null);
    setRejecting(false);
    setReason('');
    if (!request) return;
    let url = '';
    fetchRequestPdf(request.id)
      .then((p) => {
        url = p.url;
        setPdf(p);
      })
      .catch(notifyError);
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [request]);
  if (!request) return null;
  const done = () => onClose();
  return (
    <Drawer
      closeButtonProps={{ 'aria-label': t('common.close') }}
      opened
      onClose={onClose}
      position="right"
      size="xl"
      title={request.title}
    >
      <Stack>
        {/* The requester's own note to the signers, shown as written. */}
        {request.message && <Text size="sm">{request.message.trim()}</Text>}
        <Timeline active={request.signers.filter((s) => s.state === 'FIRMADO').length - 1} bulletSize={18} lineWidth={2}>
          {request.signers.map((s) => (
            <Timeline.Item key={s.position} title={`${s.position}. ${s.name}`}>
              <Text size="xs" c="dimmed">
                {t(`signing.signerStates.${s.state}`)}
                {s.actedAt ? ` · ${formatDateTime(s.actedAt)}` : ''}
                {s.reason ? ` · ${t('signing.reason')}: ${s.reason}` : ''}
              </Text>
            </Timeline.Item>
          ))}
        </Timeline>
        <Box h={420} style={{ border: '1px solid var(--mantine-color-default-border)' }}>
          {pdf ? (
            <iframe title={t('signing.preview')} src={pdf.url} width="100%" height="100%" style={{ border: 0 }} />
          ) : (
            <Text p="md">{t('signing.loadingPdf')}</Text>
          )}
        </Box>
        <Group>
          <Button variant="default" onClick={() => downloadRequestPdf(request.id).catch(notifyError)}>
            {t('signing.download')}
          </Button>
          <SpanishDocumentHint />
          {request.state === 'BORRADOR' && request.createdById === me && (
            <Button onClick={() => onSend(request)}>{t('signing.sendDraft')}</Button>
          )}
        </Group>
        {request.myTurn && !rejecting && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (!pdf?.sha256) return;
              act.mutate(
                { id: request.id, action: 'sign', body: { passphrase: pass, sha256: pdf.sha256 } },
                {
                  onSuccess: () => {
                    notifySuccess(t('signing.signed'));
                    done();
                  },
                  // A wrong passphrase is said once, under the field; anything else in a notification.
                  onError: (err) => showApiError(err, { setFieldError: (_path, text) => setPassError(text) }, ['passphrase']),
                },
              );
            }}
          >
            <Group align="end">
              <PasswordInput
                label={t('signing.passphrase')}
                value={pass}
                onChange={(e) => {
                  setPass(e.currentTarget.value);
                  setPassError(null);
                }}
                error={passError}
                w={260}
                required
              />
              <Button type="submit" loading={act.isPending} disabled={!pass || !pdf?.sha256}>
                {t('signing.sign')}
              </Button>
              <Button color="red" variant="light" onClick={() => setRejecting(true)}>
                {t('signing.reject')}
              </Button>
            </Group>
          </form>
        )}
        {request.myTurn && rejecting && (
          <Stack>
            <Textarea
              label={t('signing.reason')}
              required
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              maxLength={1000}
              autosize
              minRows={2}
            />
            <Group>
              <Button variant="default" onClick={() => setRejecting(false)}>
                {t('common.cancel')}
              </Button>
              <Button
                color="red"
                disabled={!reason.trim()}
                loading={act.isPending}
                onClick={() =>
                  act.mutate(
                    { id: request.id, action: 'reject', body: { reason } },
                    {
                      onSuccess: () => {
                        notifySuccess(t('signing.rejected'));
                        done();
                      },
                      onError: (err) => showApiError(err),
                    },
                  )
                }
              >
                {t('signing.confirmReject')}
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Drawer>
  );
}
