/** The Procesos screen's list of jobs; following and cancelling one job is in lib/jobs.ts. */
import { isJobFinished } from '@aporta/domain/jobs';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ApiQuery, api } from '../../lib/api.ts';
import { JOB_POLL_MS } from '../../lib/jobs.ts';
import { jobKeys } from './keys.ts';

/** "Procesos": polled every few seconds while any listed job is still active. */
export function useFindJobs(params: ApiQuery<'/api/jobs'>) {
  return useQuery({
    queryKey: jobKeys.list(params),
    queryFn: ({ signal }) => api.get('/api/jobs', { query: params, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.items.some((j) => !isJobFinished(j.state)) ? 2 * JOB_POLL_MS : false),
  });
}
