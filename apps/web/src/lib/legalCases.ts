import { useMutation } from '@tanstack/react-query';
import { api } from './api.ts';
import { queryClient } from './query.ts';

/**
 * Opening a legal collection case for a municipal entity, from the legal screens and from the financial
 * ranking; and what a change to a case refreshes (the legal lists, the financial figures, the home queues).
 */
export const invalidateLegalCases = () => {
  void queryClient.invalidateQueries({ queryKey: ['legal'] });
  void queryClient.invalidateQueries({ queryKey: ['financial'] });
  void queryClient.invalidateQueries({ queryKey: ['home'] });
};

export const useOpenCaseMutation = () =>
  useMutation({
    mutationFn: (entityId: number) => api.post('/api/legal/cases', { body: { entityId } }),
    onSuccess: invalidateLegalCases,
  });
