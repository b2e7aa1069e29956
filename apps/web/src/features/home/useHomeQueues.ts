import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { homeKeys } from './keys.ts';

/** One work queue of the home page, as the API answers it (counted within the user's scope). */
export interface WorkQueue {
  id: string;
  title: string;
  link: string;
  count: number;
}

export const useHomeQueues = () =>
  useQuery({
    queryKey: homeKeys.queues(),
    queryFn: ({ signal }) => api<{ items: WorkQueue[] }>('/api/home/queues', { signal }),
    staleTime: 15_000,
  });
