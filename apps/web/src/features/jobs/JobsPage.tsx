import 'mantine-datatable/styles.layer.css';
import { type Job, jobStates } from '@aporta/domain/jobs';
import { Card, Group, Progress, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { JobActions, JobCount, JobStateBadge, jobPercent } from '../../components/JobProgress.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useCan } from '../../lib/useCan.ts';
import { useListState } from '../../lib/useListState.ts';
import { useFindJobs } from './api.ts';

/**
 * "Procesos": the background jobs the user started (exports, imports…) with live progress, cancel and
 * download; everyone's for holders of the Procesos permission. Open to every signed-in user.
 */
export function JobsPage() {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const mayReadAll = can('jobs', 'READ');
  const [scope, setScope] = useState<'mine' | 'all'>('mine');
  const [state, setState] = useState<string | null>(null);
  const list = useListState<Job>('-id');
  const all = mayReadAll && scope === 'all';
  const found = useFindJobs({ scope: all ? 'all' : 'mine', state: state ?? undefined, ...list.pageQuery });
  const { data, isFetching } = found;

  return (
    <>
      <PageHeader title={t('jobs.title')} mb="md" />
      <Text c="dimmed" size="sm" mb="md">
        {t('jobs.intro')}
      </Text>
      <Card withBorder mb="md">
        <Group align="end" wrap="wrap">
          {mayReadAll && (
            <SegmentedControl
              aria-label={t('jobs.whose')}
              value={scope}
              onChange={(v) => {
                setScope(v as 'mine' | 'all');
                list.resetPage();
              }}
              data={[
                { value: 'mine', label: t('jobs.mine') },
                { value: 'all', label: t('jobs.everyone') },
              ]}
            />
          )}
          <Select
            label={t('jobs.state')}
            placeholder={t('jobs.anyState')}
            data={jobStates.map((s) => ({ value: s, label: t(`jobs.states.${s}`) }))}
            clearable
            value={state}
            onChange={(v) => {
              setState(v);
              list.resetPage();
            }}
            miw={180}
          />
        </Group>
      </Card>
      <QueryState query={found} list>
        <DataTable<Job>
          withTableBorder
          borderRadius="sm"
          striped
          minHeight={180}
          records={data?.items ?? []}
          totalRecords={data?.total ?? 0}
          {...list.tableProps}
          fetching={isFetching && !data}
          noRecordsText={t('jobs.empty')}
          idAccessor="id"
          columns={[
            { accessor: 'id', title: 'N.º', width: 70 },
            {
              accessor: 'title',
              title: t('jobs.what'),
              render: (j) => (
                <Stack gap={2}>
                  <Text size="sm" fw={500}>
                    {j.title}
                  </Text>
                  {all && (
                    <Text size="xs" c="dimmed">
                      {j.userEmail}
                    </Text>
                  )}
                </Stack>
              ),
            },
            { accessor: 'state', title: t('jobs.state'), render: (j) => <JobStateBadge state={j.state} /> },
            {
              accessor: 'done',
              title: t('jobs.progress'),
              width: 220,
              render: (j) => (
                <Stack gap={4}>
                  <Progress value={jobPercent(j)} size="sm" aria-label={t('jobs.progress')} />
                  <Text size="xs" c="dimmed">
                    {j.state === 'FAILED' && j.error ? j.error : j.phase}
                    {(j.total != null || j.done > 0) && ' · '}
                    {(j.total != null || j.done > 0) && <JobCount job={j} />}
                  </Text>
                </Stack>
              ),
            },
            { accessor: 'createdAt', title: t('jobs.started'), render: (j) => formatDateTime(j.createdAt, i18n.language) },
            {
              accessor: 'finishedAt',
              title: t('jobs.finished'),
              render: (j) => (j.finishedAt ? formatDateTime(j.finishedAt, i18n.language) : '—'),
            },
            { accessor: 'actions', title: '', render: (j) => <JobActions job={j} size="xs" /> },
          ]}
        />
      </QueryState>
    </>
  );
}
