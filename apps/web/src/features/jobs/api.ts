import { isJobFinished, type Job, type JobStarted } from '@aporta/domain/jobs';
import type { ListResponse } from '@aporta/domain/list';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { api, type RequestOptions } from '../../lib/api.ts';
import { jobKeys } from './keys.ts';

/** How often a running job is asked for its progress. */
const POLL_MS = 1000;

export type JobListParams = Record<string, string | number | undefined>;

/** One job, polled while it is queued or running; polling stops once it ends. */
export function useJob(id: number | null) {
  return useQuery({
    queryKey: jobKeys.one(id),
    queryFn: ({ signal }) => api<Job>(`/api/jobs/${id}`, { signal }),
    enabled: id !== null,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data && isJobFinished(q.state.data.state) ? false : POLL_MS),
  });
}

/** "Procesos": polled every few seconds while any listed job is still active. */
export function useFindJobs(params: JobListParams) {
  return useQuery({
    queryKey: jobKeys.list(params),
    queryFn: ({ signal }) => api<ListResponse<Job>>('/api/jobs', { query: params, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.items.some((j) => !isJobFinished(j.state)) ? 2 * POLL_MS : false),
  });
}

export function useCancelJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<Job>(`/api/jobs/${id}/cancel`, { method: 'POST' }),
    onSuccess: (job) => {
      client.setQueryData(jobKeys.one(job.id), job);
      void client.invalidateQueries({ queryKey: jobKeys.all });
    },
  });
}

/** Starts a job with a POST to `path` (an action's "…-jobs" endpoint) and answers its id. */
export const startJob = (path: string, query?: RequestOptions['query']) =>
  api<JobStarted>(path, { method: 'POST', query }).then((r) => r.jobId);

const storageKey = (key: string) => `aporta.job.${key}`;

/**
 * The job an action of a screen started, remembered in the browser (localStorage), so a user who
 * leaves the page and comes back — or reloads it — finds its progress again.
 */
export function useTrackedJob(key: string): [number | null, (id: number | null) => void] {
  const [id, setIdState] = useState<number | null>(() => {
    const v = Number(globalThis.localStorage?.getItem(storageKey(key)));
    return Number.isInteger(v) && v > 0 ? v : null;
  });
  const setId = useCallback(
    (next: number | null) => {
      if (next === null) localStorage.removeItem(storageKey(key));
      else localStorage.setItem(storageKey(key), String(next));
      setIdState(next);
    },
    [key],
  );
  return [id, setId];
}
