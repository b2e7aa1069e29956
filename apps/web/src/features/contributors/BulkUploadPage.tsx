import 'mantine-datatable/styles.layer.css';
import type { ContributorImport, ImportRow } from '@aporta/domain';
import {
  Alert,
  Badge,
  Button,
  Card,
  FileInput,
  Group,
  List,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
} from '@mantine/core';
import { IconDownload, IconFileSpreadsheet, IconUpload } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { JobProgress } from '../../components/JobProgress.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { NotAuthorizedPage } from '../../components/RequirePermission.tsx';
import { WorkProgress } from '../../components/WorkProgress.tsx';
import { ApiError } from '../../lib/api.ts';
import { openConfirm } from '../../lib/confirm.ts';
import { downloadFile } from '../../lib/download.ts';
import { formatDateTime } from '../../lib/format.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { queryClient } from '../../lib/query.ts';
import { useCan } from '../../lib/useCan.ts';
import { uploadImport, useCommitImport, useDiscardImport, useImport, useImportRows, useOpenImports } from './api.ts';
import { Cui } from './components.tsx';
import { contributorImportKeys } from './keys.ts';

function RowsTable({ id, kind }: { id: string; kind: 'valid' | 'error' }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const rows = useImportRows(id, kind, page);
  const { data, isFetching } = rows;
  return (
    <QueryState query={rows} list>
      <DataTable<ImportRow>
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
                  render: (r: ImportRow) => (
                    <List size="sm" spacing={2}>
                      {r.errors.map((e) => (
                        <List.Item key={`${e.column}-${e.message}`}>
                          <b>{e.column}</b>
                          {e.cell ? ` (${e.cell})` : ''}: {e.message}
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

const statusColor: Record<string, string> = { VALIDANDO: 'blue.9', VALIDADO: 'green.9', FALLIDO: 'red.9' };

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
                      {imp.message}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    {(imp.status === 'VALIDADO' || imp.status === 'VALIDANDO') && (
                      <Button size="xs" variant="default" onClick={() => onOpen(imp)}>
                        {t('contributors.upload.open')}
                      </Button>
                    )}
                    {imp.status !== 'VALIDANDO' && (
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
  const [params, setParams] = useSearchParams();
  // The batch on screen lives in the address (?carga=<id>): a reload, or coming back later, finds it.
  const id = params.get('carga');
  const setId = (next: string | null) =>
    setParams(
      (p) => {
        const q = new URLSearchParams(p);
        if (next) q.set('carga', next);
        else q.delete('carga');
        return q;
      },
      { replace: true },
    );
  const [file, setFile] = useState<File | null>(null);
  const [uploadFraction, setUploadFraction] = useState<number | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const uploading = uploadFraction !== null;
  const batch = useImport(id, uploading);
  const pending = useOpenImports();
  const commit = useCommitImport();
  const discard = useDiscardImport();
  const can = useCan();
  const current = commit.data?.id === id ? commit.data : (batch.data ?? null);
  const validating = uploading || current?.status === 'VALIDANDO';

  // Coming back without a batch in the address: the newest upload still validating is shown again.
  const resumed = useRef(false);
  useEffect(() => {
    if (resumed.current || id || !pending.data) return;
    resumed.current = true;
    const running = pending.data.find((i) => i.status === 'VALIDANDO');
    if (running) setId(running.id);
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
      onConfirm: () =>
        commit.mutate(current!.id, {
          onSuccess: (r) => notifySuccess(t('contributors.upload.committed', { count: r.committedRows })),
          onError: notifyError,
        }),
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
  return (
    <>
      <PageHeader title={t('contributors.upload.title')} mb="md">
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          onClick={() => downloadFile('/api/contributor-imports/template', { format: 'xlsx' }).catch(notifyError)}
        >
          {t('contributors.upload.templateXlsx')}
        </Button>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          onClick={() => downloadFile('/api/contributor-imports/template', { format: 'csv' }).catch(notifyError)}
        >
          {t('contributors.upload.templateCsv')}
        </Button>
      </PageHeader>
      <Stack>
        <PendingImports
          pending={pending}
          currentId={current?.id ?? id}
          onOpen={(imp) => {
            reset();
            setId(imp.id);
          }}
        />
        <Card withBorder>
          <Text size="sm" mb="sm">
            {t('contributors.upload.help')}
          </Text>
          <Group align="end">
            <FileInput
              label={t('contributors.upload.file')}
              accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              leftSection={<IconFileSpreadsheet size={16} />}
              value={file}
              onChange={(f) => {
                reset();
                setFile(f);
              }}
              clearable
              clearButtonProps={{ 'aria-label': t('contributors.upload.clearFile') }}
              w={360}
              maw="100%"
              data-testid="upload-file"
            />
            <Button leftSection={<IconUpload size={16} />} disabled={!file || validating} loading={uploading} onClick={start}>
              {t('contributors.upload.validate')}
            </Button>
          </Group>
          {(uploading || current) && (
            <Stack gap="sm" mt="md">
              {uploading && (
                <Stack gap={4}>
                  <Text size="sm">
                    {t('contributors.upload.uploading', { percent: Math.round((uploadFraction ?? 0) * 100) })}
                  </Text>
                  <Progress value={(uploadFraction ?? 0) * 100} aria-label={t('contributors.upload.uploadProgress')} />
                </Stack>
              )}
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
              <Text size="sm">{current.message}</Text>
              <Button mt="sm" size="xs" variant="default" loading={discard.isPending} onClick={discardCurrent}>
                {t('contributors.upload.discard')}
              </Button>
            </Alert>
          )}
          {failure && (
            <Alert color="red" mt="md" title={t('contributors.upload.refused')} data-testid="upload-error">
              {failure.message}
              {failure.details.length > 0 && (
                <List size="sm" mt="xs">
                  {failure.details.map((d) => (
                    <List.Item key={`${d.path}-${d.message}`}>
                      {d.path}: {d.message}
                    </List.Item>
                  ))}
                </List>
              )}
            </Alert>
          )}
          {id && batch.isError && !uploading && !current && (
            <QueryState query={batch}>
              <span />
            </QueryState>
          )}
        </Card>
        {current && (current.status === 'VALIDADO' || current.status === 'CONFIRMADO') && (
          <>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Card withBorder>
                <Text size="sm">{t('contributors.upload.total')}</Text>
                <Text fw={700} fz="xl">
                  {current.totalRows}
                </Text>
              </Card>
              <Card withBorder>
                <Text size="sm">{t('contributors.upload.valid')}</Text>
                <Text fw={700} fz="xl" c="green.8" data-testid="upload-valid">
                  {current.validRows}
                </Text>
              </Card>
              <Card withBorder>
                <Text size="sm">{t('contributors.upload.errors')}</Text>
                <Text fw={700} fz="xl" c="red.8" data-testid="upload-errors">
                  {current.errorRows}
                </Text>
              </Card>
            </SimpleGrid>
            {current.status === 'CONFIRMADO' ? (
              <Alert color="green" data-testid="upload-committed">
                {t('contributors.upload.committed', { count: current.committedRows })}{' '}
                <Link to="/contributors/cui-approval">{t('contributors.upload.goApprovals')}</Link>
              </Alert>
            ) : (
              <Group>
                <Button disabled={current.validRows === 0} loading={commit.isPending} onClick={confirmCommit}>
                  {t('contributors.upload.commitN', { count: current.validRows })}
                </Button>
                <Button variant="default" loading={discard.isPending} onClick={discardCurrent}>
                  {t('contributors.upload.discard')}
                </Button>
              </Group>
            )}
            <Card withBorder>
              <Tabs defaultValue={current.errorRows ? 'error' : 'valid'}>
                <Tabs.List mb="sm">
                  <Tabs.Tab value="error">{t('contributors.upload.errorsTab', { count: current.errorRows })}</Tabs.Tab>
                  <Tabs.Tab value="valid">{t('contributors.upload.validTab', { count: current.validRows })}</Tabs.Tab>
                </Tabs.List>
                <Tabs.Panel value="error">
                  {current.errorRows > 0 && (
                    <Button
                      mb="sm"
                      variant="light"
                      leftSection={<IconDownload size={16} />}
                      onClick={() => downloadFile(`/api/contributor-imports/${current.id}/exceptions`).catch(notifyError)}
                    >
                      {t('contributors.upload.downloadErrors')}
                    </Button>
                  )}
                  <RowsTable id={current.id} kind="error" />
                </Tabs.Panel>
                <Tabs.Panel value="valid">
                  <RowsTable id={current.id} kind="valid" />
                </Tabs.Panel>
              </Tabs>
            </Card>
          </>
        )}
      </Stack>
    </>
  );
}
