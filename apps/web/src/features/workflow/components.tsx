import type { FormVersionState } from '@aporta/domain/workflow';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime } from '../../lib/format.ts';

const versionColors: Record<FormVersionState, string> = { BORRADOR: 'gray', PUBLICADA: 'green', RETIRADA: 'orange' };

export function VersionBadge({ state }: { state: FormVersionState }) {
  const { t } = useTranslation();
  return (
    <Badge variant="outline" color={versionColors[state]}>
      {t(`workflow.versionStates.${state}`)}
    </Badge>
  );
}

/** A request's state: closed ones green, overdue red, the rest blue. */
export function RequestStateBadge({ label, final, overdue }: { label: string; final: boolean; overdue: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge variant="outline" color={final ? 'green' : overdue ? 'red' : 'blue'}>
      {label}
      {overdue && !final ? t('workflow.overdueSuffix') : ''}
    </Badge>
  );
}

export const day = (iso: string | null | undefined) => (iso ? formatDate(iso) : '—');
export const moment = (iso: string | null | undefined) => (iso ? formatDateTime(iso) : '—');
