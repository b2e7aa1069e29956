import { Card, SimpleGrid, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Money } from '../../components/Money.tsx';
import { MoneyByMonth } from '../../components/MoneyByMonth.tsx';
import { QueryState } from '../../components/QueryState.tsx';
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
            <MoneyByMonth
              rows={months}
              period={(m) => m.period}
              periodLabel={t('payments.fields.period')}
              amounts={[
                { key: 'declared', label: t('payments.stats.declared'), value: (m) => m.declared, color: 'blue.6' },
                { key: 'ordered', label: t('payments.stats.ordered'), value: (m) => m.ordered },
                { key: 'collected', label: t('payments.stats.collected'), value: (m) => m.collected, color: 'teal.6' },
              ]}
            />
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
