import {
  Alert,
  Anchor,
  Button,
  Card,
  FileInput,
  Group,
  MultiSelect,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { QueryState } from '../../components/QueryState.tsx';
import { showApiError } from '../../lib/form-errors.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import { useCreateRequest, useDocuments, useSignerOptions } from './api.ts';
import { RequestList } from './RequestsPage.tsx';

/**
 * /firmaDoc/upload: a PDF (or a document of the library), the signers in order and a message — sent at
 * once or saved as a draft — and below, the documents the user sent (drafts are sent from there).
 */
export function UploadPage() {
  const { t } = useTranslation();
  return (
    <RequestList
      kind="sent"
      title={t('signing.upload.title')}
      description={t('signing.upload.intro')}
      notice={
        <>
          <UploadForm />
          <Title order={2} size="h4" mt="md">
            {t('signing.lists.sent')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('signing.lists.sentIntro')}
          </Text>
        </>
      }
    />
  );
}

function UploadForm() {
  const { t } = useTranslation();
  const can = useCan();
  const signers = useSignerOptions();
  const mayPick = can('documents', 'READ');
  const docs = useDocuments({ pageSize: 100 }, mayPick);
  const create = useCreateRequest();
  const [file, setFile] = useState<File | null>(null);
  const [documentId, setDocumentId] = useState<string | null>(null);
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const [order, setOrder] = useState<string[]>([]);
  const submit = (send: boolean) =>
    create.mutate(
      {
        fields: {
          title,
          message,
          signers: order.join(','),
          send: String(send),
          documentId: file ? undefined : (documentId ?? undefined),
        },
        file,
      },
      {
        onSuccess: () => {
          notifySuccess(t(send ? 'signing.upload.sent' : 'signing.upload.saved'));
          setFile(null);
          setTitle('');
          setMessage('');
          setOrder([]);
        },
        onError: (e) => showApiError(e),
      },
    );
  const names = new Map((signers.data?.items ?? []).map((s) => [String(s.id), s.name || s.email]));
  return (
    <QueryState query={signers}>
      <Card withBorder maw={720}>
        <Stack>
          <FileInput
            label={t('signing.upload.file')}
            accept="application/pdf"
            value={file}
            onChange={setFile}
            clearable
            placeholder={t('signing.upload.choose')}
          />
          {mayPick && !file && (
            <Select
              label={t('signing.upload.fromLibrary')}
              searchable
              clearable
              data={(docs.data?.items ?? [])
                .filter((d) => d.contentType === 'application/pdf')
                .map((d) => ({ value: String(d.id), label: `${d.title} (${d.filename})` }))}
              value={documentId}
              onChange={setDocumentId}
            />
          )}
          <TextInput
            label={t('signing.upload.docTitle')}
            required
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
            maxLength={200}
          />
          <Textarea
            label={t('signing.upload.message')}
            value={message}
            onChange={(e) => setMessage(e.currentTarget.value)}
            maxLength={2000}
            autosize
            minRows={2}
          />
          {signers.data && signers.data.items.length === 0 && <NoSigners />}
          <MultiSelect
            label={t('signing.upload.signers')}
            description={t('signing.upload.signersHelp')}
            data={(signers.data?.items ?? []).map((s) => ({ value: String(s.id), label: `${s.name} (${s.email})` }))}
            value={order}
            onChange={setOrder}
            searchable
            maxValues={10}
            disabled={signers.data?.items.length === 0}
          />
          {order.length > 0 && (
            <Text size="sm" c="dimmed">
              {t('signing.upload.order')}: {order.map((id, i) => `${i + 1}. ${names.get(id) ?? id}`).join(' → ')}
            </Text>
          )}
          <Group justify="flex-end">
            <Button
              variant="default"
              disabled={!title || order.length === 0 || (!file && !documentId)}
              loading={create.isPending}
              onClick={() => submit(false)}
            >
              {t('signing.upload.saveDraft')}
            </Button>
            <Button
              disabled={!title || order.length === 0 || (!file && !documentId)}
              loading={create.isPending}
              onClick={() => submit(true)}
            >
              {t('signing.upload.send')}
            </Button>
          </Group>
        </Stack>
      </Card>
    </QueryState>
  );
}

/**
 * Why the signers' list is empty and what to do: only users whose role may sign and who hold a valid
 * certificate are offered, and nobody does yet. Who may issue certificates gets the way there.
 */
export function NoSigners() {
  const { t } = useTranslation();
  const can = useCan();
  return (
    <Alert color="yellow" title={t('signing.upload.noSigners')} data-testid="no-signers">
      <Stack gap={4}>
        <Text size="sm">{t('signing.upload.noSignersWhy')}</Text>
        {can('signature-admin', 'CREATE') ? (
          <Anchor component={Link} to="/administradorFirma" size="sm">
            {t('signing.upload.issueCertificates')}
          </Anchor>
        ) : (
          <Text size="sm">{t('signing.upload.askForCertificates')}</Text>
        )}
      </Stack>
    </Alert>
  );
}
