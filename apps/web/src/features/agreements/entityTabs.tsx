import { Anchor, Button, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Money } from '../../components/Money.tsx';
import type { EntityTab } from '../../lib/entityTabs.ts';
import { errorText } from '../../lib/notify.ts';
import { useCan } from '../../lib/useCan.ts';
import { useAgreements } from './api.ts';
import { AgreementStateBadge } from './components.tsx';

/** A municipal entity's agreements (the latest 50), with a link to a new one. Shown as a tab of its page. */
export function EntityAgreements({ entityId }: { entityId: number }) {
  const { t } = useTranslation();
  const can = useCan();
  const q = useAgreements({ entityId: String(entityId), pageSize: 50 });
  const items = q.data?.items ?? [];
  return (
    <Stack data-testid="entity-agreements">
      {can('payment-agreements', 'CREATE') && (
        <Button component={Link} to={`/planilla/convenios-pago/nuevo?entityId=${entityId}`} variant="default" w="fit-content">
          {t('agreements.new')}
        </Button>
      )}
      {q.isError ? (
        <Text c="red">{errorText(q.error)}</Text>
      ) : !items.length ? (
        <Text c="dimmed">{q.isPending ? t('agreements.loading') : t('agreements.noneForEntity')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('agreements.fields.number')}</Table.Th>
                <Table.Th>{t('agreements.fields.state')}</Table.Th>
                <Table.Th ta="right">{t('agreements.fields.debt')}</Table.Th>
                <Table.Th ta="right">{t('agreements.fields.balance')}</Table.Th>
                <Table.Th ta="right">{t('agreements.fields.overdue')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((a) => (
                <Table.Tr key={a.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/planilla/convenios-pago/${a.id}`}>
                      {a.number}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <AgreementStateBadge state={a.state} />
                  </Table.Td>
                  <Table.Td ta="right">
                    <Money value={a.debt} />
                  </Table.Td>
                  <Table.Td ta="right">
                    <Money value={a.balance} />
                  </Table.Td>
                  <Table.Td ta="right">{a.overdueInstalments}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

/** The entity's page gains its agreements. */
export const agreementEntityTabs: readonly EntityTab[] = [
  {
    value: 'agreements',
    labelKey: 'agreements.entityTab',
    order: 10,
    permission: { resource: 'payment-agreements', action: 'READ' },
    render: (entityId) => <EntityAgreements entityId={entityId} />,
  },
];
