import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { statisticsKeys } from './keys.ts';

/** Every panel the server offers this user. */
export function useStatistics() {
  return useQuery({ queryKey: statisticsKeys.all, queryFn: () => api.get('/api/statistics') });
}

/** The collection panels' figures: declared, ordered and collected per month, overdue by region. */
export const useCollectionStats = () =>
  useQuery({ queryKey: statisticsKeys.collection(), queryFn: () => api.get('/api/statistics/collection') });
