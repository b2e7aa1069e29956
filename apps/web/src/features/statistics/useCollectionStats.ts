import type { CollectionStats } from '@aporta/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { statisticsKeys } from './keys.ts';

/** The collection panels' figures: declared, ordered and collected per month, overdue by region. */
export const useCollectionStats = () =>
  useQuery({ queryKey: statisticsKeys.collection(), queryFn: () => api<CollectionStats>('/api/statistics/collection') });
