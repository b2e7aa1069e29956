import { type Job, jobStates } from '@aporta/domain/jobs';
import { Progress, SegmentedControl, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { JobActions, JobCount, JobStateBadge, jobPercent } from '../../components/JobProgress.tsx';
import { type ListColumn, type ListFilter, ListPage, type ListParams } from '../../components/ListPage.tsx';
import { useCurrentUser } from '../../lib/auth.ts';
import type { FieldControlProps } from '../../lib/field-types.tsx';
import { useCan } from '../../lib/useCan.ts';
import { useFindJobs } from './api.ts';

/** The list's page and page size, numbers from its state. */
const pageValue = (v: ListParams[string]) => (typeof v === 'number' || typeof v === 'string' ? v : undefined);

/** The list's rows: one's own jobs unless "everyone" is chosen (the API refuses it without the permission). */
const useJobRows = (params: ListParams) =>
  useFindJobs({
    scope: params.scope === 'all' ? 'all' : 'mine',
    state: jobStates.find((s) => s === params.state),
    page: pageValue(params.page),
    pageSize: pageValue(params.pageSize),
  });

/**
 * "Procesos": the background jobs the user started (exports, imports…) with live progress (the list is
 * polled while any job on it is active), cancel and download; everyone's for holders of the Procesos
 * permission. Open to every signed-in user.
 */
export function JobsPage() {
  const { t } = useTranslation();
  const can = useCan();
  const { data: me } = useCurrentUser();
  const mayReadAll = can('jobs', 'READ');
  const filters: ListFilter[] = [
    ...(mayReadAll
      ? [
          {
            name: 'scope',
            label: t('jobs.whose'),
            kind: 'enum' as const,
            render: (p: FieldControlProps) => (
              <SegmentedControl
                aria-label={String(p.label)}
                value={p.value === 'all' ? 'all' : 'mine'}
                onChange={p.onChange}
                data={[
                  { value: 'mine', label: t('jobs.mine') },
                  { value: 'all', label: t('jobs.everyone') },
                ]}
              />
            ),
          },
        ]
      : []),
    {
      name: 'state',
      label: t('jobs.state'),
      kind: 'enum',
      options: jobStates.map((s) => ({ value: s, label: t(`jobs.states.${s}`) })),
    },
  ];
  const columns: ListColumn<Job>[] = [
    { accessor: 'id', title: 'N.º', width: 70 },
    {
      accessor: 'title',
      title: t('jobs.what'),
      render: (j) => (
        <Stack gap={2}>
          <Text size="sm" fw={500}>
            {j.title}
          </Text>
          {j.userEmail && j.userEmail !== me?.email && (
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
    { accessor: 'createdAt', title: t('jobs.started'), kind: 'datetime' },
    { accessor: 'finishedAt', title: t('jobs.finished'), kind: 'datetime' },
    { accessor: 'actions', title: '', render: (j) => <JobActions job={j} size="xs" /> },
  ];
  return (
    <ListPage<Job>
      title={t('jobs.title')}
      description={t('jobs.intro')}
      defaultSort="-id"
      // Newest first, always: the API takes no other order.
      sortParam={() => undefined}
      search={false}
      filters={filters}
      columns={columns}
      useRows={useJobRows}
      emptyText={t('jobs.empty')}
    />
  );
}
