import { BarChart } from '@mantine/charts';
import { Card, SimpleGrid, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../components/QueryState.tsx';
import { Money, Period } from '../planillas/components.tsx';
import { useCollectionStats } from './api.ts';

/**
 * The statistics page's collection panels: per month, what the approved planillas declared, what the
 * orders asked and what was collected; and the overdue principal by region. The tables carry the exact
 * amounts; the bars only draw them (a chart's height needs a number, never used for sums).
 */
export function CollectionPanels() {
  const { t } = useTranslation();
  const stats = useCollectionStats();
  const months = stats.data?.months ?? [];
  const regions = stats.data?.overdueByRegion ?? [];
  return (
    <QueryState query={stats}>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Card withBorder data-testid="panel-collection-monthly">
          <Title order={2} size="h4">
            {t('payments.stats.monthlyTitle')}
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            {t('payments.stats.monthlyHelp')}
          </Text>
          {months.length === 0 ? (
            <Text c="dimmed">{t('payments.stats.none')}</Text>
          ) : (
            <>
              <BarChart
                h={240}
                data={months.map((m) => ({
                  period: m.period,
                  declared: Number(m.declared),
                  collected: Number(m.collected),
                }))}
                dataKey="period"
                series={[
                  { name: 'declared', label: t('payments.stats.declared'), color: 'blue.6' },
                  { name: 'collected', label: t('payments.stats.collected'), color: 'teal.6' },
                ]}
                withLegend
              />
              <Table.ScrollContainer minWidth={420} mt="sm">
                <Table striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('payments.fields.period')}</Table.Th>
                      <Table.Th ta="right">{t('payments.stats.declared')}</Table.Th>
                      <Table.Th ta="right">{t('payments.stats.ordered')}</Table.Th>
                      <Table.Th ta="right">{t('payments.stats.collected')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {months.map((m) => (
                      <Table.Tr key={m.period}>
                        <Table.Td>
                          <Period value={m.period} />
                        </Table.Td>
                        <Table.Td ta="right">
                          <Money value={m.declared} />
                        </Table.Td>
                        <Table.Td ta="right">
                          <Money value={m.ordered} />
                        </Table.Td>
                        <Table.Td ta="right">
                          <Money value={m.collected} />
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </>
          )}
        </Card>
        <Card withBorder data-testid="panel-overdue-by-region">
          <Title order={2} size="h4">
            {t('payments.stats.overdueTitle')}
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            {t('payments.stats.overdueHelp', { date: stats.data?.asOf ?? '' })}
          </Text>
          {regions.length === 0 ? (
            <Text c="dimmed">{t('payments.stats.noneOverdue')}</Text>
          ) : (
            <Table.ScrollContainer minWidth={360}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('payments.stats.region')}</Table.Th>
                    <Table.Th ta="right">{t('payments.stats.orders')}</Table.Th>
                    <Table.Th ta="right">{t('payments.stats.balance')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {regions.map((r) => (
                    <Table.Tr key={r.regionId ?? 'none'}>
                      <Table.Td>{r.regionName}</Table.Td>
                      <Table.Td ta="right">{r.orders}</Table.Td>
                      <Table.Td ta="right">
                        <Money value={r.balance} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Card>
      </SimpleGrid>
    </QueryState>
  );
}
