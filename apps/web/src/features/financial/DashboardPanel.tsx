import { Card, SimpleGrid, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Money } from '../../components/Money.tsx';
import { MoneyByMonth } from '../../components/MoneyByMonth.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { useDashboard } from './api.ts';

/** Collected per month and how much came through agreements (chart + exact table), agreements by state, arrears. */
export function DashboardPanel() {
  const { t } = useTranslation();
  const q = useDashboard();
  const dsh = q.data;
  return (
    <QueryState query={q}>
      {() => (
        <SimpleGrid cols={{ base: 1, lg: 2 }} data-testid="collection-dashboard">
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              {t('financial.dash.monthly')}
            </Title>
            <MoneyByMonth
              rows={dsh!.months}
              period={(m) => m.month}
              periodLabel={t('financial.period')}
              amounts={[
                { key: 'collected', label: t('financial.dash.collected'), value: (m) => m.collected, color: 'teal.6' },
                {
                  key: 'agreements',
                  label: t('financial.dash.throughAgreements'),
                  value: (m) => m.throughAgreements,
                  color: 'violet.6',
                },
              ]}
            />
          </Card>
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              {t('financial.dash.agreements')}
            </Title>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('financial.status')}</Table.Th>
                  <Table.Th ta="right">{t('financial.dash.count')}</Table.Th>
                  <Table.Th ta="right">{t('financial.dash.debt')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {dsh!.agreements.map((a) => (
                  <Table.Tr key={a.state}>
                    <Table.Td>{t(`agreements.states.${a.state}`)}</Table.Td>
                    <Table.Td ta="right">{a.count}</Table.Td>
                    <Table.Td ta="right">
                      <Money value={a.debt} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Text mt="md">
              {t('financial.dash.overdue')}: <Money value={dsh!.overdue} />
            </Text>
            <Text>
              {t('financial.dash.inAgreements')}: <Money value={dsh!.inAgreements} />
            </Text>
          </Card>
        </SimpleGrid>
      )}
    </QueryState>
  );
}
