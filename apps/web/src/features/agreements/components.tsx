import { type AgreementOrder, type AgreementState, formatPaymentReference } from '@aporta/domain';
import { Badge, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Money, Period } from '../../components/Money.tsx';

const colors: Record<AgreementState, string> = { VIGENTE: 'blue', CUMPLIDO: 'teal', INCUMPLIDO: 'red', ANULADO: 'dark' };

export function AgreementStateBadge({ state }: { state: AgreementState }) {
  const { t } = useTranslation();
  return (
    <Badge color={colors[state]} variant="light" c="var(--mantine-color-text)" data-testid="agreement-state">
      {t(`agreements.states.${state}`)}
    </Badge>
  );
}

/**
 * The overdue orders an agreement consolidates (or would): reference, kind, period, principal and interest due,
 * and the charge an earlier agreement's instalment still owes (a column only when one does).
 */
export function OrdersTable({ orders, testId }: { orders: AgreementOrder[]; testId: string }) {
  const { t } = useTranslation();
  const withCharge = orders.some((o) => o.chargeDue !== '0.00');
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('agreements.fields.reference')}</Table.Th>
            <Table.Th>{t('agreements.fields.kind')}</Table.Th>
            <Table.Th>{t('agreements.fields.period')}</Table.Th>
            <Table.Th ta="right">{t('agreements.fields.principal')}</Table.Th>
            <Table.Th ta="right">{t('agreements.fields.interest')}</Table.Th>
            {withCharge && <Table.Th ta="right">{t('agreements.fields.charge')}</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {orders.map((o) => (
            <Table.Tr key={o.orderId}>
              <Table.Td ff="monospace">{formatPaymentReference(o.reference)}</Table.Td>
              <Table.Td>{t(`payments.kinds.${o.kind}`)}</Table.Td>
              <Table.Td>
                <Period value={o.period} />
              </Table.Td>
              <Table.Td ta="right">
                <Money value={o.principalDue} />
              </Table.Td>
              <Table.Td ta="right">
                <Money value={o.interestDue} />
              </Table.Td>
              {withCharge && (
                <Table.Td ta="right">
                  <Money value={o.chargeDue} />
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
