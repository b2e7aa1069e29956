import 'mantine-datatable/styles.layer.css';
import { Alert, Badge, Button, Card, Group, List, Stack, Table, Text } from '@mantine/core';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { JobProgress } from '../../components/JobProgress.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { NotAuthorizedPage } from '../../components/RequirePermission.tsx';
import { UploadPageFrame } from '../../components/UploadPageFrame.tsx';
import { WorkProgress } from '../../components/WorkProgress.tsx';
import { ApiError } from '../../lib/api.ts';
import { openConfirm } from '../../lib/confirm.ts';
import { formatDateTime } from '../../lib/format.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { queryClient } from '../../lib/query.ts';
import { messageText } from '../../lib/server-messages.ts';
import { useCan } from '../../lib/useCan.ts';
import { batchInProgress, useBatchInAddress, useFollowUpload } from '../../lib/useUploadBatch.ts';
import {
  type ContributorImport,
  type ContributorImportRow,
  invalidate,
  uploadImport,
  useCommitImport,
  useDiscardImport,
  useImport,
  useImportRows,
  useOpenImports,
} from './api.ts';
import { Cui } from './components.tsx';
import { contributorImportKeys } from './keys.ts';

function RowsTable({ id, kind }: { id: string; kind: 'valid' | 'error' }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const rows = useImportRows(id, kind, page);
  const { data, isFetching } = rows;
  return (
    <QueryState query={rows} list>
      <DataTable<ContributorImportRow>
        withTableBorder
        minHeight={120}
        idAccessor="rowNumber"
        fetching={isFetching}
        records={data?.items ?? []}
        totalRecords={data?.total ?? 0}
        recordsPerPage={10}
        page={page}
        onPageChange={setPage}
        noRecordsText={kind === 'error' ? t('contributors.upload.noErrors') : t('contributors.upload.noValid')}
        columns={[
          { accessor: 'rowNumber', title: t('contributors.upload.row'), width: 70 },
          { accessor: 'cui', title: 'CUI', render: (r) => (r.cui ? <Cui value={r.cui} /> : '—') },
          { accessor: 'name', title: t('contributors.fields.fullName') },
          ...(kind === 'error'
            ? [
                {
                  accessor: 'errors',
                  title: t('contributors.upload.reasons'),
                  render: (r: ContributorImportRow) => (
                    <List size="sm" spacing={2}>
                      {r.errors.map((e) => (
                        <List.Item key={`${e.column}-${e.message}`}>
                          <b>{e.column}</b>
                          {e.cell ? ` (${e.cell})` : ''}: {messageText(e)}
                        </List.Item>
                      ))}
                    </List>
                  ),
                },
              ]
            : []),
        ]}
      />
    </QueryState>
  );
}

const statusColor: Record<string, string> = { VALIDANDO: 'blue.9', VALIDADO: 'green.9', CONFIRMANDO: 'blue.9', FALLIDO: 'red.9' };
/** A batch whose background job (validation or commit) is under way. */

/**
 * The uploader's unfinished uploads: ones still validating or waiting for confirmation (open them) and
 * failed ones, e.g. interrupted by a server restart (discard them). Hidden when there are none.
 */
function PendingImports({
  pending,
  currentId,
  onOpen,
}: {
  pending: ReturnType<typeof useOpenImports>;
  currentId: string | null;
  onOpen: (imp: ContributorImport) => void;
}) {
  const { t } = useTranslation();
  const discard = useDiscardImport();
  const items = (pending.data ?? []).filter((i) => i.id !== currentId);
  if (!items.length) return null;
  return (
    <Card withBorder data-testid="pending-imports">
      <Text fw={600}>{t('contributors.upload.pendingTitle')}</Text>
      <Text size="sm" c="dimmed" mb="sm">
        {t('contributors.upload.pendingHelp')}
      </Text>
      <Table.ScrollContainer minWidth={560}>
        <Table>
          <Table.Tbody>
            {items.map((imp) => (
              <Table.Tr key={imp.id}>
                <Table.Td>
                  <Text size="sm">{imp.fileName}</Text>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(imp.createdAt)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge variant="outline" color={statusColor[imp.status] ?? 'gray.7'} style={{ maxWidth: 'none' }}>
                    {t(`contributors.upload.status.${imp.status}`)}
                  </Badge>
                  {imp.message && (
                    <Text size="xs" mt={4}>
                      {messageText({ message: imp.message })}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    {(imp.status === 'VALIDADO' || batchInProgress(imp.status)) && (
                      <Button size="xs" variant="default" onClick={() => onOpen(imp)}>
                        {t('contributors.upload.open')}
                      </Button>
                    )}
                    {!batchInProgress(imp.status) && (
                      <Button
                        size="xs"
                        variant="default"
                        loading={discard.isPending && discard.variables === imp.id}
                        onClick={() =>
                          discard.mutate(imp.id, {
                            onSuccess: () => {
                              notifySuccess(t('contributors.upload.discarded'));
                              void pending.refetch();
                            },
                            onError: notifyError,
                          })
                        }
                      >
                        {t('contributors.upload.discard')}
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

export function BulkUploadPage() {
  const { t } = useTranslation();
  const [id, setId] = useBatchInAddress();
  const [file, setFile] = useState<File | null>(null);
  const [uploadFraction, setUploadFraction] = useState<number | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const uploading = uploadFraction !== null;
  const batch = useImport(id, uploading);
  const pending = useOpenImports();
  const commit = useCommitImport();
  const discard = useDiscardImport();
  const can = useCan();
  const current = batch.data ?? null;
  const validating = uploading || batchInProgress(current?.status);

  useFollowUpload({
    id,
    setId,
    open: pending.data,
    current,
    // The commit job ended while this screen followed it: say so, and the lists show the new contributors.
    onCommitEnd: (b) => {
      void pending.refetch();
      if (b.status === 'CONFIRMADO') {
        invalidate();
        notifySuccess(t('contributors.upload.committed', { count: b.committedRows }));
      } else if (b.message) notifyError(new ApiError(409, 'CONFLICT', b.message));
    },
  });

  const start = async () => {
    if (!file) return;
    const newId = crypto.randomUUID();
    commit.reset();
    setId(newId);
    setFailure(null);
    setUploadFraction(0);
    try {
      const accepted = await uploadImport(file, newId, setUploadFraction);
      queryClient.setQueryData(contributorImportKeys.one(newId), accepted);
    } catch (err) {
      setFailure(err instanceof ApiError ? err : new ApiError(0, 'INTERNAL', t('common.unexpectedError')));
      setId(null);
    } finally {
      setUploadFraction(null);
      void pending.refetch();
    }
  };

  const confirmCommit = () =>
    openConfirm({
      title: t('contributors.upload.confirmTitle'),
      children: <Text size="sm">{t('contributors.upload.confirmText', { count: current?.validRows ?? 0 })}</Text>,
      labels: { confirm: t('contributors.upload.commit'), cancel: t('contributors.form.cancel') },
      onConfirm: () => commit.mutate(current!.id, { onError: notifyError, onSettled: () => void pending.refetch() }),
    });

  const reset = () => {
    setFile(null);
    setId(null);
    setUploadFraction(null);
    setFailure(null);
    commit.reset();
  };

  const discardCurrent = () =>
    discard.mutate(current!.id, {
      onSuccess: () => {
        notifySuccess(t('contributors.upload.discarded'));
        reset();
        void pending.refetch();
      },
      onError: notifyError,
    });

  if (!can('contributor-bulk-upload', 'CREATE')) return <NotAuthorizedPage />;
  const reading = uploadFraction !== null && uploadFraction >= 1 && current?.status !== 'VALIDANDO';
  const done = current && current.status !== 'VALIDANDO';
  const showResults =
    current && (current.status === 'VALIDADO' || current.status === 'CONFIRMANDO' || current.status === 'CONFIRMADO');
  return (
    <UploadPageFrame
      i18nPrefix="contributors.upload"
      templatePath="/api/contributor-imports/template"
      top={
        <PendingImports
          pending={pending}
          currentId={current?.id ?? id}
          onOpen={(imp) => {
            reset();
            setId(imp.id);
          }}
        />
      }
      file={file}
      onFileChange={(f) => {
        reset();
        setFile(f);
      }}
      startDisabled={validating}
      fraction={uploadFraction}
      onStart={start}
      failure={failure}
      status={
        <>
          {(reading || current) && (
            <Stack gap="sm" mt="md">
              {(reading || (current?.status === 'VALIDANDO' && !current.jobId)) && (
                <WorkProgress
                  testId="validation-progress"
                  label={t('contributors.upload.validationProgress')}
                  phase={t('contributors.upload.reading')}
                  done={current?.processedRows ?? 0}
                  total={null}
                />
              )}
              {/* The rows are validated by a background job: its progress, and cancel with confirmation. */}
              {current?.status === 'VALIDANDO' && current.jobId != null && <JobProgress jobId={current.jobId} />}
              {current?.status === 'VALIDANDO' && (
                <Text size="sm" c="dimmed">
                  {t('contributors.upload.leaveHint')}
                </Text>
              )}
              {done && current.status !== 'FALLIDO' && current.status !== 'DESCARTADO' && (
                <WorkProgress
                  testId="validation-progress"
                  label={t('contributors.upload.validationProgress')}
                  phase={t('contributors.upload.validated', { count: current.totalRows })}
                  done={current.totalRows}
                  total={current.totalRows}
                  finished
                />
              )}
            </Stack>
          )}
          {current?.status === 'FALLIDO' && (
            <Alert color="red" mt="md" title={t('contributors.upload.failedTitle')} data-testid="upload-failed">
              <Text size="sm">{messageText({ message: current.message ?? '' })}</Text>
              <Button mt="sm" size="xs" variant="default" loading={discard.isPending} onClick={discardCurrent}>
                {t('contributors.upload.discard')}
              </Button>
            </Alert>
          )}
          {id && batch.isError && !uploading && !current && (
            <QueryState query={batch}>
              <span />
            </QueryState>
          )}
        </>
      }
      results={
        showResults
          ? {
              batch: current,
              exceptionsUrl: `/api/contributor-imports/${current.id}/exceptions`,
              rows: (kind) => <RowsTable id={current.id} kind={kind} />,
              decision:
                current.status === 'CONFIRMADO' ? (
                  <Alert color="green" data-testid="upload-committed">
                    {t('contributors.upload.committed', { count: current.committedRows })}{' '}
                    <Link to="/contributors/cui-approval">{t('contributors.upload.goApprovals')}</Link>
                  </Alert>
                ) : current.status === 'CONFIRMANDO' ? (
                  // The commit is a background job (every row or none): its phase and rows, until it ends.
                  <Stack gap="xs" data-testid="commit-progress">
                    {current.jobId != null && <JobProgress jobId={current.jobId} />}
                    <Text size="sm" c="dimmed">
                      {t('contributors.upload.commitLeaveHint')}
                    </Text>
                  </Stack>
                ) : (
                  <Group>
                    {current.message && (
                      // Back to "to confirm" after a commit that did not finish: nothing was saved; why.
                      <Alert color="yellow" w="100%" data-testid="commit-reopened">
                        {messageText({ message: current.message })}
                      </Alert>
                    )}
                    <Button disabled={current.validRows === 0} loading={commit.isPending} onClick={confirmCommit}>
                      {t('contributors.upload.commitN', { count: current.validRows })}
                    </Button>
                    <Button variant="default" loading={discard.isPending} onClick={discardCurrent}>
                      {t('contributors.upload.discard')}
                    </Button>
                  </Group>
                ),
            }
          : null
      }
    />
  );
}
