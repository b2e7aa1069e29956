import { type AgreementInstalment, formatPaymentReference } from '@aporta/domain';
import { Anchor, Badge, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatIsoDate } from '../lib/dates.ts';
import { Money } from './Money.tsx';
import { OrderStateBadge } from './OrderStateBadge.tsx';

/** A schedule: simulated (no orders yet) or in force (each line an order, linked, with what was paid). */
export function ScheduleTable({
  lines,
  testId = 'schedule',
}: {
  lines: (Pick<AgreementInstalment, 'number' | 'dueDate' | 'amount'> & Partial<AgreementInstalment>)[];
  testId?: string;
}) {
  const { t } = useTranslation();
  const issued = lines.some((l) => l.orderId);
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('agreements.fields.instalment')}</Table.Th>
            <Table.Th>{t('agreements.fields.dueDate')}</Table.Th>
            {issued && <Table.Th>{t('agreements.fields.reference')}</Table.Th>}
            <Table.Th ta="right">{t('agreements.fields.amount')}</Table.Th>
            {issued && <Table.Th ta="right">{t('agreements.fields.paid')}</Table.Th>}
            {issued && <Table.Th ta="right">{t('agreements.fields.balance')}</Table.Th>}
            {issued && <Table.Th>{t('agreements.fields.state')}</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((l) => (
            <Table.Tr key={`${l.orderId ?? ''}-${l.number}`}>
              <Table.Td>{l.number === 0 ? t('agreements.downPayment') : l.number}</Table.Td>
              <Table.Td>{formatIsoDate(l.dueDate)}</Table.Td>
              {issued && (
                <Table.Td>
                  <Anchor component={Link} to={`/ordenes-pago/${l.orderId}`} ff="monospace" size="sm">
                    {formatPaymentReference(l.reference ?? '')}
                  </Anchor>
                </Table.Td>
              )}
              <Table.Td ta="right">
                <Money value={l.amount} />
              </Table.Td>
              {issued && (
                <Table.Td ta="right">
                  <Money value={l.paid} />
                </Table.Td>
              )}
              {issued && (
                <Table.Td ta="right">
                  <Money value={l.balance} />
                </Table.Td>
              )}
              {issued && (
                <Table.Td>
                  {l.state === 'REEMPLAZADA' ? (
                    <Badge color="gray" variant="light" c="var(--mantine-color-text)">
                      {t('agreements.replaced')}
                    </Badge>
                  ) : l.state ? (
                    <OrderStateBadge state={l.state} />
                  ) : null}
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
