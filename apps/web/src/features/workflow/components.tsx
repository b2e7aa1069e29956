import type { FormVersionState } from '@aporta/domain/workflow';
import { Badge } from '@mantine/core';
import { formatDate, formatDateTime } from '../../lib/format.ts';

const versionColors: Record<FormVersionState, string> = { BORRADOR: 'gray', PUBLICADA: 'green', RETIRADA: 'orange' };
const versionLabels: Record<FormVersionState, string> = { BORRADOR: 'Borrador', PUBLICADA: 'Publicada', RETIRADA: 'Retirada' };

export function VersionBadge({ state }: { state: FormVersionState }) {
  return (
    <Badge variant="outline" color={versionColors[state]}>
      {versionLabels[state]}
    </Badge>
  );
}

/** A request's state: closed ones green, overdue red, the rest blue. */
export function RequestStateBadge({ label, final, overdue }: { label: string; final: boolean; overdue: boolean }) {
  return (
    <Badge variant="outline" color={final ? 'green' : overdue ? 'red' : 'blue'}>
      {label}
      {overdue && !final ? ' · vencida' : ''}
    </Badge>
  );
}

export const day = (iso: string | null | undefined) => (iso ? formatDate(iso) : '—');
export const moment = (iso: string | null | undefined) => (iso ? formatDateTime(iso) : '—');
