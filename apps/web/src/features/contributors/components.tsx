import type { CuiApproval } from '@aporta/domain';
import { Badge } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ListColumn } from '../../components/ListPage.tsx';
import { FieldCell } from '../../lib/field-types.tsx';
import { formatCui } from '../../lib/format.ts';

// dir="ltr" isolates the digit groups, so an Arabic (right-to-left) page never shows them reversed.
export const Cui = ({ value }: { value: string }) => (
  <span dir="ltr" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
    {formatCui(value)}
  </span>
);

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

/**
 * The columns of a CUI request, in order: when, kind, proposed CUI, who asked, state. The approvals list
 * and a contributor's requests tab add their own around them (the person; who decided and why).
 */
export const cuiRequestColumns = (
  t: TFunction,
): Record<'requestedAt' | 'kind' | 'proposedCui' | 'requestedBy' | 'state', ListColumn<CuiApproval>> => ({
  requestedAt: {
    accessor: 'requestedAt',
    title: t('contributors.approvals.requestedAt'),
    render: (r) => <FieldCell kind="datetime" value={r.requestedAt} />,
  },
  kind: { accessor: 'kind', title: t('contributors.approvals.kind'), render: (r) => t(`contributors.approvals.kinds.${r.kind}`) },
  proposedCui: {
    accessor: 'proposedCui',
    title: t('contributors.approvals.proposedCui'),
    render: (r) => <FieldCell kind="cui" value={r.proposedCui} />,
  },
  requestedBy: { accessor: 'requestedByEmail', title: t('contributors.approvals.requestedBy') },
  state: { accessor: 'state', title: t('contributors.fields.state'), render: (r) => <StateBadge value={r.state} /> },
});
