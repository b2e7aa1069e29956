import 'mantine-datatable/styles.layer.css';
import { formatPeriod, type PlanillaType, periodSchema, planillaTypes, previousPeriod } from '@aporta/domain';
import { Alert, Anchor, Button, Card, Group, List, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCopy, IconFilePlus } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { JobProgress } from '../../components/JobProgress.tsx';
import { Money, Period } from '../../components/Money.tsx';
import { PeriodField } from '../../components/PeriodField.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { NotAuthorizedPage } from '../../components/RequirePermission.tsx';
import { UploadPageFrame } from '../../components/UploadPageFrame.tsx';
import { ApiError, fillPath } from '../../lib/api.ts';
import { openConfirm } from '../../lib/confirm.ts';
import { displayCui } from '../../lib/format.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { queryClient } from '../../lib/query.ts';
import { usePlanillaOptions } from '../../lib/referenceOptions.ts';
import { messageText } from '../../lib/server-messages.ts';
import { useCan } from '../../lib/useCan.ts';
import { useBatchInAddress, useFollowUpload } from '../../lib/useUploadBatch.ts';
import {
  invalidate,
  type PlanillaUpload,
  type PlanillaUploadRow,
  uploadPlanillaFile,
  useCommitUpload,
  useCreatePlanilla,
  useDiscardUpload,
  useFindPlanillas,
  useOpenPlanillaUploads,
  usePlanillaUpload,
  usePlanillaUploadRows,
} from './api.ts';
import { PlanillaStateBadge } from './components.tsx';
import { planillaKeys } from './keys.ts';

/** Today's month in Guatemala, `AAAA-MM`. */
const thisMonth = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Guatemala', year: 'numeric', month: '2-digit' })
    .format(new Date())
    .slice(0, 7);

function UploadRows({ id, kind }: { id: string; kind: 'valid' | 'error' }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const rows = usePlanillaUploadRows(id, kind, page);
  return (
    <QueryState query={rows} list>
      <DataTable<PlanillaUploadRow>
        withTableBorder
        minHeight={120}
        idAccessor="rowNumber"
        fetching={rows.isFetching}
        records={rows.data?.items ?? []}
        totalRecords={rows.data?.total ?? 0}
        recordsPerPage={10}
        page={page}
        onPageChange={setPage}
        noRecordsText={kind === 'error' ? t('planillas.upload.noErrors') : t('planillas.upload.noValid')}
        columns={[
          { accessor: 'rowNumber', title: t('planillas.upload.row'), width: 70 },
          { accessor: 'cui', title: 'CUI', render: (r) => <span dir="ltr">{displayCui(r.cui) || '—'}</span> },
          { accessor: 'name', title: t('planillas.fields.fullName') },
          {
            accessor: 'errors',
            title: kind === 'error' ? t('planillas.upload.reasons') : t('planillas.fields.warnings'),
            render: (r) => (
              <List size="sm" spacing={2}>
                {(kind === 'error' ? r.errors : r.warnings).map((e) => (
                  <List.Item key={`${e.column}-${e.message}`}>
                    <b>{e.column}</b>
                    {e.cell ? ` (${e.cell})` : ''}: {messageText(e)}
                  </List.Item>
                ))}
              </List>
            ),
          },
        ]}
      />
    </QueryState>
  );
}

function Drafts() {
  const { t } = useTranslation();
  const drafts = useFindPlanillas({ queue: 'drafts', pageSize: 10, sort: '-period' });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t('planillas.upload.drafts')}
      </Title>
      <QueryState query={drafts}>
        {() =>
          drafts.data!.items.length ? (
            <Stack gap="xs" data-testid="drafts">
              {drafts.data!.items.map((p) => (
                <Group key={p.id} justify="space-between" wrap="wrap">
                  <Anchor component={Link} to={`/planilla/vista/${p.id}`}>
                    {p.entityName} · <Period value={p.period} />
                  </Anchor>
                  <Group gap="xs">
                    <PlanillaStateBadge state={p.state} />
                    <Text size="sm">
                      {t('planillas.upload.draftSummary', { count: p.lineCount, errors: p.errorCount })} ·{' '}
                      <Money value={p.totalEmployee} />
                    </Text>
                  </Group>
                </Group>
              ))}
            </Stack>
          ) : (
            <Text size="sm" c="dimmed">
              {t('planillas.upload.noDrafts')}
            </Text>
          )
        }
      </QueryState>
    </Card>
  );
}

/**
 * `/planilla/carga`: the ways a planilla comes in — copy the previous period as a draft, a blank draft
 * typed on screen, or a file (template xlsx/csv) validated in the background with its exceptions;
 * confirming writes every row (exceptions marked for correction on screen).
 */
export function UploadPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = useCan();
  const options = usePlanillaOptions();
  const create = useCreatePlanilla();
  const commit = useCommitUpload();
  const discard = useDiscardUpload();
  const entities = options.data?.entities ?? [];
  const [entityId, setEntityId] = useState<string | null>(null);
  const chosenEntity = entityId ?? (entities.length === 1 ? String(entities[0].id) : null);
  const [period, setPeriod] = useState(previousPeriod(thisMonth()));
  const [type, setType] = useState<PlanillaType>('ORDINARIA');
  const [file, setFile] = useState<File | null>(null);
  const [batchId, setBatchId] = useBatchInAddress();
  const [fraction, setFraction] = useState<number | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const batch = usePlanillaUpload(batchId, fraction !== null);
  const open = useOpenPlanillaUploads();
  const current: PlanillaUpload | null = batch.data ?? null;

  useFollowUpload({
    id: batchId,
    setId: setBatchId,
    open: open.data,
    current,
    // The commit job ended while this screen followed it: the planilla opens; or why nothing was saved.
    onCommitEnd: (b) => {
      invalidate();
      if (b.status === 'CONFIRMADO') {
        notifySuccess(t('planillas.upload.committed', { count: b.committedRows }));
        if (b.planillaId) navigate(`/planilla/vista/${b.planillaId}`);
      } else if (b.message) notifyError(new ApiError(409, 'CONFLICT', b.message));
    },
  });
  const periodOk = periodSchema.safeParse(period).success;
  const ready = !!chosenEntity && periodOk;

  if (!can('planilla-upload', 'CREATE')) return <NotAuthorizedPage />;

  const newDraft = (copyPrevious: boolean) => {
    setFailure(null);
    create.mutate(
      { entityId: Number(chosenEntity), period, type, copyPrevious },
      {
        onSuccess: (p) => {
          notifySuccess(copyPrevious ? t('planillas.upload.copied', { count: p.lineCount }) : t('planillas.upload.created'));
          navigate(`/planilla/vista/${p.id}`);
        },
        onError: (err) => (err instanceof ApiError ? setFailure(err) : notifyError(err)),
      },
    );
  };

  const start = async () => {
    if (!file || !ready || !chosenEntity) return;
    const id = crypto.randomUUID();
    setFailure(null);
    setFraction(0);
    try {
      const accepted = await uploadPlanillaFile(file, { id, entityId: chosenEntity, period, type }, setFraction);
      queryClient.setQueryData(planillaKeys.upload(id), accepted);
      setBatchId(id);
    } catch (err) {
      setFailure(err instanceof ApiError ? err : new ApiError(0, 'INTERNAL', t('common.unexpectedError')));
    } finally {
      setFraction(null);
    }
  };

  const discardUpload = () =>
    discard.mutate(current!.id, {
      onSuccess: () => {
        notifySuccess(t('planillas.upload.discarded'));
        setBatchId(null);
        setFile(null);
        void open.refetch();
      },
      onError: notifyError,
    });

  const confirmCommit = () =>
    openConfirm({
      title: t('planillas.upload.confirmTitle'),
      children: (
        <Text size="sm">
          {t('planillas.upload.confirmText', { count: current?.totalRows ?? 0, errors: current?.errorRows ?? 0 })}
        </Text>
      ),
      labels: { confirm: t('planillas.upload.commit'), cancel: t('common.cancel') },
      onConfirm: () =>
        commit.mutate(current!.id, {
          onError: (err) => (err instanceof ApiError ? setFailure(err) : notifyError(err)),
          onSettled: () => void open.refetch(),
        }),
    });

  return (
    <UploadPageFrame
      i18nPrefix="planillas.upload"
      templatePath="/api/planilla-uploads/template"
      description={t('planillas.upload.description')}
      before={
        <>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Select
              label={t('planillas.fields.entity')}
              required
              searchable
              data={entities.map((e) => ({ value: String(e.id), label: `${e.name} (${e.code})` }))}
              value={chosenEntity}
              onChange={setEntityId}
              nothingFoundMessage={t('planillas.upload.noEntities')}
              data-testid="upload-entity"
            />
            <PeriodField
              label={t('planillas.fields.period')}
              description={t('planillas.upload.periodHint')}
              required
              value={period}
              onChange={(p) => setPeriod(p ?? '')}
              data-testid="upload-period"
            />
            <Select
              label={t('planillas.fields.type')}
              data={planillaTypes
                .filter((x) => x !== 'SALARIOS_CAIDOS')
                .map((x) => ({ value: x, label: t(`planillas.types.${x}`) }))}
              value={type}
              onChange={(v) => v && setType(v as PlanillaType)}
              allowDeselect={false}
            />
          </SimpleGrid>
          <Group mt="md">
            <Button
              leftSection={<IconCopy size={16} />}
              disabled={!ready}
              loading={create.isPending && create.variables?.copyPrevious}
              onClick={() => newDraft(true)}
            >
              {t('planillas.upload.copyPrevious', { period: periodOk ? formatPeriod(previousPeriod(period)) : '' })}
            </Button>
            <Button
              variant="default"
              leftSection={<IconFilePlus size={16} />}
              disabled={!ready}
              loading={create.isPending && !create.variables?.copyPrevious}
              onClick={() => newDraft(false)}
            >
              {t('planillas.upload.blank')}
            </Button>
          </Group>
        </>
      }
      file={file}
      onFileChange={(f) => {
        setFile(f);
        setBatchId(null);
        setFailure(null);
      }}
      startDisabled={!ready || current?.status === 'VALIDANDO' || current?.status === 'CONFIRMANDO'}
      fraction={fraction}
      onStart={start}
      failure={failure}
      status={
        <>
          {current?.status === 'VALIDANDO' && current.jobId != null && (
            <Stack mt="md">
              <JobProgress jobId={current.jobId} />
            </Stack>
          )}
          {current?.status === 'CONFIRMANDO' && (
            // The commit is a background job (every line or none): its progress, until it ends.
            <Stack mt="md" gap="xs" data-testid="commit-progress">
              {current.jobId != null && <JobProgress jobId={current.jobId} />}
              <Text size="sm" c="dimmed">
                {t('planillas.upload.commitLeaveHint')}
              </Text>
            </Stack>
          )}
          {current?.status === 'CONFIRMADO' && (
            <Alert color="green" mt="md" data-testid="upload-committed">
              {t('planillas.upload.committed', { count: current.committedRows })}{' '}
              {current.planillaId != null && (
                <Anchor component={Link} to={`/planilla/vista/${current.planillaId}`}>
                  {t('planillas.upload.openPlanilla')}
                </Anchor>
              )}
            </Alert>
          )}
          {current?.status === 'FALLIDO' && (
            <Alert color="red" mt="md" title={t('planillas.upload.failed')}>
              {messageText({ message: current.message ?? '' })}
            </Alert>
          )}
        </>
      }
      results={
        current?.status === 'VALIDADO'
          ? {
              batch: current,
              exceptionsUrl: fillPath('/api/planilla-uploads/{id}/exceptions', { id: current.id }),
              rows: (kind) => <UploadRows id={current.id} kind={kind} />,
              decision: (
                <>
                  {current.message && (
                    // Back to "to confirm" after a commit that did not finish: nothing was saved; why.
                    <Alert color="yellow" data-testid="commit-reopened">
                      {messageText({ message: current.message })}
                    </Alert>
                  )}
                  {current.errorRows > 0 && (
                    <Alert color="orange">{t('planillas.upload.errorsKept', { count: current.errorRows })}</Alert>
                  )}
                  <Group>
                    <Button disabled={current.validRows === 0} loading={commit.isPending} onClick={confirmCommit}>
                      {t('planillas.upload.commit')}
                    </Button>
                    <Button variant="default" loading={discard.isPending} onClick={discardUpload}>
                      {t('planillas.upload.discard')}
                    </Button>
                  </Group>
                </>
              ),
            }
          : null
      }
    >
      <Drafts />
    </UploadPageFrame>
  );
}
