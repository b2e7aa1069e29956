import { BarChart } from '@mantine/charts';
import { Card, SimpleGrid, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../components/QueryState.tsx';
import { Money, Period } from '../planillas/components.tsx';
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
            <BarChart
              h={240}
              data={dsh!.months.map((m) => ({
                month: m.month,
                collected: Number(m.collected),
                agreements: Number(m.throughAgreements),
              }))}
              dataKey="month"
              series={[
                { name: 'collected', label: t('financial.dash.collected'), color: 'teal.6' },
                { name: 'agreements', label: t('financial.dash.throughAgreements'), color: 'violet.6' },
              ]}
              withLegend
            />
            <Table.ScrollContainer minWidth={420} mt="sm">
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('financial.period')}</Table.Th>
                    <Table.Th ta="right">{t('financial.dash.collected')}</Table.Th>
                    <Table.Th ta="right">{t('financial.dash.throughAgreements')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {dsh!.months.map((m) => (
                    <Table.Tr key={m.month}>
                      <Table.Td>
                        <Period value={m.month} />
                      </Table.Td>
                      <Table.Td ta="right">
                        <Money value={m.collected} />
                      </Table.Td>
                      <Table.Td ta="right">
                        <Money value={m.throughAgreements} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
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
