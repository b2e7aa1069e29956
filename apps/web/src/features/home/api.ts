import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { homeKeys } from './keys.ts';

/** The user's work queues: what waits in each module, within the user's scope. */
export const useHomeQueues = () =>
  useQuery({
    queryKey: homeKeys.queues(),
    queryFn: ({ signal }) => api.get('/api/home/queues', { signal }),
    staleTime: 15_000,
  });
