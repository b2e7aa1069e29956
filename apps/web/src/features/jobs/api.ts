/** The Procesos screen's list of jobs; following and cancelling one job is in lib/jobs.ts. */
import { isJobFinished, type Job } from '@aporta/domain/jobs';
import type { ListResponse } from '@aporta/domain/list';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { JOB_POLL_MS, jobKeys } from '../../lib/jobs.ts';

export type JobListParams = Record<string, string | number | undefined>;

/** "Procesos": polled every few seconds while any listed job is still active. */
export function useFindJobs(params: JobListParams) {
  return useQuery({
    queryKey: jobKeys.list(params),
    queryFn: ({ signal }) => api<ListResponse<Job>>('/api/jobs', { query: params, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.items.some((j) => !isJobFinished(j.state)) ? 2 * JOB_POLL_MS : false),
  });
}
