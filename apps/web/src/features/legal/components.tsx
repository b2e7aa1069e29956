import type { LegalStage } from '@aporta/domain';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatIsoDate } from '../../lib/dates.ts';

const colors: Record<LegalStage, string> = {
  ABIERTO: 'blue',
  REQUERIMIENTO: 'yellow',
  DEMANDA: 'red',
  CONVENIO: 'violet',
  CERRADO: 'gray',
};

export function StageBadge({ stage }: { stage: LegalStage }) {
  const { t } = useTranslation();
  return (
    <Badge color={colors[stage]} variant="light" c="var(--mantine-color-text)" data-testid="case-stage">
      {t(`legal.stages.${stage}`)}
    </Badge>
  );
}

export const day = (iso: string | null) => formatIsoDate(iso) || '—';
