/**
 * Background jobs as every screen uses them: starting one, following its progress, cancelling it, and
 * remembering the job a screen started. The Procesos screen (features/jobs) lists them.
 */
import { isJobFinished } from '@aporta/domain/jobs';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { type ApiAnswer, type ApiPath, api, fillPath, type QueryRecord } from './api.ts';

/** Query keys of the Procesos module (background jobs). */
export const jobKeys = {
  all: ['jobs'] as const,
  one: (id: number | null) => [...jobKeys.all, 'one', id] as const,
  list: (params: unknown) => [...jobKeys.all, 'list', params] as const,
};

/** How often a running job is asked for its progress. */
export const JOB_POLL_MS = 1000;

/** One job, polled while it is queued or running; polling stops once it ends. */
export function useJob(id: number | null) {
  return useQuery({
    queryKey: jobKeys.one(id),
    queryFn: ({ signal }) => api.get('/api/jobs/{id}', { path: { id: id ?? 0 }, signal }),
    enabled: id !== null,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data && isJobFinished(q.state.data.state) ? false : JOB_POLL_MS),
  });
}

export function useCancelJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post('/api/jobs/{id}/cancel', { path: { id } }),
    onSuccess: (job) => {
      client.setQueryData(jobKeys.one(job.id), job);
      void client.invalidateQueries({ queryKey: jobKeys.all });
    },
  });
}

/** Every route that starts a job: a POST answering `{ jobId }` (an action's "…-jobs" endpoint). */
export type JobPath = {
  [P in ApiPath<'post'>]: ApiAnswer<P, 'post'> extends { jobId: number } ? P : never;
}[ApiPath<'post'>];

/**
 * Starts a job with a POST to `path` (its `{param}`s filled from `params`) and answers its id. The
 * query is the list's or the form's own, passed as it is: the route validates it.
 */
export const startJob = (path: JobPath, query?: QueryRecord, params?: Record<string, string | number>) =>
  (api.post as (p: string, o: object) => Promise<{ jobId: number }>)(fillPath(path, params), { query }).then((r) => r.jobId);

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
