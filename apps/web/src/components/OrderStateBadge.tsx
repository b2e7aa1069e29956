import type { OrderShownState } from '@aporta/domain';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A payment order's state as a coloured badge (payments, agreements' schedules, an entity's orders). */
const orderColors: Record<OrderShownState, string> = {
  EMITIDA: 'blue',
  PAGADA_PARCIAL: 'yellow',
  VENCIDA: 'red',
  PAGADA: 'teal',
  ANULADA: 'dark',
  CONVENIDA: 'violet',
};

export function OrderStateBadge({ state }: { state: OrderShownState }) {
  const { t } = useTranslation();
  return (
    <Badge color={orderColors[state]} variant="light" c="var(--mantine-color-text)" data-testid="order-state">
      {t(`payments.orderStates.${state}`)}
    </Badge>
  );
}
