import type { ArrearsRow } from '@aporta/domain';
import { useNavigate } from 'react-router';
import { showApiError } from '../../lib/form-errors.ts';
import { useOpenCaseMutation } from '../../lib/legalCases.ts';
import { useCan } from '../../lib/useCan.ts';

/**
 * Opening a legal case from a ranking row, in one click: opens the case for the row's entity and goes to
 * it. Null without legal-module CREATE (the ranking then shows no button).
 */
export function useOpenCase(): ((row: ArrearsRow) => void) | null {
  const can = useCan();
  const navigate = useNavigate();
  const open = useOpenCaseMutation();
  if (!can('legal-module', 'CREATE')) return null;
  return (row) =>
    open.mutate(row.entityId, {
      onSuccess: (c) => navigate(`/contributors/legal-module/${c.id}`),
      onError: (err) => showApiError(err),
    });
}
