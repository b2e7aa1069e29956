import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The state codes of a contributor, their CUI and their checks against RENAP (contributors, RENAP screens). */
const stateColors: Record<string, string> = {
  ACTIVO: 'green',
  INACTIVO: 'gray',
  FALLECIDO: 'dark',
  PENDIENTE: 'yellow',
  APROBADO: 'green',
  RECHAZADO: 'red',
  COINCIDE: 'green',
  DIFIERE: 'orange',
  NO_ENCONTRADO: 'red',
  SIN_RESPUESTA: 'gray',
  ENCONTRADO: 'green',
  TIEMPO_AGOTADO: 'gray',
  NO_DISPONIBLE: 'gray',
};

/** A state code as a coloured badge with its translated label. */
export function StateBadge({ value }: { value: string | null | undefined }) {
  const { t } = useTranslation();
  if (!value) return null;
  return (
    // Tinted background, body-colour text: legible (AA) whatever the hue, light or dark.
    <Badge color={stateColors[value] ?? 'gray'} variant="light" c="var(--mantine-color-text)">
      {t(`contributors.states.${value}`, { defaultValue: value })}
    </Badge>
  );
}
