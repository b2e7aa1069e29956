import type { WorkQueueList } from '@aporta/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { homeKeys } from './keys.ts';

export const useHomeQueues = () =>
  useQuery({
    queryKey: homeKeys.queues(),
    queryFn: ({ signal }) => api<WorkQueueList>('/api/home/queues', { signal }),
    staleTime: 15_000,
  });
