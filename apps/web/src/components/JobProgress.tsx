import { isJobFinished, type Job, type JobState } from '@aporta/domain/jobs';
import { Alert, Anchor, Badge, Button, Card, CloseButton, Group, Progress, Stack, Text } from '@mantine/core';
import { IconDownload, IconPlayerStop } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, apiUrl } from '../lib/api.ts';
import { openConfirm } from '../lib/confirm.ts';
import { downloadFile } from '../lib/download.ts';
import { formatNumber } from '../lib/format.ts';
import { useCancelJob, useJob } from '../lib/jobs.ts';
import { errorText, notifyError } from '../lib/notify.ts';
import { SpanishDocumentHint } from './SpanishDocumentHint.tsx';

const stateColors: Record<JobState, string> = {
  QUEUED: 'gray',
  RUNNING: 'blue',
  DONE: 'green',
  FAILED: 'red',
  CANCELLED: 'orange',
};

export function JobStateBadge({ state }: { state: JobState }) {
  const { t } = useTranslation();
  return (
    // Tinted background, body-colour text: legible (AA) whatever the hue, light or dark.
    <Badge color={stateColors[state]} variant="light" c="var(--mantine-color-text)">
      {t(`jobs.states.${state}`)}
    </Badge>
  );
}

/** "1,234 de 5,000" (or just the count while the total is unknown). */
export function JobCount({ job }: { job: Pick<Job, 'done' | 'total'> }) {
  const { t, i18n } = useTranslation();
  const done = formatNumber(job.done, { language: i18n.language });
  return <>{job.total == null ? done : t('jobs.count', { done, total: formatNumber(job.total, { language: i18n.language }) })}</>;
}

export const jobPercent = (job: Pick<Job, 'done' | 'total' | 'state'>): number =>
  job.state === 'DONE' ? 100 : job.total ? Math.min(100, Math.round((job.done / job.total) * 100)) : 0;

/** Cancel (with confirmation) and download buttons of a job, as the user may use them. */
export function JobActions({ job, size = 'sm' }: { job: Job; size?: 'xs' | 'sm' }) {
  const { t } = useTranslation();
  const cancel = useCancelJob();
  const [downloading, setDownloading] = useState(false);
  const askCancel = () =>
    openConfirm({
      title: t('jobs.cancelTitle'),
      children: <Text size="sm">{t('jobs.cancelText', { title: job.title })}</Text>,
      labels: { confirm: t('jobs.cancel'), cancel: t('jobs.keepRunning') },
      confirmProps: { color: 'red' },
      onConfirm: () => cancel.mutate(job.id, { onError: notifyError }),
    });
  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile(apiUrl('/api/jobs/{id}/file', { path: { id: job.id } }));
    } catch (err) {
      notifyError(err);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Group gap="xs" wrap="nowrap">
      {job.canCancel && (
        <Button
          size={size}
          variant="default"
          color="red"
          leftSection={<IconPlayerStop size={16} />}
          loading={cancel.isPending}
          onClick={askCancel}
        >
          {t('jobs.cancel')}
        </Button>
      )}
      {job.hasFile && (
        <>
          <Button size={size} leftSection={<IconDownload size={16} />} loading={downloading} onClick={download}>
            {t('jobs.download')}
          </Button>
          <SpanishDocumentHint />
        </>
      )}
    </Group>
  );
}

/**
 * The progress of a long action (an export, an import…) run as a background job: a bar with done/total
 * and the phase, cancel with confirmation, the download when it is done, the reason when it failed. It
 * polls the job, so the user can leave the page and come back (the screen remembers the job id).
 */
export function JobProgress({ jobId, onDismiss }: { jobId: number; onDismiss?: () => void }) {
  const { t } = useTranslation();
  const query = useJob(jobId);
  const job = query.data;
  if (query.isError) {
    const gone = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Alert
        color={gone ? 'gray' : 'red'}
        withCloseButton={!!onDismiss}
        onClose={onDismiss}
        closeButtonLabel={t('common.close')}
        mb="md"
      >
        {gone ? t('jobs.gone') : errorText(query.error)}
        {!gone && (
          <Anchor component="button" ms="xs" onClick={() => query.refetch()}>
            {t('ui.retry')}
          </Anchor>
        )}
      </Alert>
    );
  }
  const finished = job ? isJobFinished(job.state) : false;
  return (
    <Card withBorder mb="md" aria-busy={!finished} data-testid="job-progress">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Group gap="sm">
            <Text fw={600}>{job?.title ?? t('ui.loading')}</Text>
            {job && <JobStateBadge state={job.state} />}
          </Group>
          {onDismiss && finished && <CloseButton aria-label={t('common.close')} onClick={onDismiss} />}
        </Group>
        {job && (
          <>
            <Progress
              value={job.state === 'QUEUED' || (job.state === 'RUNNING' && !job.total) ? 100 : jobPercent(job)}
              striped={!finished}
              animated={!finished}
              color={stateColors[job.state]}
              aria-label={t('jobs.progress')}
              size="lg"
            />
            <Group justify="space-between" gap="xs">
              <Text size="sm" c="dimmed" aria-live="polite">
                {job.phase || t(`jobs.states.${job.state}`)}
                {job.total != null || job.done > 0 ? ' · ' : ''}
                {(job.total != null || job.done > 0) && <JobCount job={job} />}
              </Text>
              <Anchor component={Link} to="/procesos" size="sm">
                {t('jobs.seeAll')}
              </Anchor>
            </Group>
            {job.state === 'FAILED' && job.error && (
              <Alert color="red" title={t('jobs.failed')}>
                {job.error}
              </Alert>
            )}
            <JobActions job={job} />
          </>
        )}
      </Stack>
    </Card>
  );
}
